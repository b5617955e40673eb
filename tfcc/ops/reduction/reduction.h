// Reductions over any set of axes, scans, and arg-reductions.
//
//   auto x = tfcc::constant({{1.f, 2.f}, {3.f, 4.f}});
//   tfcc::reduce_sum(x);                  // 10.
//   tfcc::reduce_sum(x, 0);               // [4. 6.]
//   tfcc::reduce_mean(x, {0, 1}, true);   // [[2.5]]
//   tfcc::argmax(x, 1);                   // [1 1] (int64)
//   tfcc::cumsum(x, 1);                   // [[1. 3.] [3. 7.]]
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>

#include "tfcc/core/tensor.h"
#include "tfcc/ops/axes.h"

namespace tfcc {

using Loc = std::source_location;

/// Sum over `axis` (all axes by default); `keepdims` keeps reduced axes with size 1.
Tensor reduce_sum(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// Mean over `axis` (integer inputs: integer mean truncated toward zero, as TF; an empty
/// reduction gives NaN for floats, 0 for integers).
Tensor reduce_mean(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                   Loc loc = Loc::current());
/// Maximum over `axis`; NaN propagates; empty: -inf (floats) or the lowest value (integers).
Tensor reduce_max(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// Minimum over `axis`; NaN propagates; empty: +inf (floats) or the highest value (integers).
Tensor reduce_min(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// Product over `axis`.
Tensor reduce_prod(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                   Loc loc = Loc::current());
/// Logical AND over `axis` (bool).
Tensor reduce_all(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// Logical OR over `axis` (bool).
Tensor reduce_any(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// log(sum(exp(x))) computed stably (max-shifted); floating-point inputs.
Tensor reduce_logsumexp(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                        Loc loc = Loc::current());
/// Population variance over `axis` (two-pass); floating-point inputs.
Tensor reduce_variance(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                       Loc loc = Loc::current());
/// Population standard deviation over `axis`; floating-point inputs.
Tensor reduce_std(const Tensor& x, const Axes& axis = {}, bool keepdims = false,
                  Loc loc = Loc::current());
/// Index of the largest value along `axis` (first on ties; NaN is never picked and an all-NaN
/// lane gives 0, as TensorFlow), as
/// `output_type` (int64 default). The axis must not be empty.
Tensor argmax(const Tensor& x, int64_t axis = 0, DType output_type = int64,
              Loc loc = Loc::current());
/// Index of the smallest value along `axis` (first on ties; NaN never picked, as argmax).
Tensor argmin(const Tensor& x, int64_t axis = 0, DType output_type = int64,
              Loc loc = Loc::current());
/// Cumulative sum along `axis`; `exclusive` starts at 0, `reverse` runs from the end.
Tensor cumsum(const Tensor& x, int64_t axis = 0, bool exclusive = false, bool reverse = false,
              Loc loc = Loc::current());
/// Cumulative product along `axis`.
Tensor cumprod(const Tensor& x, int64_t axis = 0, bool exclusive = false, bool reverse = false,
               Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
