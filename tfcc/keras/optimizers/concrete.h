// Concrete tensors made without dispatching an op, for the initial values of state variables
// (optimizer slots, metric accumulators): they must be concrete even when the code creating the
// variable runs inside a trace, like TensorFlow's init_scope.
#pragma once

#include "tfcc/core/tensor.h"

namespace tfcc::keras::detail {

/// A concrete tensor of `dtype` and `shape` with every element equal to `value`.
Tensor concrete_fill(DType dtype, const Shape& shape, double value);

}  // namespace tfcc::keras::detail
