// Matrix multiplication through oneDNN: 2-D and batched (broadcast batch dims), with transposes
// folded into the primitive rather than materialised.
//
//   auto a = tfcc::random::normal({64, 128});
//   auto b = tfcc::random::normal({128, 32});
//   auto c = tfcc::matmul(a, b);                    // (64, 32)
//   auto d = tfcc::matmul(a, a, false, true);       // a @ a^T, (64, 64)
#pragma once

#include <source_location>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// a @ b over the last two dims; leading dims are batch dims and broadcast.
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false,
              Loc loc = Loc::current());

}  // namespace tfcc
