// Sorting and searching: TensorFlow's tf.math.top_k, tf.sort, tf.argsort, tf.searchsorted and
// tf.unique.
//
//   auto x = tfcc::constant({3.f, 1.f, 4.f, 1.f, 5.f});
//   auto [values, indices] = tfcc::top_k(x, 2);     // [5. 4.], [4 2]
//   tfcc::sort(x);                                  // [1. 1. 3. 4. 5.]
//   tfcc::argsort(x, -1, "DESCENDING");             // [4 2 0 1 3]
//   tfcc::searchsorted(tfcc::sort(x), tfcc::constant({2.f}));   // [2]
//   auto [y, idx] = tfcc::unique(tfcc::constant({3, 1, 3}));    // [3 1], [0 1 0]
//
// Order: ties keep the lower index first (the sorts are stable). NaN counts as larger than every
// number in top_k and descending sorts; an ascending sort is a descending sort of -x, as in
// TensorFlow, so NaN comes first there too (TensorFlow leaves NaN's place unspecified).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>
#include <utility>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// The k largest entries of each row (last dimension) of `input`, and their indices
/// (`index_type` int32 or int64). `sorted`: values in descending order (tfcc always sorts).
/// InvalidArgumentError when k < 0 or the last dimension is shorter than k.
std::pair<Tensor, Tensor> top_k(const Tensor& input, int64_t k = 1, bool sorted = true,
                                DType index_type = int32, Loc loc = Loc::current());

/// `values` sorted along `axis`; `direction` "ASCENDING" or "DESCENDING" (composite of top_k,
/// like TensorFlow's).
Tensor sort(const Tensor& values, int64_t axis = -1, const std::string& direction = "ASCENDING",
            Loc loc = Loc::current());
/// The int32 indices that sort `values` along `axis` (stable for either `stable` value).
Tensor argsort(const Tensor& values, int64_t axis = -1, const std::string& direction = "ASCENDING",
               bool stable = false, Loc loc = Loc::current());

/// For each of `values`, the index in `sorted_sequence` (sorted along its last axis) where it
/// would be inserted to keep the order: `side` "left" (first such index, LowerBound) or "right"
/// (UpperBound). The leading dimensions of both must match; `out_type` int32 or int64.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values,
                    const std::string& side = "left", DType out_type = int32,
                    Loc loc = Loc::current());

/// The distinct values of the 1-D `x` in order of first occurrence, and for each element of x
/// the index of its value in them (`out_idx` int32 or int64). The number of distinct values is
/// known when the op runs: unknown inside a traced function.
std::pair<Tensor, Tensor> unique(const Tensor& x, DType out_idx = int32, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
