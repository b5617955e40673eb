// Reduction composites: reduce_mean, reduce_logsumexp, reduce_variance, reduce_std. Plain
// functions of primitives: no registration, no kernel, differentiated through their parts.
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

/// The number of elements each output of a reduction of `x` over `axis` combines, as `dtype`:
/// a scalar when the shape is static, else a tensor of the reduced shape. Call it after the
/// reduction itself, which has validated `axis`.
Tensor reduced_count(const Tensor& x, const Axes& axis, bool keepdims, DType dtype, Loc loc) {
  PartialShape s = x.partial_shape();
  if (!s.is_fully_defined()) {
    return cast(reduce_sum(ones_like(x, int64, loc), axis, keepdims, loc), dtype, loc);
  }
  const int rank = s.rank();
  std::vector<bool> mask(static_cast<size_t>(rank), axis.all());
  if (!axis.all()) {
    for (int64_t a : *axis.list) mask[static_cast<size_t>(a < 0 ? a + rank : a)] = true;
  }
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    if (mask[static_cast<size_t>(i)]) n *= s.dim(i);
  }
  return scalar_tensor(static_cast<double>(n), dtype);
}

void require_float(const Tensor& x, const char* fn) {
  if (!is_floating(x.dtype())) {
    throw InvalidArgumentError(
        internal::str_cat(fn, " needs a floating-point input, got ", dtype_name(x.dtype())));
  }
}

}  // namespace

// Integer inputs give the integer mean truncated toward zero, like TF's. The sum is taken in
// int64 (TF sums in the input dtype, so int32/uint8 means that overflow there differ: ours are
// the true truncated mean); an empty reduction gives 0 rather than dividing by zero.
Tensor reduce_mean(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  if (!is_integer(x.dtype())) {
    Tensor sum = reduce_sum(x, axis, keepdims, loc);
    return divide(sum, reduced_count(x, axis, keepdims, x.dtype(), loc), loc);
  }
  Tensor wide = x.dtype() == int64 ? x : cast(x, int64, loc);
  Tensor sum = reduce_sum(wide, axis, keepdims, loc);
  Tensor n = maximum(reduced_count(x, axis, keepdims, int64, loc), int64_t{1}, loc);
  Tensor q = floordiv(sum, n, loc);
  // floordiv rounds down; truncation rounds negative quotients with a remainder up by one.
  Tensor round_up = logical_and(less(sum, int64_t{0}, loc),
                                not_equal(floormod(sum, n, loc), int64_t{0}, loc), loc);
  q = where(round_up, add(q, int64_t{1}, loc), q, loc);
  return x.dtype() == int64 ? q : cast(q, x.dtype(), loc);
}

// log(sum(exp(x - m))) + m with m the max where finite, else 0: rows of -inf give -inf, a +inf
// gives +inf, NaN propagates. The max shift needs no stop_gradient: its gradient cancels.
Tensor reduce_logsumexp(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  require_float(x, "reduce_logsumexp");
  Tensor m = reduce_max(x, axis, true, loc);
  Tensor shift = where(is_finite(m, loc), m, 0, loc);
  Tensor s = reduce_sum(exp(subtract(x, shift, loc), loc), axis, true, loc);
  Tensor r = add(log(s, loc), shift, loc);
  // Reducing the size-1 axes drops them without copying.
  return keepdims ? r : reduce_sum(r, axis, false, loc);
}

// Population variance, two-pass (mean first) to avoid cancellation.
Tensor reduce_variance(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  require_float(x, "reduce_variance");
  Tensor mean = reduce_mean(x, axis, true, loc);
  return reduce_mean(squared_difference(x, mean, loc), axis, keepdims, loc);
}

Tensor reduce_std(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  require_float(x, "reduce_std");
  return sqrt(reduce_variance(x, axis, keepdims, loc), loc);
}

}  // namespace tfcc
