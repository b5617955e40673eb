// Between the reduction family's definitions, gradient rules and kernels.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of reduction-family op `op` for `dtype`, or nullptr.
KernelFn reduction_cpu_kernel(const std::string& op, DType dtype);
/// Kernels of Sum, Prod, Max, Min, All, Any (reduction_cpu.cc).
KernelFn reduce_cpu_kernel(const std::string& op, DType dtype);
/// Kernels of ArgMax, ArgMin, Cumsum, Cumprod (reduction_scan_cpu.cc).
KernelFn scan_cpu_kernel(const std::string& op, DType dtype);

/// Per dimension of a rank-`rank` input, whether the reduction attributes ("axis", "reduce_all")
/// reduce it. Negative axes count from the end; an out-of-range or repeated axis is an
/// InvalidArgumentError naming `op`.
std::vector<bool> reduced_dims(const OpDef& op, const Attrs& attrs, int rank);

/// Normalises the axis of ArgMax/ArgMin/Cumsum/Cumprod against `rank`, failing through `op`.
int64_t scan_axis(const OpDef& op, int64_t axis, int rank);

// Gradient rules (reduction_grad.cc).
std::vector<Tensor> sum_grad(const GradContext& g);
std::vector<Tensor> prod_grad(const GradContext& g);
std::vector<Tensor> max_min_grad(const GradContext& g);
std::vector<Tensor> cumsum_grad(const GradContext& g);
std::vector<Tensor> cumprod_grad(const GradContext& g);

/// The accumulator of sums and products: float64 for floats, the unsigned type for integers
/// (wrapping, no signed-overflow UB), uint8 for bool.
template <typename T>
struct Wide {
  using type = std::make_unsigned_t<T>;
};
template <>
struct Wide<float> {
  using type = double;
};
template <>
struct Wide<double> {
  using type = double;
};
template <>
struct Wide<bool> {
  using type = uint8_t;
};
template <typename T>
using WideT = typename Wide<T>::type;

}  // namespace tfcc
