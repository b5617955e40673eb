// Einstein summation with TensorFlow's equation syntax, as a composite of Transpose, Reshape,
// Sum, Mul and MatMul / BatchMatMulV2: it traces into those ops, differentiates through their
// gradient rules and exports as TensorFlow ops.
//
//   auto c = tfcc::einsum("ij,jk->ik", {a, b});          // matmul
//   auto s = tfcc::einsum("bqhd,bkhd->bhqk", {q, k});    // attention scores
//   auto t = tfcc::einsum("...ij->...ji", {x});          // transpose of the last two dims
//   auto d = tfcc::einsum("ii->i", {m});                 // diagonal
//   auto o = tfcc::einsum("ij,jk", {a, b});              // implicit output: "ik"
//
// Letters a-z and A-Z name dimensions; "..." stands for the leading dimensions an operand has
// beyond its letters (they broadcast like NumPy's, right-aligned); a letter repeated inside one
// operand takes the diagonal; letters missing from the output are summed. Without "->", the
// output is "..." followed by the letters that appear exactly once, in alphabetical order.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// tf.einsum(equation, *inputs). InvalidArgumentError for a malformed equation, a count of
/// operands or a rank that does not match it, or dimensions a letter names that differ.
Tensor einsum(const std::string& equation, const std::vector<Tensor>& inputs,
              Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
