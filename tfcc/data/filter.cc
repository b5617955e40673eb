// Dataset::filter: keeps the elements for which the predicate is true.
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

class FilterNode : public DatasetNode {
 public:
  FilterNode(std::shared_ptr<const DatasetNode> input, PredicateFn pred)
      : input_(std::move(input)), pred_(std::move(pred)) {}
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override {
    return input_->cardinality() == kInfiniteCardinality ? kInfiniteCardinality
                                                         : kUnknownCardinality;
  }
  std::string name() const override { return "FilterDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const FilterNode* n) : n_(n), input_(n->input_->make_iterator()) {}
      std::optional<Element> next() override {
        while (auto e = input_->next()) {
          if (n_->pred_(*e)) return e;
        }
        return std::nullopt;
      }
      void save(StateWriter& w) override { input_->save(w); }
      void restore(StateReader& r) override { input_->restore(r); }

     private:
      const FilterNode* n_;
      std::unique_ptr<IteratorBase> input_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  PredicateFn pred_;
};

}  // namespace

Dataset Dataset::filter_element(PredicateFn predicate) const {
  return Dataset(std::make_shared<FilterNode>(node_, std::move(predicate)));
}

}  // namespace tfcc::data
