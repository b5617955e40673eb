// Between the array family's definitions (array.cc, concat_split.cc, padding_tiling.cc,
// slicing.cc, gather_scatter.cc) and its kernels (array_cpu.cc): the kernel lookup and the index
// arithmetic both sides share, and the helpers the definition files share (array_internal.cc).
#pragma once

#include <initializer_list>
#include <source_location>
#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

/// The CPU kernel of array op `op` for `dtype`, or nullptr.
KernelFn array_cpu_kernel(const std::string& op, DType dtype);

/// TensorFlow's StridedSlice spec, resolved against an input shape (the "dense" spec: one entry
/// per input dimension).
struct StridedSliceSpec {
  std::vector<int64_t> begin;       ///< first index read, per input dim (canonical, in range)
  std::vector<int64_t> strides;     ///< per input dim
  std::vector<int64_t> dense_dims;  ///< elements taken per input dim (-1: unknown)
  std::vector<int64_t> final_dims;  ///< the output shape (shrunk axes removed, new axes added)
};

/// Resolves begin/end/strides and the five masks from `attrs` against `in_dims` (which may hold
/// -1 for unknown dimensions). Fails through `op` with TensorFlow's messages.
StridedSliceSpec strided_slice_spec(const OpDef& op, const std::vector<int64_t>& in_dims,
                                    const Attrs& attrs);

/// Validates the attributes "paddings" (flattened [rank, 2]) against a rank; returns them
/// (padding_tiling.cc).
std::vector<int64_t> checked_paddings(const OpDef& op, const Attrs& attrs, int rank);

/// Registers ConcatV2, Unpack, Split, SplitV (concat_split.cc).
void register_concat_split_ops(OpRegistry& r);
/// Registers Pad, MirrorPad, MirrorPadGrad, Tile, BroadcastTo, ReverseV2 (padding_tiling.cc).
void register_array_padding_ops(OpRegistry& r);
/// Registers Slice, StridedSlice, StridedSliceGrad (slicing.cc).
void register_slicing_ops(OpRegistry& r);
/// Registers GatherV2, GatherNd, ScatterNd, TensorScatterUpdate (gather_scatter.cc).
void register_gather_scatter_ops(OpRegistry& r);

/// Registers BroadcastGradientArgs and _SumToShape (broadcast_gradient.cc).
void register_broadcast_gradient_ops(OpRegistry& r);
/// Their CPU kernels (broadcast_gradient_cpu.cc).
KernelFn broadcast_gradient_cpu_kernel(const std::string& op, DType dtype);

/// The axes (ascending, in the broadcast result's numbering) along which each of two shapes was
/// broadcast: every axis where the shape, padded with leading 1s, has size 1. Fails through `op`
/// with TensorFlow's "Incompatible shapes: [2,3] vs. [4]" when the shapes do not broadcast.
struct BroadcastReduction {
  std::vector<int64_t> axes0, axes1;
};
BroadcastReduction broadcast_gradient_axes(const OpDef& op, const std::vector<int64_t>& s0,
                                           const std::vector<int64_t>& s1);
/// The values of an int32 or int64 tensor.
std::vector<int64_t> index_values(const Tensor& t);

/// "[2,3]": dimensions as TensorFlow's messages print them.
std::string dims_str(const std::vector<int64_t>& dims);
/// The fully known dimensions of `t`; UnimplementedError naming `what` otherwise.
std::vector<int64_t> static_dims(const Tensor& t, const char* what);
/// `axis` normalised into [0, rank); fails through `c` naming `what` when out of range.
int64_t checked_axis(const InferenceContext& c, int64_t axis, int64_t rank, const char* what);

/// Runs the single-output op `name` on `ins` with `attrs`.
Tensor call1(const char* name, std::initializer_list<Tensor> ins, Attrs attrs,
             std::source_location loc);
/// Registers `name` as a one-input, one-output op over all types with the array CPU kernels;
/// the caller adds attributes, the shape function and the gradient.
/// `strings`: the op only moves elements, so it also takes string tensors.
OpDef& unary_array(OpRegistry& r, const std::string& name, bool strings = true);

}  // namespace tfcc
