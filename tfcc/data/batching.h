// Internal: the iterator batch() and padded_batch() share. It pulls up to batch_size elements,
// vets each with check_row(), and hands the rows to combine(); a short final batch is dropped when
// drop_remainder is set. Its saved state is "input exhausted" followed by the input's state.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tfcc/data/iterator.h"
#include "tfcc/data/state.h"

namespace tfcc::data::internal {

/// Base of the batching iterators: collects rows; subclasses say how rows become one element.
class BatchingIterator : public IteratorBase {
 public:
  BatchingIterator(std::unique_ptr<IteratorBase> input, int64_t batch_size, bool drop_remainder)
      : input_(std::move(input)), batch_size_(batch_size), drop_remainder_(drop_remainder) {}

  std::optional<Element> next() final {
    if (done_) return std::nullopt;
    std::vector<Element> rows;
    rows.reserve(static_cast<size_t>(batch_size_ < 4096 ? batch_size_ : 4096));
    while (static_cast<int64_t>(rows.size()) < batch_size_) {
      std::optional<Element> e = input_->next();
      if (!e) {
        done_ = true;
        break;
      }
      if (!rows.empty()) check_row(rows[0], *e, static_cast<int64_t>(rows.size()));
      rows.push_back(std::move(*e));
    }
    if (rows.empty() || (drop_remainder_ && static_cast<int64_t>(rows.size()) < batch_size_)) {
      return std::nullopt;
    }
    return combine(rows);
  }
  void save(StateWriter& w) final {
    w.write_i64(done_);
    input_->save(w);
  }
  void restore(StateReader& r) final {
    done_ = r.read_i64() != 0;
    input_->restore(r);
  }

 protected:
  /// Throws when row `index` cannot join a batch that starts with `first`.
  virtual void check_row(const Element& first, const Element& row, int64_t index) = 0;
  /// The batch made of `rows` (at least one; the rows may be moved from).
  virtual Element combine(std::vector<Element>& rows) = 0;

 private:
  std::unique_ptr<IteratorBase> input_;
  int64_t batch_size_;
  bool drop_remainder_;
  bool done_ = false;
};

}  // namespace tfcc::data::internal
