// Between the strings family's definitions and its kernels.
#pragma once

#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of strings op `op` for `dtype`, or nullptr.
KernelFn strings_cpu_kernel(const std::string& op, DType dtype);

}  // namespace tfcc

namespace tfcc {

/// The CPU kernel of lookup op `op` (lookup.h) for `dtype`, or nullptr.
KernelFn lookup_cpu_kernel(const std::string& op, DType dtype);

}  // namespace tfcc
