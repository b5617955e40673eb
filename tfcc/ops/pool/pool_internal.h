// Between the pool family's definitions and its kernels: pooling geometry and the kernel lookup.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/ops/linalg/onednn.h"
#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Every size of one NHWC pooling (unknown dims -1).
struct PoolGeometry {
  int64_t batch = -1, in_h = -1, in_w = -1, c = -1;
  int64_t k_h = 1, k_w = 1, stride_h = 1, stride_w = 1;
  int64_t out_h = -1, out_w = -1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::vector<int64_t> input_dims() const { return {batch, in_h, in_w, c}; }
  std::vector<int64_t> output_dims() const { return {batch, out_h, out_w, c}; }
};

/// The pooling of `input` under the op's ksize, strides, padding and data_format, with
/// TensorFlow's checks and messages.
PoolGeometry pool_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input);

/// The CPU kernel of pool op `op` for `dtype`, or nullptr.
KernelFn pool_cpu_kernel(const std::string& op, DType dtype);

/// Counters of the oneDNN pooling primitive cache.
onednn::CacheStats pool_cache_stats();

}  // namespace tfcc
