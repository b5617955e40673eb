// Between the linalg family's definitions and its kernels; also what unit tests inspect.
#pragma once

#include <cstdint>
#include <string>

#include "tfcc/ops/linalg/onednn.h"
#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of linalg op `op` for `dtype`, or nullptr.
KernelFn linalg_cpu_kernel(const std::string& op, DType dtype);

/// Counters of the oneDNN matmul primitive cache (float32 matmuls).
struct MatMulCacheStats {
  int64_t hits = 0;       ///< calls that reused a cached primitive
  int64_t misses = 0;     ///< calls that built a primitive
  int64_t entries = 0;    ///< primitives held
  int64_t fallbacks = 0;  ///< float32 calls oneDNN could not take (run by the C++ loop)
};
MatMulCacheStats matmul_cache_stats();

/// Counters of the _FusedMatMul primitive cache.
onednn::CacheStats fused_matmul_cache_stats();

}  // namespace tfcc
