// Neural-network functions built from primitives.
//
//   auto logits = tfcc::constant({{1.f, 2.f, 3.f}});
//   tfcc::softmax(logits);        // [[0.09003057 0.24472848 0.66524094]]
//   tfcc::log_softmax(logits);    // [[-2.407606   -1.4076059  -0.40760595]]
#pragma once

#include <source_location>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// exp(x - max) / sum(exp(x - max)) along `axis` (numerically stable composite).
Tensor softmax(const Tensor& logits, int64_t axis = -1, Loc loc = Loc::current());
/// x - max - log(sum(exp(x - max))) along `axis`.
Tensor log_softmax(const Tensor& logits, int64_t axis = -1, Loc loc = Loc::current());

}  // namespace tfcc
