// Between the binary family's definitions and its kernels.
#pragma once

#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of binary op `op` for `dtype`, or nullptr.
KernelFn binary_cpu_kernel(const std::string& op, DType dtype);
/// Equal / NotEqual on string tensors (by bytes, broadcasting), or nullptr for other ops;
/// defined with the strings family's kernels.
KernelFn string_comparison_kernel(const std::string& op);

}  // namespace tfcc
