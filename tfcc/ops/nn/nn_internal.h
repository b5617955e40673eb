// Between the nn family's definitions (nn.cc, bias_add.cc, batch_norm.cc, cross_entropy.cc) and
// its CPU kernels.
#pragma once

#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

/// Registers BiasAdd and BiasAddGrad (bias_add.cc).
void register_bias_add_ops(OpRegistry& r);
/// Registers FusedBatchNormV3 and FusedBatchNormGradV3 (batch_norm.cc).
void register_batch_norm_ops(OpRegistry& r);
/// Registers SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits.
void register_cross_entropy_ops(OpRegistry& r);
/// Registers LRN and LRNGrad (lrn.cc).
void register_lrn_ops(OpRegistry& r);

/// CPU kernels, by op name and dtype (nullptr: none).
KernelFn bias_add_cpu_kernel(const std::string& op, DType dtype);
KernelFn batch_norm_cpu_kernel(const std::string& op, DType dtype);
KernelFn cross_entropy_cpu_kernel(const std::string& op, DType dtype);
KernelFn lrn_cpu_kernel(const std::string& op, DType dtype);

namespace nn_internal {

/// float32 batch normalisation on oneDNN over a row-major [m, c] array (channels last). Returns
/// false when oneDNN rejects the problem (the caller then runs the loops). Training writes the
/// biased batch mean/variance into mean/var; inference reads them.
bool onednn_batch_norm_forward(int64_t m, int64_t c, const float* x, const float* scale,
                               const float* offset, float* mean, float* var, float* y,
                               double epsilon, bool training);
/// Its backward: dx, dscale, doffset from dy, x, scale and the statistics used forward.
bool onednn_batch_norm_backward(int64_t m, int64_t c, const float* dy, const float* x,
                                const float* scale, const float* mean, const float* var, float* dx,
                                float* dscale, float* doffset, double epsilon, bool training);

/// Cache counters of the oneDNN batch-norm primitives (tests check a repeated shape hits).
struct BatchNormCacheStats {
  int64_t hits = 0, misses = 0, entries = 0;
};
BatchNormCacheStats batch_norm_cache_stats();

/// The raw FusedBatchNormV3 call: its six outputs.
std::vector<Tensor> fused_batch_norm_v3(const Tensor& x, const Tensor& scale, const Tensor& offset,
                                        const Tensor& mean, const Tensor& variance, double epsilon,
                                        double exponential_avg_factor,
                                        const std::string& data_format, bool is_training,
                                        std::source_location loc);

}  // namespace nn_internal
}  // namespace tfcc
