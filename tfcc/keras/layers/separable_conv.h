// Separable and 1-D transposed convolutions (channels_last): SeparableConv2D and SeparableConv1D
// (a depthwise convolution, one filter per input channel times depth_multiplier, then a 1x1
// pointwise convolution to `filters` channels) and Conv1DTranspose.
//
//   layers::SeparableConv2D(32, 3, {.padding = "same", .activation = "relu"});
//   layers::SeparableConv1D(16, 5, {.depth_multiplier = 2});     // (b, steps, c)
//   layers::Conv1DTranspose(8, 3, {.strides = 2, .padding = "same"});  // doubles the steps
//
// Weights, as Keras: depthwise_kernel (k..., in, depth_multiplier), pointwise_kernel
// (1..., in * depth_multiplier, filters), bias (filters); Conv1DTranspose's kernel
// (k, filters, in).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/constraints/constraints.h"
#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/layers/conv.h"

namespace tfcc::keras::layers {

/// Options of the separable convolutions (Keras' defaults).
struct SeparableConvOptions {
  IntOrTuple strides = 1;
  std::string padding = "valid";  ///< "valid" or "same"
  std::string data_format = "channels_last";
  IntOrTuple dilation_rate = 1;
  int64_t depth_multiplier = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::Spec depthwise_initializer = "glorot_uniform";
  initializers::Spec pointwise_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec depthwise_regularizer, pointwise_regularizer, bias_regularizer,
      activity_regularizer;
  constraints::Spec depthwise_constraint, pointwise_constraint, bias_constraint;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// The separable convolutions' shared part (`rank` 1 or 2 spatial axes).
class SeparableConv : public Layer {
 protected:
  SeparableConv(int rank, int64_t filters, IntOrTuple kernel_size,
                const SeparableConvOptions& options, const char* default_name);
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

  int rank_;
  int64_t filters_;
  std::vector<int64_t> kernel_size_;
  SeparableConvOptions options_;  // strides and dilation_rate expanded
  Variable depthwise_, pointwise_, bias_;
};

/// Depthwise then pointwise 2-D convolution over (b, h, w, c).
class SeparableConv2D : public SeparableConv {
  TFCC_KERAS_LAYER(SeparableConv2D)
  TFCC_KERAS_CONFIG(SeparableConv2D)
 public:
  using Options = SeparableConvOptions;
  SeparableConv2D(int64_t filters, IntOrTuple kernel_size, Options options = {});
};

/// Depthwise then pointwise 1-D convolution over (b, steps, c).
class SeparableConv1D : public SeparableConv {
  TFCC_KERAS_LAYER(SeparableConv1D)
  TFCC_KERAS_CONFIG(SeparableConv1D)
 public:
  using Options = SeparableConvOptions;
  SeparableConv1D(int64_t filters, IntOrTuple kernel_size, Options options = {});
};

/// Transposed 1-D convolution (the gradient of Conv1D with respect to its input); valid: length
/// (n - 1) * stride + kernel_size, same: n * stride.
class Conv1DTranspose : public Layer {
  TFCC_KERAS_LAYER(Conv1DTranspose)
  TFCC_KERAS_CONFIG(Conv1DTranspose)
 public:
  using Options = ConvOptions;
  Conv1DTranspose(int64_t filters, IntOrTuple kernel_size, Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t filters_;
  std::vector<int64_t> kernel_size_;
  Options options_;  // strides and dilation_rate expanded
  Variable kernel_, bias_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
