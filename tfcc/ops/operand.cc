#include "tfcc/ops/operand.h"

#include <cmath>
#include <limits>

namespace tfcc {

Tensor scalar_tensor(double value, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      bool fits = std::isfinite(value) && value == std::trunc(value) &&
                  value >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
                  value <= static_cast<double>(std::numeric_limits<T>::max());
      TFCC_CHECK_ARG(fits, "Cannot convert ", value, " to EagerTensor of dtype ",
                     dtype_name(dtype));
      return Tensor::scalar<T>(static_cast<T>(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      TFCC_CHECK_ARG(value == 0 || value == 1, "Cannot convert ", value,
                     " to EagerTensor of dtype bool");
      return Tensor::scalar<bool>(value != 0);
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      return Tensor::scalar<BFloat16>(BFloat16(static_cast<float>(value)));
    } else {
      return Tensor::scalar<T>(static_cast<T>(value));
    }
  });
}

Tensor Operand::as_tensor(DType dtype) const {
  if (is_tensor()) return tensor_;
  if (kind_ == DType::kBool && dtype != DType::kBool) {
    throw InvalidArgumentError(
        internal::str_cat("Cannot convert a bool scalar to dtype ", dtype_name(dtype)));
  }
  if (kind_ != DType::kBool && dtype == DType::kBool) {
    throw InvalidArgumentError(
        internal::str_cat("Cannot convert ", value_, " to EagerTensor of dtype bool"));
  }
  return scalar_tensor(value_, dtype);
}

std::pair<Tensor, Tensor> resolve_operands(const Operand& x, const Operand& y) {
  if (x.is_tensor()) return {x.tensor(), y.as_tensor(x.tensor().dtype())};
  if (y.is_tensor()) return {x.as_tensor(y.tensor().dtype()), y.tensor()};
  // Two scalars: a float one makes both float32, as Python's 1 + 2.0 would.
  DType d = x.default_dtype();
  if (is_floating(y.default_dtype())) d = y.default_dtype();
  return {x.as_tensor(d), y.as_tensor(d)};
}

}  // namespace tfcc
