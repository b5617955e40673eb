// tfcc::data::Dataset: TensorFlow's tf.data.Dataset in C++.
//
//   namespace tf = tfcc;
//   auto [train, test] = tf::datasets::load("fashion_mnist");  // (uint8 [28,28], int64 label)
//   auto scale = [](tf::Tensor image, tf::Tensor label) {
//     return std::tuple{tf::cast(image, tf::float32) / 255.0f, label};
//   };
//   auto data = train.map(scale, {.num_parallel_calls = tf::data::AUTOTUNE})
//                   .shuffle(10000)
//                   .batch(64)
//                   .prefetch(tf::data::AUTOTUNE);
//   for (const tf::data::Element& batch : data) {   // batch[0]: (64, 28, 28) float32
//     train_step(batch[0], batch[1]);
//   }
//
// A Dataset is an immutable description: every transformation returns a new Dataset sharing its
// input, and copying a Dataset copies a handle. Each range-for or make_iterator() starts an
// independent pass (an epoch); all state lives in the iterator. Elements are flat tuples of
// tensors (Element = std::vector<Tensor>).
//
// Functions given to map/filter/interleave run on worker threads when num_parallel_calls > 1:
// they must be safe to call concurrently. An exception they throw reaches the consumer from the
// get_next() that would have returned that element.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/data/element.h"
#include "tfcc/data/iterator.h"
#include "tfcc/data/map_fn.h"

namespace tfcc::data {

/// Lets the runtime choose a parallelism or buffer size (tf.data.AUTOTUNE).
inline constexpr int64_t AUTOTUNE = -1;

/// Options of Dataset::map.
struct MapOptions {
  /// 0 or 1: sequential. N > 1: N calls in flight on N threads. AUTOTUNE: one per core.
  int64_t num_parallel_calls = 0;
  /// With parallel calls, whether elements keep their input order (TF's default: true).
  bool deterministic = true;
  /// Output spec, if known; otherwise inferred by running the function on zero-filled inputs.
  std::optional<ElementSpec> output_spec;
};

/// Options of Dataset::shuffle.
struct ShuffleOptions {
  /// Seed; nullopt draws a random one per dataset (TF's seed=None).
  std::optional<uint64_t> seed;
  /// Each new iterator (epoch) gets a different order (TF's default: true).
  bool reshuffle_each_iteration = true;
};

/// Options of Dataset::padded_batch.
struct PaddedBatchOptions {
  /// Per component; unknown (-1) dims pad to the longest in the batch. Default: all unknown.
  std::optional<std::vector<PartialShape>> padded_shapes;
  /// Per component scalar padding value; default 0 of the component's dtype.
  std::optional<std::vector<Tensor>> padding_values;
  bool drop_remainder = false;
};

/// Options of Dataset::interleave.
struct InterleaveOptions {
  /// Inputs open at once; AUTOTUNE: number of cores.
  int64_t cycle_length = AUTOTUNE;
  /// Consecutive elements taken from each input before moving to the next.
  int64_t block_length = 1;
};

class Dataset;
/// What Dataset::begin() returns: an input iterator over elements.
class ElementIterator;

/// A tf.data-style input pipeline (see the file comment).
class Dataset {
 public:
  /// Wraps a node; sources and transformations build these.
  explicit Dataset(std::shared_ptr<const DatasetNode> node) : node_(std::move(node)) {}

  // ---- Sources -----------------------------------------------------------------------------
  /// One element holding `components` (tf.data.Dataset.from_tensors).
  static Dataset from_tensors(Element components);
  /// One element per row of the components' first dimension (from_tensor_slices); every
  /// component must have the same first dimension.
  static Dataset from_tensor_slices(Element components);
  /// int64 scalars start, start+step, ... below stop (tf.data.Dataset.range).
  static Dataset range(int64_t stop);
  static Dataset range(int64_t start, int64_t stop, int64_t step = 1);
  /// Elements from a generator. `make_generator` is called once per iteration and returns a
  /// callable yielding the next element or nullopt at the end; each element is checked against
  /// `output_signature` (unknown dims allowed).
  static Dataset from_generator(
      std::function<std::function<std::optional<Element>()>()> make_generator,
      ElementSpec output_signature);
  /// The file names matching a glob `pattern`, as bytes tensors (see bytes_tensor), shuffled
  /// unless `shuffle` is false (TF's default is to shuffle). No match: InvalidArgumentError.
  static Dataset list_files(const std::string& pattern, bool shuffle = true,
                            std::optional<uint64_t> seed = std::nullopt);
  /// Elements of `datasets` zipped into one tuple; ends with the shortest.
  static Dataset zip(const std::vector<Dataset>& datasets);

