// Between the sorting family's definitions and its kernels.
#pragma once

#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of sorting op `op` for `dtype`, or nullptr.
KernelFn sorting_cpu_kernel(const std::string& op, DType dtype);

}  // namespace tfcc
