// The iteration side of a tfcc::data pipeline: the per-transformation iterator interface, the
// dataset node interface it comes from, and the user-facing Iterator handle.
//
//   auto it = dataset.make_iterator();
//   while (auto element = it.get_next_as_optional()) use((*element)[0]);
//   std::string state = it.save();      // resume later with restore(state)
//
// A dataset is an immutable description (a DatasetNode graph shared by every copy of a Dataset);
// all state lives in the iterators it makes. One Iterator may be used from one thread at a time
// (calls are serialised by a mutex, as in TensorFlow); separate iterators are independent.
//
// Inside a traced tfcc::function, get_next() and get_next_as_optional_element() become host nodes
// ("IteratorGetNext", "IteratorGetNextAsOptional") that pull from this iterator each time the
// function runs, as `next(iterator)` does in a tf.function (the trace keeps the iterator alive):
//
//   auto it = dataset.make_iterator();
//   auto step = tfcc::function([&]() {
//     tfcc::data::Element batch = it.get_next();   // OutOfRangeError at the end when run
//     return train_step(batch[0], batch[1]);
//   });
//
// A whole pass inside one traced call: Dataset::for_each / reduce (dataset.h), or a
// tfcc::while_loop over get_next_as_optional_element().
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "tfcc/data/element.h"
#include "tfcc/data/state.h"

namespace tfcc::data {

/// Cardinality of an endless dataset (tf.data.INFINITE_CARDINALITY).
inline constexpr int64_t kInfiniteCardinality = -1;
/// Cardinality that cannot be known without iterating (tf.data.UNKNOWN_CARDINALITY).
inline constexpr int64_t kUnknownCardinality = -2;

/// tf.experimental.Optional of an element, as tensors (so it can be a loop variable): a bool
/// scalar, and the element when it is true (zeros shaped like the element spec, unknown
/// dimensions 0, when it is false).
struct OptionalElement {
  Tensor has_value;
  Element value;
};

/// A reduce function: the new state from the state and one element (tf.data.Dataset.reduce).
using ReduceFn =
    std::function<std::vector<Tensor>(const std::vector<Tensor>& state, const Element& element)>;

/// One stage's iteration state. Implementations live next to their dataset node.
class IteratorBase {
 public:
  virtual ~IteratorBase() = default;
  /// The next element, or nullopt at the end of the sequence.
  virtual std::optional<Element> next() = 0;
  /// Appends this stage's state and then its inputs' (waiting for in-flight work first).
  virtual void save(StateWriter& w) = 0;
  /// Reads what save() wrote; called on a fresh iterator before next().
  virtual void restore(StateReader& r) = 0;
};

/// One stage of a pipeline: immutable, shared by every Dataset handle that refers to it.
class DatasetNode : public std::enable_shared_from_this<DatasetNode> {
 public:
  virtual ~DatasetNode() = default;
  /// A fresh iterator positioned at the first element.
  virtual std::unique_ptr<IteratorBase> make_iterator() const = 0;
  /// The type of every element.
  virtual const ElementSpec& element_spec() const = 0;
  /// Number of elements, kInfiniteCardinality or kUnknownCardinality.
  virtual int64_t cardinality() const { return kUnknownCardinality; }
  /// TensorFlow's op name for this stage ("MapDataset", "ShuffleDataset", ...).
  virtual std::string name() const = 0;
};

/// A user-facing iterator: `get_next()`, state save/restore, and the basis of range-for.
class Iterator {
 public:
  Iterator(std::shared_ptr<const DatasetNode> node, std::unique_ptr<IteratorBase> impl);
  Iterator(Iterator&&) noexcept;
  Iterator& operator=(Iterator&&) noexcept;
  ~Iterator();

  /// The next element; OutOfRangeError("End of sequence") at the end, like TensorFlow's
  /// `iterator.get_next()`. Traced: symbolic tensors from an IteratorGetNext node.
  Element get_next();
  /// The next element, or nullopt at the end (tf.data.Iterator.get_next_as_optional). Eager only.
  std::optional<Element> get_next_as_optional();
  /// The next element as an OptionalElement; eager or traced (an IteratorGetNextAsOptional node).
  OptionalElement get_next_as_optional_element();
  /// Runs `body` on every remaining element; inside a traced function, as one While loop run at
  /// each call (see Dataset::for_each).
  void for_each(const std::function<void(const Element&)>& body);
  /// state = fn(state, element) over every remaining element; returns the final state. Eager or,
  /// traced, one While loop.
  std::vector<Tensor> reduce(std::vector<Tensor> initial_state, const ReduceFn& fn);
  /// The iterator's full state (positions, buffered elements, RNG counters).
  std::string save();
  /// Restores a state written by save() on an iterator of the same pipeline. Only valid before
  /// the first get_next(); otherwise FailedPreconditionError.
  void restore(const std::string& state);
  /// The type of the elements.
  ElementSpec element_spec() const { return node_->element_spec(); }

  /// The stage iterators and their lock, shared with the graph nodes that use this iterator.
  struct State {
    std::unique_ptr<IteratorBase> impl;
    std::mutex mu;
    bool started = false;
    /// The next element or nullopt, under the lock.
    std::optional<Element> next();
  };

 private:
  std::shared_ptr<const DatasetNode> node_;
  std::shared_ptr<State> state_;
};

}  // namespace tfcc::data
#pragma GCC visibility pop
