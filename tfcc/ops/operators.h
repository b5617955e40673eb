// C++ operators on tensors and variables, with TensorFlow's meaning:
//
//   auto z = x + y;      // tfcc::add
//   auto w = -x * 2;     // tfcc::negative, tfcc::multiply (2 adopts x's dtype)
//   auto m = x < 3;      // tfcc::less (bool tensor)
//   auto p = v * x;      // a Variable is read first (ReadVariableOp)
//
// == and != are element-wise too, returning bool tensors (tf.Tensor.__eq__ in TF2). The
// operators are templates so that Tensor, Variable and C++ scalar operands mix without
// ambiguous conversions; at least one side must be a Tensor or a Variable.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <type_traits>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {

/// Tensor or Variable.
template <typename T>
concept TensorLike = std::is_same_v<std::remove_cvref_t<T>, Tensor> ||
    std::is_same_v<std::remove_cvref_t<T>, Variable>;
/// What a binary operator accepts on either side.
template <typename T>
concept OperandLike = TensorLike<T> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

/// Element-wise add.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator+(const A& x, const B& y) {
  return add(Operand(x), Operand(y));
}
/// Element-wise subtract.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator-(const A& x, const B& y) {
  return subtract(Operand(x), Operand(y));
}
/// Element-wise multiply.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator*(const A& x, const B& y) {
  return multiply(Operand(x), Operand(y));
}
/// Element-wise divide.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator/(const A& x, const B& y) {
  return divide(Operand(x), Operand(y));
}
/// Element-wise less.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator<(const A& x, const B& y) {
  return less(Operand(x), Operand(y));
}
/// Element-wise less_equal.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator<=(const A& x, const B& y) {
  return less_equal(Operand(x), Operand(y));
}
/// Element-wise greater.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator>(const A& x, const B& y) {
  return greater(Operand(x), Operand(y));
}
/// Element-wise greater_equal.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator>=(const A& x, const B& y) {
  return greater_equal(Operand(x), Operand(y));
}
/// Element-wise equal.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator==(const A& x, const B& y) {
  return equal(Operand(x), Operand(y));
}
/// Element-wise not_equal.
template <OperandLike A, OperandLike B>
requires(TensorLike<A> || TensorLike<B>) Tensor operator!=(const A& x, const B& y) {
  return not_equal(Operand(x), Operand(y));
}
/// -x.
inline Tensor operator-(const Tensor& x) { return negative(x); }
inline Tensor operator-(const Variable& x) { return negative(x.read_value()); }
/// Logical operators on bool tensors.
inline Tensor operator!(const Tensor& x) { return logical_not(x); }
inline Tensor operator&&(const Tensor& x, const Tensor& y) { return logical_and(x, y); }
inline Tensor operator||(const Tensor& x, const Tensor& y) { return logical_or(x, y); }

}  // namespace tfcc
#pragma GCC visibility pop
