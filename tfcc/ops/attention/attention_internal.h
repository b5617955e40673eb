// Between the attention family's definitions (attention.cc) and its CPU kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of attention op `op` for `dtype`, or nullptr.
KernelFn attention_cpu_kernel(const std::string& op, DType dtype);

namespace attention_internal {

/// Where a bias or mask broadcast to [batch..., Tq, Tk] keeps element (b, i, j):
/// batch[b] + i * stride_q + j * stride_k.
struct Broadcast {
  std::vector<int64_t> batch;
  int64_t stride_q = 0, stride_k = 0;
};

/// The problem's sizes: q [batch..., tq, d], k [batch..., tk, d], v [batch..., tk, dv].
struct Geometry {
  int64_t batch = 1, tq = 0, tk = 0, d = 0, dv = 0;
  Broadcast bias, mask;
};

/// Checks the shapes of q, k, v, bias and mask (-1: unknown, skipped); returns a message naming
/// them when they do not fit, or "" when they do.
std::string check_shapes(const PartialShape& q, const PartialShape& k, const PartialShape& v,
                         const PartialShape& bias, const PartialShape& mask);

/// The geometry of a kernel call (inputs 0..4 are q, k, v, bias, mask); fails the op when the
/// shapes do not fit.
Geometry geometry(const KernelContext& ctx);

}  // namespace attention_internal
}  // namespace tfcc
