#include "tfcc/data/iterator.h"

#include "tfcc/platform/errors.h"

namespace tfcc::data {

Iterator::Iterator(std::shared_ptr<const DatasetNode> node, std::unique_ptr<IteratorBase> impl)
    : node_(std::move(node)), impl_(std::move(impl)), mu_(std::make_unique<std::mutex>()) {}
Iterator::Iterator(Iterator&&) noexcept = default;
Iterator& Iterator::operator=(Iterator&&) noexcept = default;
// Destroying the stage iterators stops and joins their worker threads (prefetch, parallel map).
Iterator::~Iterator() = default;

std::optional<Element> Iterator::get_next_as_optional() {
  std::lock_guard<std::mutex> lock(*mu_);
  started_ = true;
  return impl_->next();
}

Element Iterator::get_next() {
  std::optional<Element> e = get_next_as_optional();
  if (!e) throw OutOfRangeError("End of sequence");
  return std::move(*e);
}

std::string Iterator::save() {
  std::lock_guard<std::mutex> lock(*mu_);
  StateWriter w;
  w.write_tag("tfcc.data.Iterator/1");
  w.write_tag(node_->name());
  impl_->save(w);
  return w.bytes();
}

void Iterator::restore(const std::string& state) {
  std::lock_guard<std::mutex> lock(*mu_);
  if (started_) {
    throw FailedPreconditionError(
        "Iterator::restore must be called on a fresh iterator, before get_next()");
  }
  StateReader r(state);
  r.expect_tag("tfcc.data.Iterator/1");
  r.expect_tag(node_->name());
  impl_->restore(r);
  if (!r.done()) throw DataLossError("Iterator state has trailing bytes");
  started_ = true;
}

}  // namespace tfcc::data
