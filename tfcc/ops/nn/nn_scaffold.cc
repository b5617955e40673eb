// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
Tensor softmax(const Tensor& logits, int64_t axis, Loc loc) {
  throw UnimplementedError("softmax is not implemented yet");
}

Tensor log_softmax(const Tensor& logits, int64_t axis, Loc loc) {
  throw UnimplementedError("log_softmax is not implemented yet");
}
}
