// Dataset::unbatch: one element per row of each input element's first dimension.
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class UnbatchNode : public DatasetNode {
 public:
  explicit UnbatchNode(std::shared_ptr<const DatasetNode> input) : input_(std::move(input)) {
    for (const TensorSpec& s : input_->element_spec()) {
      TFCC_CHECK_ARG(!s.shape.rank_known() || s.shape.rank() >= 1,
                     "Cannot unbatch an input with scalar components.");
      TensorSpec o{s.dtype, PartialShape::unknown_rank()};
      if (s.shape.rank_known()) {
        o.shape =
            PartialShape(std::vector<int64_t>(s.shape.dims().begin() + 1, s.shape.dims().end()));
      }
      spec_.push_back(o);
    }
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    return input_->cardinality() == kInfiniteCardinality ? kInfiniteCardinality
                                                         : kUnknownCardinality;
  }
  std::string name() const override { return "UnbatchDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const UnbatchNode* n) : input_(n->input_->make_iterator()) {}
      std::optional<Element> next() override {
        while (!current_ || row_ >= rows_) {
          current_ = input_->next();
          if (!current_) return std::nullopt;
          row_ = 0;
          rows_ = -1;
          for (size_t c = 0; c < current_->size(); ++c) {
            const Tensor& t = (*current_)[c];
            TFCC_CHECK_ARG(t.rank() >= 1,
                           "Input element must have a non-scalar value in each component.");
            if (rows_ < 0) rows_ = t.shape().dim(0);
            TFCC_CHECK_ARG(t.shape().dim(0) == rows_,
                           "Input element must have the same batch size in each component. "
                           "Component 0 had size ",
                           rows_, " but component ", c, " had size ", t.shape().dim(0), ".");
          }
          if (current_->empty()) rows_ = 0;
        }
        Element out;
        for (const Tensor& t : *current_) out.push_back(internal::slice_row(t, row_));
        ++row_;
        return out;
      }
      void save(StateWriter& w) override {
        w.write_i64(current_.has_value());
        if (current_) {
          w.write_element(*current_);
          w.write_i64(row_);
          w.write_i64(rows_);
        }
        input_->save(w);
      }
      void restore(StateReader& r) override {
        current_.reset();
        if (r.read_i64() != 0) {
          current_ = r.read_element();
          row_ = r.read_i64();
          rows_ = r.read_i64();
          for (const Tensor& t : *current_) {
            if (t.rank() < 1 || t.shape().dim(0) != rows_ || row_ < 0) {
              throw DataLossError("UnbatchDataset: saved element does not match its row count");
            }
          }
        }
        input_->restore(r);
      }

     private:
      std::unique_ptr<IteratorBase> input_;
      std::optional<Element> current_;
      int64_t row_ = 0, rows_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::unbatch() const { return Dataset(std::make_shared<UnbatchNode>(node_)); }

}  // namespace tfcc::data
