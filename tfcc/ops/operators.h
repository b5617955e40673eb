// C++ operators on tensors, with TensorFlow's meaning:
//
//   auto z = x + y;      // tfcc::add
//   auto w = -x * 2;     // tfcc::negative, tfcc::multiply (2 adopts x's dtype)
//   auto m = x < 3;      // tfcc::less (bool tensor)
//
// == and != are element-wise too, returning bool tensors (tf.Tensor.__eq__ in TF2).
#pragma once

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {

/// Operators taking a Tensor on at least one side; the other side may be a C++ scalar.
Tensor operator+(const Tensor& x, const Operand& y);
Tensor operator+(const Operand& x, const Tensor& y);
Tensor operator+(const Tensor& x, const Tensor& y);
Tensor operator-(const Tensor& x, const Operand& y);
Tensor operator-(const Operand& x, const Tensor& y);
Tensor operator-(const Tensor& x, const Tensor& y);
Tensor operator*(const Tensor& x, const Operand& y);
Tensor operator*(const Operand& x, const Tensor& y);
Tensor operator*(const Tensor& x, const Tensor& y);
Tensor operator/(const Tensor& x, const Operand& y);
Tensor operator/(const Operand& x, const Tensor& y);
Tensor operator/(const Tensor& x, const Tensor& y);
Tensor operator<(const Tensor& x, const Operand& y);
Tensor operator<(const Operand& x, const Tensor& y);
Tensor operator<(const Tensor& x, const Tensor& y);
Tensor operator<=(const Tensor& x, const Operand& y);
Tensor operator<=(const Operand& x, const Tensor& y);
Tensor operator<=(const Tensor& x, const Tensor& y);
Tensor operator>(const Tensor& x, const Operand& y);
Tensor operator>(const Operand& x, const Tensor& y);
Tensor operator>(const Tensor& x, const Tensor& y);
Tensor operator>=(const Tensor& x, const Operand& y);
Tensor operator>=(const Operand& x, const Tensor& y);
Tensor operator>=(const Tensor& x, const Tensor& y);
Tensor operator==(const Tensor& x, const Operand& y);
Tensor operator==(const Operand& x, const Tensor& y);
Tensor operator==(const Tensor& x, const Tensor& y);
Tensor operator!=(const Tensor& x, const Operand& y);
Tensor operator!=(const Operand& x, const Tensor& y);
Tensor operator!=(const Tensor& x, const Tensor& y);
/// -x.
Tensor operator-(const Tensor& x);
/// Logical operators on bool tensors.
Tensor operator!(const Tensor& x);
Tensor operator&&(const Tensor& x, const Tensor& y);
Tensor operator||(const Tensor& x, const Tensor& y);

}  // namespace tfcc
