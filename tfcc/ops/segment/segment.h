// Segment reductions and counting: TensorFlow's tf.math.segment_* (sorted segment ids),
// tf.math.unsorted_segment_* (any order, negative ids dropped) and tf.math.bincount.
//
//   auto data = tfcc::constant({1.f, 2.f, 3.f, 4.f});
//   auto ids = tfcc::constant({0, 0, 1, 1});
//   tfcc::segment_sum(data, ids);                       // [3. 7.]
//   tfcc::unsorted_segment_max(data, ids, 3);           // [2. 4. -3.4028235e+38]
//   tfcc::bincount(tfcc::constant({1, 1, 3}));          // [0 2 0 1]
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// out[i] = sum of data[j] over j with segment_ids[j] == i. `segment_ids` is a 1-D int32/int64
/// vector of data.shape[0] sorted, non-negative ids; out has max(id) + 1 rows (a size known only
/// when the ids are: unknown inside a traced function), empty segments hold 0.
Tensor segment_sum(const Tensor& data, const Tensor& segment_ids, Loc loc = Loc::current());
/// The mean of each segment (0 for empty segments; integer types divide like TensorFlow).
Tensor segment_mean(const Tensor& data, const Tensor& segment_ids, Loc loc = Loc::current());
/// The maximum of each segment (0 for empty segments, as TensorFlow's SegmentMax).
Tensor segment_max(const Tensor& data, const Tensor& segment_ids, Loc loc = Loc::current());

/// out[i] = sum of data[j...] over the positions j... where segment_ids[j...] == i. `segment_ids`
/// has the shape of a prefix of data's; ids < 0 are dropped, ids >= num_segments are an
/// InvalidArgumentError. out is [num_segments] + data.shape[segment_ids.rank:].
Tensor unsorted_segment_sum(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                            Loc loc = Loc::current());
/// The maximum of each segment; empty segments hold the lowest value of the dtype.
Tensor unsorted_segment_max(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                            Loc loc = Loc::current());
/// The mean of each segment (composite, as TensorFlow's: the sum divided by max(count, 1)).
Tensor unsorted_segment_mean(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                             Loc loc = Loc::current());

/// tf.math.bincount's options.
struct BincountOptions {
  /// Per-value weights with arr's shape (summed instead of counting); undefined: count.
  Tensor weights;
  std::optional<int64_t> minlength;  ///< at least this many bins
  std::optional<int64_t> maxlength;  ///< at most this many bins (larger values are ignored)
  DType dtype = int32;               ///< the counts' dtype when there are no weights
  /// None: count over the flattened arr; -1 (arr must be 2-D): one row of bins per row.
  std::optional<int64_t> axis;
  bool binary_output = false;  ///< 1 where a value occurs instead of its count
};
/// Counts the occurrences of each value in int32/int64 `arr`: out[v] = number of times v occurs
/// (or the sum of its weights). The number of bins is max(arr) + 1 clipped to [minlength,
/// maxlength] (unknown inside a traced function unless minlength == maxlength). Negative values
/// are an InvalidArgumentError.
Tensor bincount(const Tensor& arr, const BincountOptions& options = {}, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
