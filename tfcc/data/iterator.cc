#include "tfcc/data/iterator.h"

#include "tfcc/data/traced_iteration.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {

Iterator::Iterator(std::shared_ptr<const DatasetNode> node, std::unique_ptr<IteratorBase> impl)
    : node_(std::move(node)), state_(std::make_shared<State>()) {
  state_->impl = std::move(impl);
}
Iterator::Iterator(Iterator&&) noexcept = default;
Iterator& Iterator::operator=(Iterator&&) noexcept = default;
// Destroying the stage iterators stops and joins their worker threads (prefetch, parallel map).
Iterator::~Iterator() = default;

std::optional<Element> Iterator::State::next() {
  std::lock_guard<std::mutex> lock(mu);
  started = true;
  return impl->next();
}

std::optional<Element> Iterator::get_next_as_optional() { return state_->next(); }

Element Iterator::get_next() {
  if (internal::tracing()) return internal::traced_get_next(state_, element_spec());
  std::optional<Element> e = state_->next();
  if (!e) throw OutOfRangeError("End of sequence");
  return std::move(*e);
}

OptionalElement Iterator::get_next_as_optional_element() {
  if (internal::tracing()) return internal::traced_get_next_as_optional(state_, element_spec());
  return internal::make_optional(state_->next(), element_spec());
}

std::vector<Tensor> Iterator::reduce(std::vector<Tensor> initial_state, const ReduceFn& fn) {
  if (internal::tracing()) {
    ElementSpec spec = element_spec();
    return internal::traced_reduce(
        [&] { return internal::traced_get_next_as_optional(state_, spec); },
        std::move(initial_state), fn);
  }
  std::vector<Tensor> state = std::move(initial_state);
  while (std::optional<Element> e = state_->next()) {
    std::vector<Tensor> next = fn(state, *e);
    TFCC_CHECK_ARG(next.size() == state.size(), "reduce: the function returned ", next.size(),
                   " state tensors for an initial state of ", state.size());
    state = std::move(next);
  }
  return state;
}

void Iterator::for_each(const std::function<void(const Element&)>& body) {
  reduce({}, [&](const std::vector<Tensor>& state, const Element& e) {
    body(e);
    return state;
  });
}

std::string Iterator::save() {
  std::lock_guard<std::mutex> lock(state_->mu);
  StateWriter w;
  w.write_tag("tfcc.data.Iterator/1");
  w.write_tag(node_->name());
  state_->impl->save(w);
  return w.bytes();
}

void Iterator::restore(const std::string& state) {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->started) {
    throw FailedPreconditionError(
        "Iterator::restore must be called on a fresh iterator, before get_next()");
  }
  StateReader r(state);
  r.expect_tag("tfcc.data.Iterator/1");
  r.expect_tag(node_->name());
  state_->impl->restore(r);
  if (!r.done()) throw DataLossError("Iterator state has trailing bytes");
  state_->started = true;
}

}  // namespace tfcc::data
