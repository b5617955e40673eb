// Dataset::enumerate: (int64 index, *element), counting from `start`.
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

class EnumerateNode : public DatasetNode {
 public:
  EnumerateNode(std::shared_ptr<const DatasetNode> input, int64_t start)
      : input_(std::move(input)), start_(start) {
    spec_.push_back({int64, PartialShape(Shape{})});
    const ElementSpec& s = input_->element_spec();
    spec_.insert(spec_.end(), s.begin(), s.end());
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "EnumerateDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const EnumerateNode* n) : input_(n->input_->make_iterator()), i_(n->start_) {}
      std::optional<Element> next() override {
        std::optional<Element> e = input_->next();
        if (!e) return std::nullopt;
        e->insert(e->begin(), Tensor::scalar<int64_t>(i_++));
        return e;
      }
      void save(StateWriter& w) override {
        w.write_i64(i_);
        input_->save(w);
      }
      void restore(StateReader& r) override {
        i_ = r.read_i64();
        input_->restore(r);
      }

     private:
      std::unique_ptr<IteratorBase> input_;
      int64_t i_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t start_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::enumerate(int64_t start) const {
  return Dataset(std::make_shared<EnumerateNode>(node_, start));
}

}  // namespace tfcc::data
