// Dataset::range: int64 scalars start, start + step, ... (tf.data.Dataset.range).
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class RangeNode : public DatasetNode {
 public:
  RangeNode(int64_t start, int64_t stop, int64_t step) : start_(start), stop_(stop), step_(step) {
    TFCC_CHECK_ARG(step != 0, "step must be a non-zero integer.");
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    if (step_ > 0) return stop_ > start_ ? (stop_ - start_ - 1) / step_ + 1 : 0;
    return start_ > stop_ ? (start_ - stop_ - 1) / (-step_) + 1 : 0;
  }
  std::string name() const override { return "RangeDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const RangeNode* n) : n_(n), next_(n->start_) {}
      std::optional<Element> next() override {
        if (done_ || (n_->step_ > 0 ? next_ >= n_->stop_ : next_ <= n_->stop_)) {
          return std::nullopt;
        }
        int64_t v = next_;
        // Stepping past INT64_MAX ends the range instead of wrapping around.
        if (__builtin_add_overflow(next_, n_->step_, &next_)) done_ = true;
        return Element{Tensor::scalar<int64_t>(v)};
      }
      void save(StateWriter& w) override {
        w.write_i64(next_);
        w.write_i64(done_);
      }
      void restore(StateReader& r) override {
        next_ = r.read_i64();
        done_ = r.read_i64() != 0;
      }

     private:
      const RangeNode* n_;
      int64_t next_;
      bool done_ = false;
    };
    return std::make_unique<It>(this);
  }

 private:
  int64_t start_, stop_, step_;
  ElementSpec spec_{{int64, PartialShape(Shape{})}};
};

}  // namespace

Dataset Dataset::range(int64_t stop) { return range(0, stop, 1); }
Dataset Dataset::range(int64_t start, int64_t stop, int64_t step) {
  return Dataset(std::make_shared<RangeNode>(start, stop, step));
}

}  // namespace tfcc::data
