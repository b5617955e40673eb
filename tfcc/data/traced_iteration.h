// Iteration inside traced functions (internal): the host nodes that pull elements from iterators
// when a traced function runs, and the While loop that makes a whole pass one traced call.
//
// Nodes (kHostCall, named like TensorFlow's ops, run at every call of the function):
//   IteratorGetNext           captures an Iterator's state; outputs the next element
//                             (OutOfRangeError "End of sequence" at the end)
//   IteratorGetNextAsOptional the same as (has_value, element...), from a captured iterator or
//                             from an iterator handle input
//   AnonymousIterator         a fresh iterator of a captured Dataset at every call; outputs an
//                             int64 handle that owns it (the iterator dies with the last copy of
//                             the handle, so an exception mid-loop leaks nothing)
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tfcc/data/iterator.h"

namespace tfcc::data::internal {

/// True while a function is being traced on this thread.
bool tracing();

/// IteratorGetNext on `state`: symbolic tensors of `spec`.
Element traced_get_next(std::shared_ptr<Iterator::State> state, const ElementSpec& spec);

/// IteratorGetNextAsOptional on `state`.
OptionalElement traced_get_next_as_optional(std::shared_ptr<Iterator::State> state,
                                            const ElementSpec& spec);

/// An eager OptionalElement from an optional element (zeros of `spec` when empty).
OptionalElement make_optional(std::optional<Element> element, const ElementSpec& spec);

/// state = fn(state, element) for every element `next` yields, as one While loop in the current
/// trace; `next` adds the node that yields the next OptionalElement (it is called once before the
/// loop and once in its body). Returns the final state.
using ReduceFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const Element&)>;
std::vector<Tensor> traced_reduce(const std::function<OptionalElement()>& next,
                                  std::vector<Tensor> initial_state, const ReduceFn& fn);

/// AnonymousIterator for `node`: the handle of an iterator made at each call.
Tensor traced_make_iterator(std::shared_ptr<const DatasetNode> node);

/// IteratorGetNextAsOptional on a handle made by traced_make_iterator.
OptionalElement traced_get_next_as_optional(const Tensor& handle, const ElementSpec& spec);

}  // namespace tfcc::data::internal