  // ---- Transformations ---------------------------------------------------------------------
  /// Applies `fn` to every element (see MapOptions and map_fn.h for accepted signatures).
  template <typename F>
  Dataset map(F fn, MapOptions options = {}) const {
    return map_element(internal::make_element_fn(std::move(fn)), std::move(options));
  }
  Dataset map_element(ElementFn fn, MapOptions options = {}) const;
  /// Keeps elements for which `predicate` returns true (a bool or a scalar bool tensor).
  template <typename F>
  Dataset filter(F predicate) const {
    return filter_element(internal::make_predicate_fn(std::move(predicate)));
  }
  Dataset filter_element(PredicateFn predicate) const;
  /// Randomly shuffles with a buffer of `buffer_size` elements (TF's algorithm: fill the
  /// buffer, emit a random slot, refill it from the input).
  Dataset shuffle(int64_t buffer_size, ShuffleOptions options = {}) const;
  /// Stacks `batch_size` consecutive elements; the last batch may be smaller unless
  /// `drop_remainder`.
  Dataset batch(int64_t batch_size, bool drop_remainder = false) const;
  /// Like batch, padding each component to a common shape.
  Dataset padded_batch(int64_t batch_size, PaddedBatchOptions options = {}) const;
  /// Splits each element along its first dimension (the inverse of batch).
  Dataset unbatch() const;
  /// Re-batches a batched dataset into batches of `batch_size` (unbatch then batch).
  Dataset rebatch(int64_t batch_size, bool drop_remainder = false) const;
  /// Repeats `count` times; -1 (default) forever.
  Dataset repeat(int64_t count = -1) const;
  /// The first `count` elements (-1: all).
  Dataset take(int64_t count) const;
  /// All but the first `count` elements (-1: skip all).
  Dataset skip(int64_t count) const;
  /// Caches elements in memory (`filename` empty) or in a file, after the first full pass.
  Dataset cache(const std::string& filename = "") const;
  /// Produces elements ahead on a background thread, `buffer_size` at most (AUTOTUNE: a
  /// default depth).
  Dataset prefetch(int64_t buffer_size) const;
  /// This dataset's elements followed by `other`'s (same structure and dtypes).
  Dataset concatenate(const Dataset& other) const;
  /// Prepends an int64 scalar counter starting at `start` to every element.
  Dataset enumerate(int64_t start = 0) const;
  /// Every `num_shards`-th element starting at `index` (for data-parallel training).
  Dataset shard(int64_t num_shards, int64_t index) const;
  /// Maps each element to a dataset and interleaves their elements.
  Dataset interleave(std::function<Dataset(const Element&)> fn,
                     InterleaveOptions options = {}) const;
  /// `fn(*this)`: a reusable chunk of pipeline.
  Dataset apply(const std::function<Dataset(const Dataset&)>& fn) const { return fn(*this); }

  // ---- Inspection and iteration ------------------------------------------------------------
  /// The type of each element.
  ElementSpec element_spec() const { return node_->element_spec(); }
  /// Number of elements; kInfiniteCardinality or kUnknownCardinality when not known.
  int64_t cardinality() const { return node_->cardinality(); }
  /// A new iterator at the first element.
  Iterator make_iterator() const;
  /// Range-for support: `for (const Element& e : dataset)`.
  ElementIterator begin() const;
  std::default_sentinel_t end() const { return {}; }
  /// tf.data.Dataset.reduce: state = fn(state, element) over one pass; returns the final state.
  /// Inside a traced function it is one While loop over an iterator made at every call, so a
  /// whole epoch is one traced call (the loop body, `fn`, is traced once).
  std::vector<Tensor> reduce(std::vector<Tensor> initial_state, const ReduceFn& fn) const;
  /// Calls `body` on every element of one pass: `for x, y in dataset:` in a tf.function when
  /// traced (the seed's `train(model, dataset, optimizer)`):
  ///
  ///   auto train = tfcc::function([&]() {
  ///     dataset.for_each([&](const tfcc::data::Element& batch) { train_step(batch[0], batch[1]);
  ///     });
  ///   });
  ///   train();   // one epoch
  ///
  /// Side effects of the body must go through ops (variable updates, summaries): C++ code in it
  /// runs once, while tracing.
  void for_each(const std::function<void(const Element&)>& body) const;
  /// The first element (OutOfRangeError if empty); for tests and quick looks.
  Element take_one() const;
  /// Every element, in order (never call on an infinite dataset).
  std::vector<Element> as_vector() const;
  /// The node graph behind this handle.
  const std::shared_ptr<const DatasetNode>& node() const { return node_; }

 private:
  std::shared_ptr<const DatasetNode> node_;
};

class ElementIterator {
 public:
  using value_type = Element;
  using difference_type = std::ptrdiff_t;
  ElementIterator() = default;
  explicit ElementIterator(Iterator it);
  const Element& operator*() const { return *current_; }
  const Element* operator->() const { return &*current_; }
  ElementIterator& operator++();
  void operator++(int) { ++*this; }
  bool operator==(std::default_sentinel_t) const { return !current_.has_value(); }

 private:
  std::shared_ptr<Iterator> it_;
  std::optional<Element> current_;
};

}  // namespace tfcc::data
#pragma GCC visibility pop
