// Fused optimizer updates: one pass over a variable and its slots, in place when nothing else
// holds the variable's buffer (TensorFlow's ResourceApply* training ops). Keras optimizers use
// them so a step makes one pass over memory per variable instead of one per elementwise op.
//
//   tfcc::Variable w(tfcc::zeros({3})), m(tfcc::zeros({3})), v(tfcc::zeros({3}));
//   tfcc::training::apply_gradient_descent(w, 0.1, grad);          // w -= 0.1 * grad
//   tfcc::training::apply_adam(w, m, v, beta1_power, beta2_power, 1e-3, 0.9, 0.999, 1e-7, grad);
//
// Scalars (learning rate, decay factors) are Operands: a C++ number, a rank-0 tensor, or a
// Variable read each call (so a learning-rate schedule or ReduceLROnPlateau changes it in traced
// steps too). They take the variable's dtype. Each function returns the variable's new value.
// The ops are stateful and not differentiable.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>

#include "tfcc/core/variable.h"
#include "tfcc/ops/operand.h"

namespace tfcc::training {

using Loc = std::source_location;

/// var -= alpha * delta  (ResourceApplyGradientDescent).
Tensor apply_gradient_descent(const Variable& var, const Operand& alpha, const Tensor& delta,
                              Loc loc = Loc::current());

/// Keras' momentum (ResourceApplyKerasMomentum):
///   accum = accum * momentum - lr * grad
///   var += accum                                  (use_nesterov = false)
///   var += accum * momentum - lr * grad           (use_nesterov = true)
Tensor apply_keras_momentum(const Variable& var, const Variable& accum, const Operand& lr,
                            const Tensor& grad, const Operand& momentum, bool use_nesterov = false,
                            Loc loc = Loc::current());

/// Adam (ResourceApplyAdam), with beta1_power = beta1^t and beta2_power = beta2^t:
///   lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
///   m += (grad - m) * (1 - beta1);   v += (grad^2 - v) * (1 - beta2)
///   var -= lr_t * m / (sqrt(v) + epsilon)
///   (use_nesterov: var -= lr_t * (grad * (1 - beta1) + beta1 * m) / (sqrt(v) + epsilon))
Tensor apply_adam(const Variable& var, const Variable& m, const Variable& v,
                  const Operand& beta1_power, const Operand& beta2_power, const Operand& lr,
                  const Operand& beta1, const Operand& beta2, const Operand& epsilon,
                  const Tensor& grad, bool use_nesterov = false, Loc loc = Loc::current());

}  // namespace tfcc::training
#pragma GCC visibility pop
