// Matrix multiplication through oneDNN: 2-D and batched (broadcast batch dims), with transposes
// folded into the primitive rather than materialised; and the fused product + bias + activation
// that graph passes substitute for MatMul -> BiasAdd -> activation chains.
//
//   auto a = tfcc::random::normal({64, 128});
//   auto b = tfcc::random::normal({128, 32});
//   auto c = tfcc::matmul(a, b);                    // (64, 32)
//   auto d = tfcc::matmul(a, a, false, true);       // a @ a^T, (64, 64)
//   auto e = tfcc::fused_matmul(a, b, bias, "Relu");  // relu(a @ b + bias), one oneDNN call
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// a @ b over the last two dims; leading dims are batch dims and broadcast.
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false,
              Loc loc = Loc::current());

/// _FusedMatMul: act(op_a(a) @ op_b(b) + bias) for 2-D a, b and bias [n], in one oneDNN
/// primitive (post-ops). `activation`: "" (bias only), "Relu", "Relu6", "LeakyRelu"
/// (slope `leakyrelu_alpha`), "Elu", "Tanh", "Sigmoid", "GeluExact", "GeluApproximate".
Tensor fused_matmul(const Tensor& a, const Tensor& b, const Tensor& bias,
                    const std::string& activation, bool transpose_a = false,
                    bool transpose_b = false, double leakyrelu_alpha = 0.2,
                    Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
