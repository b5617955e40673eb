// Dataset::repeat: the input `count` times (-1: forever); each repetition is a new input
// iterator, so a shuffle upstream reshuffles per epoch.
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

class RepeatNode : public DatasetNode {
 public:
  RepeatNode(std::shared_ptr<const DatasetNode> input, int64_t count)
      : input_(std::move(input)), count_(count) {}
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ == 0 || n == 0) return 0;
    if (count_ < 0) return n == kUnknownCardinality ? n : kInfiniteCardinality;
    if (n < 0) return n;
    int64_t r;
    return __builtin_mul_overflow(n, count_, &r) ? kInfiniteCardinality : r;
  }
  std::string name() const override { return "RepeatDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const RepeatNode* n) : n_(n) {}
      std::optional<Element> next() override {
        while (n_->count_ < 0 || epoch_ < n_->count_) {
          if (!input_) {
            input_ = n_->input_->make_iterator();
            epoch_started_empty_ = true;
          }
          if (auto e = input_->next()) {
            epoch_started_empty_ = false;
            return e;
          }
          input_.reset();
          // An input that is empty would make repeat() spin forever; TF ends the sequence.
          if (epoch_started_empty_) break;
          ++epoch_;
        }
        return std::nullopt;
      }
      void save(StateWriter& w) override {
        w.write_i64(epoch_);
        w.write_i64(epoch_started_empty_);
        w.write_i64(input_ != nullptr);
        if (input_) input_->save(w);
      }
      void restore(StateReader& r) override {
        epoch_ = r.read_i64();
        epoch_started_empty_ = r.read_i64() != 0;
        input_.reset();
        if (r.read_i64() != 0) {
          input_ = n_->input_->make_iterator();
          input_->restore(r);
        }
      }

     private:
      const RepeatNode* n_;
      std::unique_ptr<IteratorBase> input_;
      int64_t epoch_ = 0;
      bool epoch_started_empty_ = true;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t count_;
};

}  // namespace

Dataset Dataset::repeat(int64_t count) const {
  return Dataset(std::make_shared<RepeatNode>(node_, count));
}

}  // namespace tfcc::data
