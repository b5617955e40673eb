// Dataset::skip: drops the first `count` elements (-1: all of them).
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

class SkipNode : public DatasetNode {
 public:
  SkipNode(std::shared_ptr<const DatasetNode> input, int64_t count)
      : input_(std::move(input)), count_(count) {}
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return count_ < 0 && n == kInfiniteCardinality ? 0 : n;
    if (count_ < 0) return 0;
    return n > count_ ? n - count_ : 0;
  }
  std::string name() const override { return "SkipDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const SkipNode* n) : n_(n), input_(n->input_->make_iterator()) {}
      std::optional<Element> next() override {
        while (n_->count_ < 0 || skipped_ < n_->count_) {
          if (!input_->next()) return std::nullopt;
          ++skipped_;
        }
        return input_->next();
      }
      void save(StateWriter& w) override {
        w.write_i64(skipped_);
        input_->save(w);
      }
      void restore(StateReader& r) override {
        skipped_ = r.read_i64();
        input_->restore(r);
      }

     private:
      const SkipNode* n_;
      std::unique_ptr<IteratorBase> input_;
      int64_t skipped_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t count_;
};

}  // namespace

Dataset Dataset::skip(int64_t count) const {
  return Dataset(std::make_shared<SkipNode>(node_, count));
}

}  // namespace tfcc::data
