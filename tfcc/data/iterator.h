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
#pragma once

#include <cstdint>
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
  /// `iterator.get_next()`.
  Element get_next();
  /// The next element, or nullopt at the end (tf.data.Iterator.get_next_as_optional).
  std::optional<Element> get_next_as_optional();
  /// The iterator's full state (positions, buffered elements, RNG counters).
  std::string save();
  /// Restores a state written by save() on an iterator of the same pipeline. Only valid before
  /// the first get_next(); otherwise FailedPreconditionError.
  void restore(const std::string& state);
  /// The type of the elements.
  ElementSpec element_spec() const { return node_->element_spec(); }

 private:
  std::shared_ptr<const DatasetNode> node_;
  std::unique_ptr<IteratorBase> impl_;
  std::unique_ptr<std::mutex> mu_;
  bool started_ = false;
};

}  // namespace tfcc::data
