// Dataset::shuffle: TensorFlow's buffered shuffle. The buffer is filled with the first
// `buffer_size` elements; each step emits a uniformly chosen slot and refills it from the input.
//
// Randomness: Philox keyed by the seed, with the epoch as the stream, so an epoch's order depends
// only on (seed, epoch) and an iterator's state is three integers plus its buffer. With
// reshuffle_each_iteration every new iterator of the same dataset takes the next epoch number
// (TF's seed generator resource); without it every iterator replays epoch 0.
#include <atomic>
#include <random>

#include "tfcc/core/philox.h"
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class ShuffleNode : public DatasetNode {
 public:
  ShuffleNode(std::shared_ptr<const DatasetNode> input, int64_t buffer_size, ShuffleOptions opt)
      : input_(std::move(input)),
        buffer_size_(buffer_size),
        reshuffle_(opt.reshuffle_each_iteration) {
    TFCC_CHECK_ARG(buffer_size > 0, "buffer_size must be greater than zero (got ", buffer_size,
                   ").");
    if (opt.seed) {
      seed_ = *opt.seed;
    } else {
      std::random_device rd;
      seed_ = (uint64_t{rd()} << 32) | rd();
    }
  }
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "ShuffleDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const ShuffleNode* n)
          : n_(n),
            input_(n->input_->make_iterator()),
            epoch_(n->reshuffle_ ? n->epochs_.fetch_add(1) : 0) {}

      std::optional<Element> next() override {
        while (!input_done_ && static_cast<int64_t>(buffer_.size()) < n_->buffer_size_) {
          std::optional<Element> e = input_->next();
          if (!e) {
            input_done_ = true;
            break;
          }
          buffer_.push_back(std::move(*e));
        }
        if (buffer_.empty()) return std::nullopt;
        Philox::Block b = Philox(n_->seed_, static_cast<uint64_t>(epoch_)).block(draws_++);
        uint64_t r = (uint64_t{b[0]} << 32) | b[1];
        size_t slot = static_cast<size_t>(r % buffer_.size());
        Element out = std::move(buffer_[slot]);
        buffer_[slot] = std::move(buffer_.back());
        buffer_.pop_back();
        return out;
      }
      void save(StateWriter& w) override {
        w.write_i64(epoch_);
        w.write_u64(draws_);
        w.write_i64(input_done_);
        w.write_u64(buffer_.size());
        for (const Element& e : buffer_) w.write_element(e);
        input_->save(w);
      }
      void restore(StateReader& r) override {
        epoch_ = r.read_i64();
        draws_ = r.read_u64();
        input_done_ = r.read_i64() != 0;
        uint64_t n = r.read_u64();
        if (n > static_cast<uint64_t>(n_->buffer_size_)) {
          throw DataLossError("ShuffleDataset: saved buffer is larger than buffer_size");
        }
        buffer_.clear();
        for (uint64_t i = 0; i < n; ++i) buffer_.push_back(r.read_element());
        input_->restore(r);
        // Later iterators of this dataset continue the epoch sequence after the restored one.
        if (n_->reshuffle_) {
          int64_t cur = n_->epochs_.load();
          while (cur <= epoch_ && !n_->epochs_.compare_exchange_weak(cur, epoch_ + 1)) {
          }
        }
      }

     private:
      const ShuffleNode* n_;
      std::unique_ptr<IteratorBase> input_;
      int64_t epoch_;
      uint64_t draws_ = 0;
      bool input_done_ = false;
      std::vector<Element> buffer_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t buffer_size_;
  bool reshuffle_;
  uint64_t seed_ = 0;
  mutable std::atomic<int64_t> epochs_{0};
};

}  // namespace

Dataset Dataset::shuffle(int64_t buffer_size, ShuffleOptions options) const {
  return Dataset(std::make_shared<ShuffleNode>(node_, buffer_size, options));
}

}  // namespace tfcc::data
