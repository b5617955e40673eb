// Element-wise unary math and activation functions.
//
//   auto x = tfcc::constant({-1.f, 0.f, 2.f});
//   tfcc::exp(x);        // [0.36787945 1.         7.389056  ]
//   tfcc::relu(x);       // [0. 0. 2.]
//   tfcc::sigmoid(x);    // [0.26894143 0.5        0.8807971 ]
//   tfcc::atan(x);       // [-0.7853982  0.         1.1071488]
//
// Primitives have kernels and gradient rules; activations such as gelu, selu, softplus and silu
// are composites of primitives (ARCHITECTURE.md, decision 2), so they trace and differentiate for
// free. Each primitive's formula is defined once, in unary_formulas.h.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// -x.
Tensor negative(const Tensor& x, Loc loc = Loc::current());
/// |x|.
Tensor abs(const Tensor& x, Loc loc = Loc::current());
/// -1, 0 or 1 by the sign of x (0 for NaN stays NaN).
Tensor sign(const Tensor& x, Loc loc = Loc::current());
/// e^x.
Tensor exp(const Tensor& x, Loc loc = Loc::current());
/// Natural logarithm.
Tensor log(const Tensor& x, Loc loc = Loc::current());
/// log(1 + x), accurate for small x.
Tensor log1p(const Tensor& x, Loc loc = Loc::current());
/// e^x - 1, accurate for small x.
Tensor expm1(const Tensor& x, Loc loc = Loc::current());
/// Square root.
Tensor sqrt(const Tensor& x, Loc loc = Loc::current());
/// 1 / sqrt(x).
Tensor rsqrt(const Tensor& x, Loc loc = Loc::current());
/// x * x.
Tensor square(const Tensor& x, Loc loc = Loc::current());
/// 1 / x.
Tensor reciprocal(const Tensor& x, Loc loc = Loc::current());
/// Sine.
Tensor sin(const Tensor& x, Loc loc = Loc::current());
/// Cosine.
Tensor cos(const Tensor& x, Loc loc = Loc::current());
/// Tangent.
Tensor tan(const Tensor& x, Loc loc = Loc::current());
/// Hyperbolic tangent.
Tensor tanh(const Tensor& x, Loc loc = Loc::current());
/// 1 / (1 + e^-x), computed without overflow.
Tensor sigmoid(const Tensor& x, Loc loc = Loc::current());
/// The Gauss error function.
Tensor erf(const Tensor& x, Loc loc = Loc::current());
/// Inverse sine (NaN outside [-1, 1]).
Tensor asin(const Tensor& x, Loc loc = Loc::current());
/// Inverse cosine (NaN outside [-1, 1]).
Tensor acos(const Tensor& x, Loc loc = Loc::current());
/// Inverse tangent.
Tensor atan(const Tensor& x, Loc loc = Loc::current());
/// Hyperbolic sine.
Tensor sinh(const Tensor& x, Loc loc = Loc::current());
/// Hyperbolic cosine.
Tensor cosh(const Tensor& x, Loc loc = Loc::current());
/// log |Gamma(x)| (inf at 0, -1, -2, ...).
Tensor lgamma(const Tensor& x, Loc loc = Loc::current());
/// psi(x) = d/dx lgamma(x) (NaN at 0, -1, -2, ... and -inf, as TensorFlow).
Tensor digamma(const Tensor& x, Loc loc = Loc::current());
/// 1 - erf(x), accurate where erf(x) is near 1.
Tensor erfc(const Tensor& x, Loc loc = Loc::current());
/// ~x on integer tensors (tf.bitwise.invert).
Tensor bitwise_invert(const Tensor& x, Loc loc = Loc::current());
/// Largest integer not above x.
Tensor floor(const Tensor& x, Loc loc = Loc::current());
/// Smallest integer not below x.
Tensor ceil(const Tensor& x, Loc loc = Loc::current());
/// Rounds half to even (banker's rounding), as TensorFlow.
Tensor round(const Tensor& x, Loc loc = Loc::current());
/// NOT x on bool tensors.
Tensor logical_not(const Tensor& x, Loc loc = Loc::current());
/// True where x is NaN.
Tensor is_nan(const Tensor& x, Loc loc = Loc::current());
/// True where x is neither infinite nor NaN.
Tensor is_finite(const Tensor& x, Loc loc = Loc::current());

/// max(x, 0); NaN stays NaN (as TensorFlow).
Tensor relu(const Tensor& x, Loc loc = Loc::current());
/// Relu's gradient in one pass (TF's ReluGrad): `gradients` where `features` > 0, else 0.
/// `features` is Relu's input or output (the same sign test); both have one shape.
Tensor relu_grad(const Tensor& gradients, const Tensor& features, Loc loc = Loc::current());
/// min(max(x, 0), 6); NaN stays NaN, and the gradient is 0 at exactly 0 and 6 (as TensorFlow).
Tensor relu6(const Tensor& x, Loc loc = Loc::current());
/// x if x > 0 else alpha * x.
Tensor leaky_relu(const Tensor& x, double alpha = 0.2, Loc loc = Loc::current());
/// x if x > 0 else e^x - 1.
Tensor elu(const Tensor& x, Loc loc = Loc::current());
/// scale * elu(x, alpha) with the self-normalising constants.
Tensor selu(const Tensor& x, Loc loc = Loc::current());
/// x * Phi(x); `approximate` uses the tanh form.
Tensor gelu(const Tensor& x, bool approximate = false, Loc loc = Loc::current());
/// log(1 + e^x), stable for large |x|.
Tensor softplus(const Tensor& x, Loc loc = Loc::current());
/// log(sigmoid(x)) = -softplus(-x), stable for large |x|.
Tensor log_sigmoid(const Tensor& x, Loc loc = Loc::current());
/// x / (1 + |x|).
Tensor softsign(const Tensor& x, Loc loc = Loc::current());
/// x * sigmoid(x) (swish).
Tensor silu(const Tensor& x, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
