// Dataset::batch: stacks consecutive elements along a new first dimension.
#include "tfcc/data/batching.h"
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace internal {

// Checks that element `index` matches the first element of its batch, component by component.
void check_batchable(const Element& first, const Element& e, int64_t index) {
  TFCC_CHECK_ARG(e.size() == first.size(),
                 "Cannot batch elements with different structures: ", "element 0 has ",
                 first.size(), " components and element ", index, " has ", e.size());
  for (size_t c = 0; c < e.size(); ++c) {
    TFCC_CHECK_ARG(e[c].dtype() == first[c].dtype(), "Cannot batch tensors with different dtypes ",
                   "in component ", c, ". First element had dtype ", dtype_name(first[c].dtype()),
                   " and element ", index, " had dtype ", dtype_name(e[c].dtype()), ".");
    TFCC_CHECK_ARG(e[c].shape() == first[c].shape(), "Cannot batch tensors with different shapes ",
                   "in component ", c, ". First element had shape ",
                   first[c].shape().debug_string(), " and element ", index, " had shape ",
                   e[c].shape().debug_string(), ".");
  }
}

}  // namespace internal

namespace {

class BatchNode : public DatasetNode {
 public:
  BatchNode(std::shared_ptr<const DatasetNode> input, int64_t batch_size, bool drop_remainder)
      : input_(std::move(input)), batch_size_(batch_size), drop_remainder_(drop_remainder) {
    TFCC_CHECK_ARG(batch_size > 0, "Batch size must be greater than zero, got ", batch_size, ".");
    spec_ = batched_spec(input_->element_spec(), drop_remainder ? batch_size : -1);
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return n;
    return drop_remainder_ ? n / batch_size_ : (n + batch_size_ - 1) / batch_size_;
  }
  std::string name() const override { return "BatchDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public internal::BatchingIterator {
     public:
      explicit It(const BatchNode* n)
          : BatchingIterator(n->input_->make_iterator(), n->batch_size_, n->drop_remainder_) {}

     protected:
      void check_row(const Element& first, const Element& row, int64_t index) override {
        internal::check_batchable(first, row, index);
      }
      Element combine(std::vector<Element>& rows) override {
        Element out;
        std::vector<Tensor> column(rows.size());
        for (size_t c = 0; c < rows[0].size(); ++c) {
          for (size_t r = 0; r < rows.size(); ++r) column[r] = std::move(rows[r][c]);
          out.push_back(internal::stack_rows(column));
        }
        return out;
      }
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t batch_size_;
  bool drop_remainder_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::batch(int64_t batch_size, bool drop_remainder) const {
  return Dataset(std::make_shared<BatchNode>(node_, batch_size, drop_remainder));
}

}  // namespace tfcc::data
