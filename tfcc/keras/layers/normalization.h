// Normalization layers.
//
//   layers::BatchNormalization();        // axis -1, momentum 0.99, epsilon 1e-3
//   layers::LayerNormalization();        // axis -1, epsilon 1e-3
//
// BatchNormalization in training normalises with the batch's mean and (biased) variance and moves
// the moving statistics: moving -= (moving - batch_stat) * (1 - momentum), with the biased batch
// variance as Keras 3 does (Keras 2's fused path used n / (n - 1) for 4-D inputs; docs/keras3.md).
// In inference, or when the layer is not trainable, it uses the moving statistics.
//
// Like Keras (fused=None), 4-D and 5-D float inputs normalised over the last axis run on the
// fused op (nn::fused_batch_norm, FusedBatchNormV3 with exponential_avg_factor = 1 - momentum):
// one pass for the statistics, the normalisation and the moving-average update, a fused
// gradient, and in inference an op the graph pass batch_norm_folding folds into the Conv2D
// before it. Other ranks and axes use the composite of reductions and elementwise ops.
#pragma once

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of BatchNormalization (Keras defaults).
struct BatchNormalizationOptions {
  int64_t axis = -1;
  double momentum = 0.99;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::Spec beta_initializer = "zeros";
  initializers::Spec gamma_initializer = "ones";
  initializers::Spec moving_mean_initializer = "zeros";
  initializers::Spec moving_variance_initializer = "ones";
  regularizers::Spec beta_regularizer, gamma_regularizer;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Options of LayerNormalization (Keras defaults).
struct LayerNormalizationOptions {
  int64_t axis = -1;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::Spec beta_initializer = "zeros";
  initializers::Spec gamma_initializer = "ones";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Batch normalization over every axis except `axis`.
class BatchNormalization : public Layer {
  TFCC_KERAS_LAYER(BatchNormalization)
 public:
  using Options = BatchNormalizationOptions;
  explicit BatchNormalization(Options options = {});
  const Variable& moving_mean() const { return moving_mean_; }
  const Variable& moving_variance() const { return moving_variance_; }
  Config get_config() const override;

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Tensor fused_call(const Tensor& x, bool training);

  Options options_;
  int64_t axis_ = -1;  // resolved in build
  Variable gamma_, beta_, moving_mean_, moving_variance_;
};

/// Layer normalization over the last axis of each example.
class LayerNormalization : public Layer {
  TFCC_KERAS_LAYER(LayerNormalization)
 public:
  using Options = LayerNormalizationOptions;
  explicit LayerNormalization(Options options = {});
  Config get_config() const override;

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
  int64_t axis_ = -1;
  Variable gamma_, beta_;
};

}  // namespace tfcc::keras::layers
