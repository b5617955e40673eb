// Element-wise binary ops with NumPy broadcasting: arithmetic, comparisons, logical.
//
//   auto x = tfcc::constant({1.f, 2.f, 3.f});
//   tfcc::add(x, 1);              // [2. 3. 4.]  (1 adopts x's dtype)
//   tfcc::maximum(x, 2.f);        // [2. 2. 3.]
//   tfcc::less(x, 2);             // [ True False False]
//   tfcc::add(x, tfcc::constant({1, 2, 3}));   // InvalidArgumentError: float32 vs int32
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>

#include "tfcc/ops/operand.h"

namespace tfcc {

using Loc = std::source_location;

/// x + y.
Tensor add(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x - y.
Tensor subtract(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x * y.
Tensor multiply(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x / y. Integer inputs are cast to float64 first (TensorFlow's truediv).
Tensor divide(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// floor(x / y); integer division by zero is an InvalidArgumentError.
Tensor floordiv(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x - floor(x / y) * y: the remainder with the sign of y (Python's %).
Tensor floormod(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x ** y. Integers to negative powers are an InvalidArgumentError.
Tensor pow(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// Element-wise max(x, y); NaN wins.
Tensor maximum(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// Element-wise min(x, y); NaN wins.
Tensor minimum(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// (x - y)^2.
Tensor squared_difference(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x / y rounded toward zero (C's division); integer division by zero is an
/// InvalidArgumentError. Not differentiable, as in TensorFlow.
Tensor truncatediv(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x - truncatediv(x, y) * y: the remainder with the sign of x (C's %, fmod).
Tensor truncatemod(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// The angle of the point (x, y) in [-pi, pi]; note the order: y first, as tf.math.atan2.
Tensor atan2(const Operand& y, const Operand& x, Loc loc = Loc::current());
/// x * log(y), and 0 wherever x is 0 (even for y 0 or NaN).
Tensor xlogy(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// The n-th derivative of digamma at x (n = 0: digamma); NaN for negative or fractional n.
/// Differentiable in x only. Arguments below -1000 give NaN (TensorFlow computes them).
Tensor polygamma(const Operand& n, const Operand& x, Loc loc = Loc::current());

/// x AND y bit by bit, on integer tensors.
Tensor bitwise_and(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x OR y bit by bit, on integer tensors.
Tensor bitwise_or(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x XOR y bit by bit, on integer tensors.
Tensor bitwise_xor(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x << y; shift amounts are clamped to [0, bits - 1] (TensorFlow's rule), bits shifted out are
/// lost.
Tensor left_shift(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x >> y (arithmetic for signed types); shift amounts clamped to [0, bits - 1].
Tensor right_shift(const Operand& x, const Operand& y, Loc loc = Loc::current());

/// x == y (bool).
Tensor equal(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x != y (bool).
Tensor not_equal(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x < y (bool).
Tensor less(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x <= y (bool).
Tensor less_equal(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x > y (bool).
Tensor greater(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x >= y (bool).
Tensor greater_equal(const Operand& x, const Operand& y, Loc loc = Loc::current());

/// x AND y on bool tensors.
Tensor logical_and(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x OR y on bool tensors.
Tensor logical_or(const Operand& x, const Operand& y, Loc loc = Loc::current());
/// x XOR y on bool tensors (composite: (x OR y) AND NOT (x AND y)).
Tensor logical_xor(const Operand& x, const Operand& y, Loc loc = Loc::current());

/// Sums `grad` (shaped like a broadcast result) down to the shape of `like`: the gradient of a
/// broadcasting op with respect to the input `like`. Decided from static shapes where they tell;
/// otherwise (inside a traced function, a dimension of `like` unknown and possibly broadcast) by
/// broadcast_gradient_args and sum_to_shape on the run-time shapes, as TensorFlow does.
Tensor sum_to_shape_of(const Tensor& grad, const Tensor& like, Loc loc = Loc::current());
/// The same for a binary op whose other input is `other`: where `other` is absent or has size 1,
/// the result has `like`'s size, so more cases are decided at trace time.
Tensor sum_to_shape_of(const Tensor& grad, const Tensor& like, const Tensor& other,
                       Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
