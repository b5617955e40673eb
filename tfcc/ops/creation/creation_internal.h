// Between the creation family's definitions and its kernels.
#pragma once

#include <optional>
#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of creation op `op` for `dtype`, or nullptr.
KernelFn creation_cpu_kernel(const std::string& op, DType dtype);

/// Whether `dtype` holds `value` exactly enough for a constant: integers must be integral and in
/// range, bools 0 or 1; floating dtypes hold every double (rounded, or inf when out of range).
bool dtype_holds(DType dtype, double value);

/// The number of elements of Range(start, limit, delta) for `dtype`, or an error message.
struct RangeSize {
  int64_t size = 0;
  std::string error;
};
RangeSize range_size(double start, double limit, double delta, DType dtype);

}  // namespace tfcc
