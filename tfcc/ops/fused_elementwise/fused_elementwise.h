// _FusedElementwise: a chain or tree of float element-wise ops evaluated in one pass over
// memory. The elementwise_fusion graph pass (tfcc/graph/passes) builds these nodes; the kernel
// walks the output in cache-sized blocks and runs a small program of vectorised loops per block,
// so intermediates never leave the L1/L2 cache. Each opcode computes exactly what the eager
// kernel of its op computes (same expression, no contraction into FMA), so results match the
// unfused ops bit for bit.
//
// A program is a flat list of instructions, three integers each: {opcode, a, b}. Operands are
// value numbers: 0..N-1 are the node's inputs, N+i the result of instruction i (only earlier
// ones); unary opcodes take b = -1. The last instruction's result is the output. Inputs have the
// output's shape or one element (broadcast).
//
//   // y = relu(x * w + 1)  with x, w: float32 [1024], one: float32 scalar
//   using namespace tfcc::fused_elementwise;
//   std::vector<int64_t> program = {opcode("Mul"), 0, 1,      // value 3 = x * w
//                                   opcode("AddV2"), 3, 2,    // value 4 = value 3 + one
//                                   opcode("Relu"), 4, -1};   // value 5 = relu(value 4): output
//   tfcc::Tensor y = tfcc::fused_elementwise::call({x, w, one}, program);
#pragma once

#include <cstdint>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::fused_elementwise {

/// The opcode of fusable op `op` (a registry op name such as "Mul"), or -1.
int64_t opcode(std::string_view op);
/// The op name of an opcode ("" for an invalid one).
std::string_view op_name(int64_t opcode);
/// 1 or 2 (0 for an invalid opcode).
int arity(int64_t opcode);
/// Every fusable op name, by opcode.
const std::vector<std::string>& fusable_ops();

/// The readable form of a program: "v2 = Mul(x0, x1); v3 = Relu(v2)".
std::string describe(std::span<const int64_t> program, int num_inputs);
/// Problems with a program for `num_inputs` inputs (empty: well formed).
std::string check_program(std::span<const int64_t> program, int64_t num_inputs);

/// Runs `program` over `inputs` (float32 or float64, one dtype) through dispatch.
Tensor call(const std::vector<Tensor>& inputs, const std::vector<int64_t>& program,
            std::source_location loc = std::source_location::current());

}  // namespace tfcc::fused_elementwise
