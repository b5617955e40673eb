// Operand: a tensor or a C++ scalar, for ops that take either (x + 2, maximum(x, 0.5)).
//
// TensorFlow's rule: a scalar next to a tensor adopts the tensor's dtype; two tensors of
// different dtypes are an error. A scalar that the dtype cannot hold (2.5 for an int32 tensor) is
// an InvalidArgumentError, like TF's "Cannot convert 2.5 to EagerTensor of dtype int32".
//
//   tfcc::Tensor y = tfcc::multiply(x, 2);   // 2 becomes x.dtype()
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <type_traits>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc {

/// A tensor or a scalar waiting to learn its dtype.
class Operand {
 public:
  Operand(const Tensor& t) : tensor_(t) {}                 // NOLINT: implicit by design
  Operand(Tensor&& t) : tensor_(std::move(t)) {}           // NOLINT
  Operand(const Variable& v) : tensor_(v.read_value()) {}  // NOLINT
  template <typename T>
  requires std::is_arithmetic_v<T> Operand(T v) : value_(static_cast<double>(v)) {  // NOLINT
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = DType::kBool;
    } else if constexpr (std::is_floating_point_v<T>) {
      kind_ = DType::kFloat32;  // a C++ floating scalar alone defaults to float32, as in TF
    } else if constexpr (sizeof(T) > 4) {
      kind_ = DType::kInt64;
    } else {
      kind_ = DType::kInt32;
    }
    is_float_ = std::is_floating_point_v<T>;
  }

  bool is_tensor() const { return tensor_.defined(); }
  const Tensor& tensor() const { return tensor_; }
  double value() const { return value_; }
  /// The dtype this operand has on its own (a tensor's dtype, or the scalar's default).
  DType default_dtype() const { return is_tensor() ? tensor_.dtype() : kind_; }

  /// The operand as a tensor of `dtype` (scalars are converted, tensors returned as they are).
  Tensor as_tensor(DType dtype) const;
  /// The operand as a tensor of its own default dtype.
  Tensor as_tensor() const { return as_tensor(default_dtype()); }

 private:
  Tensor tensor_;
  double value_ = 0;
  DType kind_ = DType::kFloat32;
  bool is_float_ = false;
};

/// A scalar tensor of `dtype` holding `value`; InvalidArgumentError if the dtype cannot hold it.
Tensor scalar_tensor(double value, DType dtype);

/// Resolves a pair of operands to tensors of a common dtype by TensorFlow's rules.
std::pair<Tensor, Tensor> resolve_operands(const Operand& x, const Operand& y);

}  // namespace tfcc
#pragma GCC visibility pop
