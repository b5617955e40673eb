// Dataset::shard: every num_shards-th element, starting at `index`.
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class ShardNode : public DatasetNode {
 public:
  ShardNode(std::shared_ptr<const DatasetNode> input, int64_t num_shards, int64_t index)
      : input_(std::move(input)), num_shards_(num_shards), index_(index) {
    TFCC_CHECK_ARG(
        num_shards > 0,
        "Number of shards must be greater than zero (currently num_shards = ", num_shards, ").");
    TFCC_CHECK_ARG(index >= 0 && index < num_shards, "Index must be between 0 and ", num_shards - 1,
                   " (currently index = ", index, ").");
  }
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return n;
    return n / num_shards_ + (index_ < n % num_shards_ ? 1 : 0);
  }
  std::string name() const override { return "ShardDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const ShardNode* n) : n_(n), input_(n->input_->make_iterator()) {}
      std::optional<Element> next() override {
        while (true) {
          std::optional<Element> e = input_->next();
          if (!e) return std::nullopt;
          int64_t i = pos_++;
          if (i % n_->num_shards_ == n_->index_) return e;
        }
      }
      void save(StateWriter& w) override {
        w.write_i64(pos_);
        input_->save(w);
      }
      void restore(StateReader& r) override {
        pos_ = r.read_i64();
        input_->restore(r);
      }

     private:
      const ShardNode* n_;
      std::unique_ptr<IteratorBase> input_;
      int64_t pos_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t num_shards_, index_;
};

}  // namespace

Dataset Dataset::shard(int64_t num_shards, int64_t index) const {
  return Dataset(std::make_shared<ShardNode>(node_, num_shards, index));
}

}  // namespace tfcc::data
