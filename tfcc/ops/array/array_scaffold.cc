// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
Tensor Tensor::index_impl(const std::vector<Index>&) const { throw UnimplementedError("indexing"); }
void register_array_ops(OpRegistry&) {}
Tensor reshape(const Tensor& x, std::vector<int64_t> shape, Loc loc) {
  throw UnimplementedError("reshape is not implemented yet");
}

Tensor transpose(const Tensor& x, std::vector<int64_t> perm, Loc loc) {
  throw UnimplementedError("transpose is not implemented yet");
}

Tensor expand_dims(const Tensor& x, int64_t axis, Loc loc) {
  throw UnimplementedError("expand_dims is not implemented yet");
}

Tensor squeeze(const Tensor& x, const Axes& axis, Loc loc) {
  throw UnimplementedError("squeeze is not implemented yet");
}

Tensor concat(const std::vector<Tensor>& values, int64_t axis, Loc loc) {
  throw UnimplementedError("concat is not implemented yet");
}

Tensor stack(const std::vector<Tensor>& values, int64_t axis, Loc loc) {
  throw UnimplementedError("stack is not implemented yet");
}

std::vector<Tensor> unstack(const Tensor& x, int64_t axis, Loc loc) {
  throw UnimplementedError("unstack is not implemented yet");
}

std::vector<Tensor> split(const Tensor& x, int64_t num, int64_t axis, Loc loc) {
  throw UnimplementedError("split is not implemented yet");
}

std::vector<Tensor> split(const Tensor& x, std::vector<int64_t> sizes, int64_t axis, Loc loc) {
  throw UnimplementedError("split is not implemented yet");
}

Tensor slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> size, Loc loc) {
  throw UnimplementedError("slice is not implemented yet");
}

Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end, std::vector<int64_t> strides, int64_t begin_mask, int64_t end_mask, int64_t ellipsis_mask, int64_t new_axis_mask, int64_t shrink_axis_mask, Loc loc) {
  throw UnimplementedError("strided_slice is not implemented yet");
}

Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis, int64_t batch_dims, Loc loc) {
  throw UnimplementedError("gather is not implemented yet");
}

Tensor gather_nd(const Tensor& params, const Tensor& indices, Loc loc) {
  throw UnimplementedError("gather_nd is not implemented yet");
}

Tensor scatter_nd(const Tensor& indices, const Tensor& updates, std::vector<int64_t> shape, Loc loc) {
  throw UnimplementedError("scatter_nd is not implemented yet");
}

Tensor tensor_scatter_nd_update(const Tensor& tensor, const Tensor& indices, const Tensor& updates, Loc loc) {
  throw UnimplementedError("tensor_scatter_nd_update is not implemented yet");
}

Tensor pad(const Tensor& x, std::vector<std::vector<int64_t>> paddings, const std::string& mode, double constant_values, Loc loc) {
  throw UnimplementedError("pad is not implemented yet");
}

Tensor tile(const Tensor& x, std::vector<int64_t> multiples, Loc loc) {
  throw UnimplementedError("tile is not implemented yet");
}

Tensor broadcast_to(const Tensor& x, std::vector<int64_t> shape, Loc loc) {
  throw UnimplementedError("broadcast_to is not implemented yet");
}

Tensor reverse(const Tensor& x, std::vector<int64_t> axis, Loc loc) {
  throw UnimplementedError("reverse is not implemented yet");
}

Tensor shape(const Tensor& x, DType out_type, Loc loc) {
  throw UnimplementedError("shape is not implemented yet");
}

Tensor size(const Tensor& x, DType out_type, Loc loc) {
  throw UnimplementedError("size is not implemented yet");
}

Tensor rank(const Tensor& x, Loc loc) {
  throw UnimplementedError("rank is not implemented yet");
}

Tensor identity(const Tensor& x, Loc loc) {
  throw UnimplementedError("identity is not implemented yet");
}

Tensor stop_gradient(const Tensor& x, Loc loc) {
  throw UnimplementedError("stop_gradient is not implemented yet");
}

Tensor index(const Tensor& x, const std::vector<Index>& indices, Loc loc) {
  throw UnimplementedError("index is not implemented yet");
}
}
