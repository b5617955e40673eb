// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
void register_reduction_ops(OpRegistry&) {}
Tensor reduce_sum(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_sum is not implemented yet");
}

Tensor reduce_mean(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_mean is not implemented yet");
}

Tensor reduce_max(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_max is not implemented yet");
}

Tensor reduce_min(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_min is not implemented yet");
}

Tensor reduce_prod(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_prod is not implemented yet");
}

Tensor reduce_all(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_all is not implemented yet");
}

Tensor reduce_any(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_any is not implemented yet");
}

Tensor reduce_logsumexp(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_logsumexp is not implemented yet");
}

Tensor reduce_variance(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_variance is not implemented yet");
}

Tensor reduce_std(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  throw UnimplementedError("reduce_std is not implemented yet");
}

Tensor argmax(const Tensor& x, int64_t axis, DType output_type, Loc loc) {
  throw UnimplementedError("argmax is not implemented yet");
}

Tensor argmin(const Tensor& x, int64_t axis, DType output_type, Loc loc) {
  throw UnimplementedError("argmin is not implemented yet");
}

Tensor cumsum(const Tensor& x, int64_t axis, bool exclusive, bool reverse, Loc loc) {
  throw UnimplementedError("cumsum is not implemented yet");
}

Tensor cumprod(const Tensor& x, int64_t axis, bool exclusive, bool reverse, Loc loc) {
  throw UnimplementedError("cumprod is not implemented yet");
}
}
