#include "tfcc/data/dataset.h"

#include "tfcc/data/traced_iteration.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/logging.h"

namespace tfcc::data {

Iterator Dataset::make_iterator() const { return Iterator(node_, node_->make_iterator()); }

std::vector<Tensor> Dataset::reduce(std::vector<Tensor> initial_state, const ReduceFn& fn) const {
  if (internal::tracing()) {
    Tensor handle = internal::traced_make_iterator(node_);
    ElementSpec spec = element_spec();
    return internal::traced_reduce(
        [&] { return internal::traced_get_next_as_optional(handle, spec); },
        std::move(initial_state), fn);
  }
  return make_iterator().reduce(std::move(initial_state), fn);
}

void Dataset::for_each(const std::function<void(const Element&)>& body) const {
  reduce({}, [&](const std::vector<Tensor>& state, const Element& e) {
    body(e);
    return state;
  });
}

ElementIterator Dataset::begin() const { return ElementIterator(make_iterator()); }

Element Dataset::take_one() const {
  Iterator it = make_iterator();
  return it.get_next();
}

std::vector<Element> Dataset::as_vector() const {
  TFCC_CHECK_ARG(cardinality() != kInfiniteCardinality,
                 "as_vector() on an infinite dataset would never return");
  std::vector<Element> out;
  Iterator it = make_iterator();
  while (auto e = it.get_next_as_optional()) out.push_back(std::move(*e));
  return out;
}

Dataset Dataset::rebatch(int64_t batch_size, bool drop_remainder) const {
  return unbatch().batch(batch_size, drop_remainder);
}

ElementIterator::ElementIterator(Iterator it) : it_(std::make_shared<Iterator>(std::move(it))) {
  if (internal::tracing()) {
    // C++ has no AutoGraph: a range-for runs while tracing and bakes every element into the graph.
    TFCC_LOG(WARNING) << "A range-for over a Dataset inside a traced function iterates it once, "
                         "at trace time, and stores its elements in the graph; use "
                         "dataset.for_each(...) or dataset.reduce(...) to iterate at every call";
  }
  current_ = it_->get_next_as_optional();
}

ElementIterator& ElementIterator::operator++() {
  current_ = it_->get_next_as_optional();
  if (!current_) it_.reset();  // end of the pass: stop worker threads now
  return *this;
}

}  // namespace tfcc::data
