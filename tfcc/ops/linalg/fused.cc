// Activation gradients of the fused ops, written with ops (TensorFlow's formulas, mostly in
// terms of the output y so nothing is recomputed).
#include "tfcc/ops/linalg/fused.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::fused {

bool is_activation(const std::string& n) {
  return n.empty() || n == "Relu" || n == "Relu6" || n == "LeakyRelu" || n == "Elu" ||
         n == "Tanh" || n == "Sigmoid" || n == "GeluExact" || n == "GeluApproximate";
}

std::string unsupported_message(const std::string& name) {
  return internal::str_cat("Fusion is not implemented: [BiasAdd,", name,
                           "]; supported activations: Relu, Relu6, LeakyRelu, Elu, Tanh, "
                           "Sigmoid, GeluExact, GeluApproximate");
}

Tensor activation_grad(const std::string& act, double alpha, const Tensor& y, const Tensor& dy,
                       const std::function<Tensor()>& pre_activation) {
  if (act.empty()) return dy;
  if (act == "Relu") return relu_grad(dy, y);
  const Tensor zero = zeros_like(dy);
  if (act == "Relu6") return where(logical_and(greater(y, zero), less(y, zero + 6.0)), dy, zero);
  if (act == "LeakyRelu") return where(greater(y, zero), dy, dy * alpha);
  if (act == "Elu") return where(greater(y, zero), dy, dy * (y + 1.0));
  if (act == "Tanh") return dy * (1.0 - y * y);
  if (act == "Sigmoid") return dy * y * (1.0 - y);
  const Tensor z = pre_activation();
  if (act == "GeluExact") {
    // d/dz z * Phi(z) = Phi(z) + z * phi(z).
    const Tensor cdf = 0.5 * (1.0 + erf(z * 0.7071067811865476));
    const Tensor pdf = exp(z * z * -0.5) * 0.3989422804014327;
    return dy * (cdf + z * pdf);
  }
  // GeluApproximate: 0.5 z (1 + tanh(u)), u = c (z + 0.044715 z^3).
  const double c = 0.7978845608028654;
  const Tensor t = tanh(c * (z + 0.044715 * z * z * z));
  return dy * (0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * c * (1.0 + 3 * 0.044715 * z * z));
}

}  // namespace tfcc::fused
