// Internal: kernels of the training ops.
#pragma once

#include <string>

#include "tfcc/ops/op_def.h"

namespace tfcc {
KernelFn training_cpu_kernel(const std::string& op, DType dtype);
}  // namespace tfcc
