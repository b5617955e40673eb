// Between the fused element-wise op's definition and its kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc::fused_elementwise {

/// The fusable ops by opcode, derived from the unary and binary formula lists (every formula
/// that is fusable and takes float32): unary opcodes first, then binary ones.
struct OpTable {
  std::vector<std::string> names;
  int64_t first_binary = 0;
};
const OpTable& op_table();

/// The CPU kernel for float32 / float64 (nullptr for other dtypes).
KernelFn cpu_kernel(DType dtype);

}  // namespace tfcc::fused_elementwise
