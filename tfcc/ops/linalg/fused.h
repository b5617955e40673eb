// What the fused ops (_FusedMatMul, _FusedConv2D) share: their activation names, the C++ loop
// that applies bias + activation where oneDNN's post-ops do not run (float64, rejected shapes),
// and the activation's gradient written with ops (so second-order gradients work).
//
// Activations: "" (bias only), "Relu", "Relu6", "LeakyRelu" (slope `leakyrelu_alpha`), "Elu",
// "Tanh", "Sigmoid", "GeluExact" (erf form), "GeluApproximate" (tanh form).
#pragma once

#include <cmath>
#include <functional>
#include <string>

#include "tfcc/core/tensor.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc::fused {

/// True for the activation names above.
bool is_activation(const std::string& name);

/// The error text for an unknown activation, in TensorFlow's words.
std::string unsupported_message(const std::string& name);

/// act(z) for one value.
inline double activate(const std::string& act, double v, double alpha) {
  if (act == "Relu") return v > 0 ? v : 0;
  if (act == "Relu6") return std::min(std::max(v, 0.0), 6.0);
  if (act == "LeakyRelu") return v > 0 ? v : alpha * v;
  if (act == "Elu") return v > 0 ? v : std::expm1(v);
  if (act == "Tanh") return std::tanh(v);
  if (act == "Sigmoid") return 1.0 / (1.0 + std::exp(-v));
  if (act == "GeluExact") return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  if (act == "GeluApproximate") {
    return 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
  }
  return v;
}

/// y[r, j] = act(y[r, j] + bias[j]) in place over `rows` rows of `c` (bias may be null).
template <typename T>
void apply_bias_activation(T* y, int64_t rows, int64_t c, const T* bias, const std::string& act,
                           double alpha) {
  kernels::parallel_for(
      rows,
      [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          T* p = y + r * c;
          for (int64_t j = 0; j < c; ++j) {
            const double v =
                static_cast<double>(p[j]) + (bias ? static_cast<double>(bias[j]) : 0.0);
            p[j] = static_cast<T>(activate(act, v, alpha));
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(c, 1)));
}

/// The gradient of the pre-activation z given dy, the op's output y = act(z), and a function
/// recomputing z (called only for the GELUs, whose derivative needs z).
Tensor activation_grad(const std::string& act, double alpha, const Tensor& y, const Tensor& dy,
                       const std::function<Tensor()>& pre_activation);

}  // namespace tfcc::fused
