// Neural-network functions (tf.nn): softmax family, bias_add, batch normalisation, cross-entropy
// losses, dropout and embedding lookup. Layouts are channels-last (NHWC), as Keras.
//
//   auto logits = tfcc::constant({{1.f, 2.f, 3.f}});
//   tfcc::softmax(logits);        // [[0.09003057 0.24472848 0.66524094]]
//   tfcc::log_softmax(logits);    // [[-2.407606   -1.4076059  -0.40760595]]
//
//   namespace nn = tfcc::nn;
//   auto labels = tfcc::constant(std::vector<int64_t>{2});
//   auto loss = nn::sparse_softmax_cross_entropy_with_logits(labels, logits);   // [0.40760595]
//   auto h = nn::bias_add(x, b);                                     // x [N,H,W,C] + b [C]
//   auto bn = nn::fused_batch_norm(h, gamma, beta);                  // training: batch statistics
//   auto d = nn::dropout(h, 0.1, /*seed=*/7);                        // kept values scaled by 1/0.9
//
// Ops registered here (TensorFlow's names): BiasAdd, BiasAddGrad, FusedBatchNormV3,
// FusedBatchNormGradV3, SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits.
// The rest are composites of other ops.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// exp(x - max) / sum(exp(x - max)) along `axis` (numerically stable composite).
Tensor softmax(const Tensor& logits, int64_t axis = -1, Loc loc = Loc::current());
/// x - max - log(sum(exp(x - max))) along `axis`.
Tensor log_softmax(const Tensor& logits, int64_t axis = -1, Loc loc = Loc::current());

namespace nn {

using tfcc::log_softmax;
using tfcc::softmax;

/// value + bias, bias [C] added along the channel axis: the last one for "NHWC", axis 1 for
/// "NCHW" (rank >= 3). tf.nn.bias_add.
Tensor bias_add(const Tensor& value, const Tensor& bias, const std::string& data_format = "NHWC",
                Loc loc = Loc::current());

/// The outputs of fused_batch_norm.
struct FusedBatchNormResult {
  Tensor y;               ///< normalised, scaled and shifted input
  Tensor batch_mean;      ///< training: batch mean (blended into `mean` by exponential_avg_factor)
  Tensor batch_variance;  ///< training: Bessel-corrected batch variance (same blending)
  Tensor saved_mean;      ///< training: the batch's own mean (reserve_space_1)
  Tensor saved_variance;  ///< training: the batch's own biased variance (reserve_space_2)
};

/// Options of fused_batch_norm (tf.compat.v1.nn.fused_batch_norm).
struct FusedBatchNormOptions {
  double epsilon = 0.001;
  /// Training: output statistics are (1 - f) * mean/variance + f * batch statistics.
  double exponential_avg_factor = 1.0;
  std::string data_format = "NHWC";
  bool is_training = true;
};

/// Batch normalisation over every axis but the channel one (FusedBatchNormV3). Training:
/// normalises with the batch mean and the biased batch variance; inference: with `mean` and
/// `variance`. `x` of rank 4 (or 5, NDHWC) runs the op directly; as a tfcc extension, ranks 2
/// and 3 are reshaped to rank 4 and back (channels last). `mean`/`variance` may be undefined
/// in training with exponential_avg_factor 1. float32 runs on oneDNN; float64 (a tfcc
/// extension, TensorFlow has float32 only) on plain loops.
FusedBatchNormResult fused_batch_norm(const Tensor& x, const Tensor& scale, const Tensor& offset,
                                      const Tensor& mean = {}, const Tensor& variance = {},
                                      const FusedBatchNormOptions& options = {},
                                      Loc loc = Loc::current());

/// (x - mean) * rsqrt(variance + epsilon) * scale + offset; scale/offset may be undefined.
/// tf.nn.batch_normalization (a composite; all arguments broadcast).
Tensor batch_normalization(const Tensor& x, const Tensor& mean, const Tensor& variance,
                           const Tensor& offset, const Tensor& scale, double variance_epsilon,
                           Loc loc = Loc::current());

/// Mean and (biased) variance of `x` over `axes`. tf.nn.moments.
struct Moments {
  Tensor mean;
  Tensor variance;
};
Moments moments(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims = false,
                Loc loc = Loc::current());

/// Layer normalisation over `axes` (default: the last), then gamma * x + beta where given
/// (broadcast against the normalised axes, like Keras' LayerNormalization). A composite.
Tensor layer_normalization(const Tensor& x, const Tensor& gamma = {}, const Tensor& beta = {},
                           const std::vector<int64_t>& axes = {-1}, double epsilon = 0.001,
                           Loc loc = Loc::current());

/// Per-example cross-entropy between integer `labels` (shape of logits without its last axis,
/// values in [0, classes)) and unnormalised `logits`; fused and max-shifted.
/// Out-of-range labels raise InvalidArgumentError.
Tensor sparse_softmax_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits,
                                                Loc loc = Loc::current());
/// Per-example cross-entropy between a distribution `labels` and `logits` along `axis`
/// (tf.nn.softmax_cross_entropy_with_logits, v2: gradients flow into labels too).
Tensor softmax_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits,
                                         int64_t axis = -1, Loc loc = Loc::current());
/// The raw ops: per-example loss and the backprop (softmax - labels).
std::vector<Tensor> sparse_softmax_cross_entropy_with_logits_op(const Tensor& features,
                                                                const Tensor& labels,
                                                                Loc loc = Loc::current());
std::vector<Tensor> softmax_cross_entropy_with_logits_op(const Tensor& features,
                                                         const Tensor& labels,
                                                         Loc loc = Loc::current());

/// max(x, 0) - x * z + log(1 + exp(-|x|)): element-wise logistic loss, stable for any x.
Tensor sigmoid_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits,
                                         Loc loc = Loc::current());
/// sum(t ** 2) / 2 (tf.nn.l2_loss), a scalar.
Tensor l2_loss(const Tensor& t, Loc loc = Loc::current());

/// Inverted dropout: each element (or each slice of `noise_shape`, -1 meaning x's size) is kept
/// with probability 1 - rate and scaled by 1 / (1 - rate). rate 0 returns x; rate must be in
/// [0, 1). With a seed the mask is reproducible (TensorFlow's seed rules, tfcc::random).
Tensor dropout(const Tensor& x, double rate, std::optional<int64_t> seed = {},
               const std::vector<int64_t>& noise_shape = {}, Loc loc = Loc::current());

/// Rows of `params` selected by `ids` (gather on axis 0); the gradient is a scatter-add into
/// params' shape. tf.nn.embedding_lookup with one shard.
Tensor embedding_lookup(const Tensor& params, const Tensor& ids, Loc loc = Loc::current());

/// tf.nn.local_response_normalization (LRN) over the last axis of a 4-D tensor: each element is
/// divided by (bias + alpha * sum of the squares of the `depth_radius` channels either side and
/// itself) ** beta.
Tensor local_response_normalization(const Tensor& input, int64_t depth_radius = 5,
                                    double bias = 1.0, double alpha = 1.0, double beta = 0.5,
                                    Loc loc = Loc::current());
/// LRNGrad: the input gradient of LRN given the output gradient, LRN's input and its output.
Tensor lrn_grad(const Tensor& input_grads, const Tensor& input_image, const Tensor& output_image,
                int64_t depth_radius = 5, double bias = 1.0, double alpha = 1.0, double beta = 0.5,
                Loc loc = Loc::current());

}  // namespace nn
}  // namespace tfcc
#pragma GCC visibility pop
