// Dataset::concatenate: the elements of one dataset, then another's.
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class ConcatenateNode : public DatasetNode {
 public:
  ConcatenateNode(std::shared_ptr<const DatasetNode> a, std::shared_ptr<const DatasetNode> b)
      : a_(std::move(a)), b_(std::move(b)) {
    spec_ = most_specific_compatible(a_->element_spec(), b_->element_spec(),
                                     "concatenate: the input datasets are not compatible");
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    int64_t x = a_->cardinality(), y = b_->cardinality();
    if (x == kInfiniteCardinality || y == kInfiniteCardinality) return kInfiniteCardinality;
    if (x < 0 || y < 0) return kUnknownCardinality;
    return x + y;
  }
  std::string name() const override { return "ConcatenateDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const ConcatenateNode* n) : n_(n), cur_(n->a_->make_iterator()) {}
      std::optional<Element> next() override {
        while (cur_) {
          if (auto e = cur_->next()) return e;
          if (second_) {
            cur_.reset();
          } else {
            second_ = true;
            cur_ = n_->b_->make_iterator();
          }
        }
        return std::nullopt;
      }
      void save(StateWriter& w) override {
        w.write_i64(second_);
        w.write_i64(cur_ != nullptr);
        if (cur_) cur_->save(w);
      }
      void restore(StateReader& r) override {
        second_ = r.read_i64() != 0;
        bool has = r.read_i64() != 0;
        cur_.reset();
        if (has) {
          cur_ = second_ ? n_->b_->make_iterator() : n_->a_->make_iterator();
          cur_->restore(r);
        }
      }

     private:
      const ConcatenateNode* n_;
      std::unique_ptr<IteratorBase> cur_;
      bool second_ = false;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> a_, b_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::concatenate(const Dataset& other) const {
  return Dataset(std::make_shared<ConcatenateNode>(node_, other.node()));
}

}  // namespace tfcc::data
