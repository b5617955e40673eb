// Shape and indexing ops: reshape, transpose, concat, slicing, gather/scatter, padding, tiling.
//
//   auto x = tfcc::reshape(tfcc::range(6), {2, -1});   // [[0 1 2] [3 4 5]]
//   tfcc::transpose(x);                                 // [[0 3] [1 4] [2 5]]
//   tfcc::concat({x, x}, 0);                            // shape (4, 3)
//   x(tfcc::all, tfcc::Slice(1, tfcc::none));           // x[:, 1:] -> [[1 2] [4 5]]
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>
#include <utility>
#include <vector>

#include "tfcc/core/index.h"
#include "tfcc/core/tensor.h"
#include "tfcc/ops/axes.h"

namespace tfcc {

using Loc = std::source_location;

/// Same elements, new shape; one dimension may be -1 (inferred). Shares the buffer.
Tensor reshape(const Tensor& x, std::vector<int64_t> shape, Loc loc = Loc::current());
/// Permutes dimensions; default reverses them.
Tensor transpose(const Tensor& x, std::vector<int64_t> perm = {}, Loc loc = Loc::current());
/// Inserts a size-1 dimension at `axis`.
Tensor expand_dims(const Tensor& x, int64_t axis, Loc loc = Loc::current());
/// Removes size-1 dimensions (all of them, or those in `axis`).
Tensor squeeze(const Tensor& x, const Axes& axis = {}, Loc loc = Loc::current());
/// Joins tensors along an existing axis.
Tensor concat(const std::vector<Tensor>& values, int64_t axis, Loc loc = Loc::current());
/// Joins tensors along a new axis.
Tensor stack(const std::vector<Tensor>& values, int64_t axis = 0, Loc loc = Loc::current());
/// Splits along `axis` into its slices, removing the axis.
std::vector<Tensor> unstack(const Tensor& x, int64_t axis = 0, Loc loc = Loc::current());
/// Splits into `num` equal parts along `axis`.
std::vector<Tensor> split(const Tensor& x, int64_t num, int64_t axis = 0, Loc loc = Loc::current());
/// Splits into parts of the given sizes along `axis` (one size may be -1).
std::vector<Tensor> split(const Tensor& x, std::vector<int64_t> sizes, int64_t axis,
                          Loc loc = Loc::current());
/// x[begin : begin + size] per dimension (size -1: to the end).
Tensor slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> size,
             Loc loc = Loc::current());
/// TensorFlow's strided_slice with its masks.
Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end,
                     std::vector<int64_t> strides, int64_t begin_mask = 0, int64_t end_mask = 0,
                     int64_t ellipsis_mask = 0, int64_t new_axis_mask = 0,
                     int64_t shrink_axis_mask = 0, Loc loc = Loc::current());
/// Gathers slices along `axis` by integer `indices`; out-of-range indices are an error.
Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis = 0, int64_t batch_dims = 0,
              Loc loc = Loc::current());
/// Gathers slices addressed by the last dimension of `indices`.
Tensor gather_nd(const Tensor& params, const Tensor& indices, Loc loc = Loc::current());
/// Scatters `updates` into zeros of `shape` at `indices` (duplicates add).
Tensor scatter_nd(const Tensor& indices, const Tensor& updates, std::vector<int64_t> shape,
                  Loc loc = Loc::current());
/// A copy of `tensor` with the slices at `indices` replaced by `updates`.
Tensor tensor_scatter_nd_update(const Tensor& tensor, const Tensor& indices, const Tensor& updates,
                                Loc loc = Loc::current());
/// Pads with `constant_values`; `paddings` is [[before, after], ...] per dimension.
/// mode: "CONSTANT", "REFLECT" or "SYMMETRIC".
Tensor pad(const Tensor& x, std::vector<std::vector<int64_t>> paddings,
           const std::string& mode = "CONSTANT", double constant_values = 0,
           Loc loc = Loc::current());
/// Repeats the tensor `multiples[i]` times along dimension i.
Tensor tile(const Tensor& x, std::vector<int64_t> multiples, Loc loc = Loc::current());
/// Broadcasts to `shape` (NumPy rules).
Tensor broadcast_to(const Tensor& x, std::vector<int64_t> shape, Loc loc = Loc::current());
/// Reverses the given axes.
Tensor reverse(const Tensor& x, std::vector<int64_t> axis, Loc loc = Loc::current());
/// The shape as a 1-D tensor (int32 by default).
Tensor shape(const Tensor& x, DType out_type = int32, Loc loc = Loc::current());
/// Number of elements as a scalar tensor.
Tensor size(const Tensor& x, DType out_type = int32, Loc loc = Loc::current());
/// Rank as an int32 scalar tensor.
Tensor rank(const Tensor& x, Loc loc = Loc::current());
/// The same value (a new tensor handle sharing the buffer).
Tensor identity(const Tensor& x, Loc loc = Loc::current());
/// The same value, but gradients do not flow through it.
Tensor stop_gradient(const Tensor& x, Loc loc = Loc::current());

/// TensorFlow's BroadcastGradientArgs: for two shapes (int32 or int64 vectors) that broadcast
/// together, the axes of the broadcast result along which each was broadcast (where it has size
/// 1, counting missing leading dimensions as 1): a gradient of the result summed over r0 has s0's
/// elements. Incompatible shapes raise InvalidArgumentError "Incompatible shapes: [2,3] vs. [4]".
///
///   auto [r0, r1] = tfcc::broadcast_gradient_args(tfcc::constant({2, 3, 5}),
///                                                 tfcc::constant({3, 1}));   // [], [0, 2]
std::pair<Tensor, Tensor> broadcast_gradient_args(const Tensor& s0, const Tensor& s1,
                                                  Loc loc = Loc::current());
/// Sums `input` over the run-time axes `reduction_indices` keeping them as size 1, then gives
/// the result the run-time `shape` (the kept shape without some leading 1s): TensorFlow's
/// Reshape(Sum(input, axes, keep_dims=True), shape) for axes and shapes known only when a traced
/// function runs. `shape_hint` is the static shape as far as known at trace time (-1: unknown
/// dimension; its length must be `shape`'s to be used). Op _SumToShape.
Tensor sum_to_shape(const Tensor& input, const Tensor& reduction_indices, const Tensor& shape,
                    std::vector<int64_t> shape_hint = {}, Loc loc = Loc::current());

/// x[indices...] with NumPy / TensorFlow semantics, through strided_slice.
Tensor index(const Tensor& x, const std::vector<Index>& indices, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
