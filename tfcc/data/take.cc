// Dataset::take: at most `count` elements (-1: all).
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

class TakeNode : public DatasetNode {
 public:
  TakeNode(std::shared_ptr<const DatasetNode> input, int64_t count)
      : input_(std::move(input)), count_(count) {}
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ < 0) return n;
    if (n == kInfiniteCardinality) return count_;
    if (n == kUnknownCardinality) return n;
    return n < count_ ? n : count_;
  }
  std::string name() const override { return "TakeDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const TakeNode* n) : n_(n), input_(n->input_->make_iterator()) {}
      std::optional<Element> next() override {
        if (!input_ || (n_->count_ >= 0 && taken_ >= n_->count_)) {
          // Release the input as soon as this stage is done, as TensorFlow does: a cache()
          // upstream then sees its iterator destroyed before the end of its input.
          input_.reset();
          return std::nullopt;
        }
        std::optional<Element> e = input_->next();
        if (!e) {
          input_.reset();
          return std::nullopt;
        }
        ++taken_;
        return e;
      }
      void save(StateWriter& w) override {
        w.write_i64(taken_);
        w.write_i64(input_ != nullptr);
        if (input_) input_->save(w);
      }
      void restore(StateReader& r) override {
        taken_ = r.read_i64();
        if (r.read_i64() != 0) {
          input_->restore(r);
        } else {
          input_.reset();
        }
      }

     private:
      const TakeNode* n_;
      std::unique_ptr<IteratorBase> input_;
      int64_t taken_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t count_;
};

}  // namespace

Dataset Dataset::take(int64_t count) const {
  return Dataset(std::make_shared<TakeNode>(node_, count));
}

}  // namespace tfcc::data
