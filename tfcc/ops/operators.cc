#include "tfcc/ops/operators.h"

namespace tfcc {

Tensor operator+(const Tensor& x, const Operand& y) { return add(x, y); }
Tensor operator+(const Operand& x, const Tensor& y) { return add(x, y); }
Tensor operator+(const Tensor& x, const Tensor& y) { return add(x, y); }
Tensor operator-(const Tensor& x, const Operand& y) { return subtract(x, y); }
Tensor operator-(const Operand& x, const Tensor& y) { return subtract(x, y); }
Tensor operator-(const Tensor& x, const Tensor& y) { return subtract(x, y); }
Tensor operator*(const Tensor& x, const Operand& y) { return multiply(x, y); }
Tensor operator*(const Operand& x, const Tensor& y) { return multiply(x, y); }
Tensor operator*(const Tensor& x, const Tensor& y) { return multiply(x, y); }
Tensor operator/(const Tensor& x, const Operand& y) { return divide(x, y); }
Tensor operator/(const Operand& x, const Tensor& y) { return divide(x, y); }
Tensor operator/(const Tensor& x, const Tensor& y) { return divide(x, y); }
Tensor operator<(const Tensor& x, const Operand& y) { return less(x, y); }
Tensor operator<(const Operand& x, const Tensor& y) { return less(x, y); }
Tensor operator<(const Tensor& x, const Tensor& y) { return less(x, y); }
Tensor operator<=(const Tensor& x, const Operand& y) { return less_equal(x, y); }
Tensor operator<=(const Operand& x, const Tensor& y) { return less_equal(x, y); }
Tensor operator<=(const Tensor& x, const Tensor& y) { return less_equal(x, y); }
Tensor operator>(const Tensor& x, const Operand& y) { return greater(x, y); }
Tensor operator>(const Operand& x, const Tensor& y) { return greater(x, y); }
Tensor operator>(const Tensor& x, const Tensor& y) { return greater(x, y); }
Tensor operator>=(const Tensor& x, const Operand& y) { return greater_equal(x, y); }
Tensor operator>=(const Operand& x, const Tensor& y) { return greater_equal(x, y); }
Tensor operator>=(const Tensor& x, const Tensor& y) { return greater_equal(x, y); }
Tensor operator==(const Tensor& x, const Operand& y) { return equal(x, y); }
Tensor operator==(const Operand& x, const Tensor& y) { return equal(x, y); }
Tensor operator==(const Tensor& x, const Tensor& y) { return equal(x, y); }
Tensor operator!=(const Tensor& x, const Operand& y) { return not_equal(x, y); }
Tensor operator!=(const Operand& x, const Tensor& y) { return not_equal(x, y); }
Tensor operator!=(const Tensor& x, const Tensor& y) { return not_equal(x, y); }
Tensor operator-(const Tensor& x) { return negative(x); }
Tensor operator!(const Tensor& x) { return logical_not(x); }
Tensor operator&&(const Tensor& x, const Tensor& y) { return logical_and(x, y); }
Tensor operator||(const Tensor& x, const Tensor& y) { return logical_or(x, y); }

}  // namespace tfcc
