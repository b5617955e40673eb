// Sources over tensors held in memory: from_tensors and from_tensor_slices.
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class FromTensorsNode : public DatasetNode {
 public:
  explicit FromTensorsNode(Element e) : element_(std::move(e)), spec_(spec_of(element_)) {}
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override { return 1; }
  std::string name() const override { return "TensorDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const FromTensorsNode* n) : n_(n) {}
      std::optional<Element> next() override {
        if (done_) return std::nullopt;
        done_ = true;
        return n_->element_;
      }
      void save(StateWriter& w) override { w.write_i64(done_); }
      void restore(StateReader& r) override { done_ = r.read_i64() != 0; }

     private:
      const FromTensorsNode* n_;
      bool done_ = false;
    };
    return std::make_unique<It>(this);
  }

 private:
  Element element_;
  ElementSpec spec_;
};

class TensorSlicesNode : public DatasetNode {
 public:
  explicit TensorSlicesNode(Element e) : components_(std::move(e)) {
    TFCC_CHECK_ARG(!components_.empty(), "from_tensor_slices needs at least one tensor");
    for (size_t i = 0; i < components_.size(); ++i) {
      const Tensor& t = components_[i];
      TFCC_CHECK_ARG(t.defined() && !t.is_symbolic(), "from_tensor_slices: component ", i,
                     " is not a concrete tensor");
      TFCC_CHECK_ARG(t.rank() >= 1, "from_tensor_slices: component ", i,
                     " is a scalar; every component needs a first dimension to slice");
      TFCC_CHECK_ARG(t.shape().dim(0) == components_[0].shape().dim(0), "Dimensions ",
                     components_[0].shape().dim(0), " and ", t.shape().dim(0),
                     " are not compatible: all components must have the same size in dimension "
                     "0 (component 0 has shape ",
                     components_[0].shape().to_string(), ", component ", i, " has shape ",
                     t.shape().to_string(), ")");
      std::vector<int64_t> dims(t.shape().dims().begin() + 1, t.shape().dims().end());
      spec_.push_back({t.dtype(), PartialShape(std::move(dims))});
    }
    rows_ = components_[0].shape().dim(0);
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override { return rows_; }
  std::string name() const override { return "TensorSliceDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const TensorSlicesNode* n) : n_(n) {}
      std::optional<Element> next() override {
        if (i_ >= n_->rows_) return std::nullopt;
        Element e;
        e.reserve(n_->components_.size());
        for (const Tensor& t : n_->components_) e.push_back(internal::slice_row(t, i_));
        ++i_;
        return e;
      }
      void save(StateWriter& w) override { w.write_i64(i_); }
      void restore(StateReader& r) override {
        i_ = r.read_i64();
        if (i_ < 0 || i_ > n_->rows_) throw DataLossError("TensorSliceDataset: bad position");
      }

     private:
      const TensorSlicesNode* n_;
      int64_t i_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  Element components_;
  ElementSpec spec_;
  int64_t rows_ = 0;
};

}  // namespace

Dataset Dataset::from_tensors(Element components) {
  return Dataset(std::make_shared<FromTensorsNode>(std::move(components)));
}

Dataset Dataset::from_tensor_slices(Element components) {
  return Dataset(std::make_shared<TensorSlicesNode>(std::move(components)));
}

}  // namespace tfcc::data
