// Between the unary family's definitions and its kernels.
#pragma once

#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of unary op `op` for `dtype`, or nullptr.
KernelFn unary_cpu_kernel(const std::string& op, DType dtype);

}  // namespace tfcc
