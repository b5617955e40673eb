// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
void register_linalg_ops(OpRegistry&) {}
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b, Loc loc) {
  throw UnimplementedError("matmul is not implemented yet");
}
}
