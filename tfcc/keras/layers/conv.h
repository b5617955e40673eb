// Convolution layers (channels_last): Conv1D, Conv2D, Conv2DTranspose, DepthwiseConv2D, and
// ZeroPadding2D.
//
//   layers::Conv2D(32, 3, {.activation = "relu", .input_shape = {28, 28, 1}});  // (26, 26, 32)
//   layers::Conv2D(64, {3, 3}, {.strides = 2, .padding = "same"});
//   layers::Conv2DTranspose(16, 3, {.strides = 2, .padding = "same"});          // doubles H, W
//   layers::DepthwiseConv2D(3, {.depth_multiplier = 2});
//   layers::ZeroPadding2D({{1, 1}, {2, 2}});
//
// Kernels: Conv2D (kh, kw, in / groups, filters); Conv2DTranspose (kh, kw, filters, in);
// DepthwiseConv2D (kh, kw, in, depth_multiplier); Conv1D (k, in, filters). Output sizes follow
// TensorFlow: valid ceil((n - k_eff + 1) / s), same ceil(n / s).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <initializer_list>
#include <string_view>
#include <vector>

#include "tfcc/keras/constraints/constraints.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// A size given as one integer (used for every spatial dimension) or one per dimension.
struct IntOrTuple {
  IntOrTuple(int64_t v) : values{v} {}                          // NOLINT: implicit
  IntOrTuple(int v) : values{v} {}                              // NOLINT
  IntOrTuple(std::initializer_list<int64_t> v) : values(v) {}   // NOLINT
  IntOrTuple(std::vector<int64_t> v) : values(std::move(v)) {}  // NOLINT
  /// The `n` values (a single value repeated); InvalidArgumentError for another count.
  std::vector<int64_t> expand(size_t n, const char* what) const;
  std::vector<int64_t> values;
};

}  // namespace tfcc::keras::layers

namespace tfcc::keras::config {
template <typename T>
struct Codec;
/// A tuple of ints in a config; read from an int too (config_schema.h).
template <>
struct Codec<layers::IntOrTuple> {
  static std::string repr(const layers::IntOrTuple& v);
  static void read(const saving::Json& v, layers::IntOrTuple& out, std::string_view what);
};
}  // namespace tfcc::keras::config

namespace tfcc::keras::layers {

/// Options shared by the convolution layers (Keras defaults).
struct ConvOptions {
  IntOrTuple strides = 1;
  std::string padding = "valid";  ///< "valid" or "same" ("causal" for Conv1D)
  std::string data_format = "channels_last";
  IntOrTuple dilation_rate = 1;
  int64_t groups = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec kernel_regularizer, bias_regularizer, activity_regularizer;
  /// Applied after each optimizer step (keras.constraints).
  constraints::Spec kernel_constraint, bias_constraint;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// 2-D convolution over (batch, height, width, channels).
class Conv2D : public Layer {
  TFCC_KERAS_LAYER(Conv2D)
  TFCC_KERAS_CONFIG(Conv2D)
 public:
  using Options = ConvOptions;
  Conv2D(int64_t filters, IntOrTuple kernel_size, Options options = {});
  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_;
  Options options_;
  Variable kernel_, bias_;
};

/// 1-D convolution over (batch, steps, channels); padding may also be "causal".
class Conv1D : public Layer {
  TFCC_KERAS_LAYER(Conv1D)
  TFCC_KERAS_CONFIG(Conv1D)
 public:
  using Options = ConvOptions;
  Conv1D(int64_t filters, int64_t kernel_size, Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t filters_, kernel_size_, stride_, dilation_;
  Options options_;
  Variable kernel_, bias_;
};

/// Transposed 2-D convolution (the gradient of Conv2D with respect to its input).
class Conv2DTranspose : public Layer {
  TFCC_KERAS_LAYER(Conv2DTranspose)
  TFCC_KERAS_CONFIG(Conv2DTranspose)
 public:
  using Options = ConvOptions;
  Conv2DTranspose(int64_t filters, IntOrTuple kernel_size, Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t filters_;
  std::vector<int64_t> kernel_size_, strides_, dilation_;
  Options options_;
  Variable kernel_, bias_;
};

/// Options of DepthwiseConv2D (Keras defaults).
struct DepthwiseConv2DOptions {
  IntOrTuple strides = 1;
  std::string padding = "valid";
  std::string data_format = "channels_last";
  int64_t depth_multiplier = 1;
  IntOrTuple dilation_rate = 1;
  activations::Activation activation;
  bool use_bias = true;
  initializers::Spec depthwise_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec depthwise_regularizer, bias_regularizer, activity_regularizer;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// A separate filter per input channel (times depth_multiplier).
class DepthwiseConv2D : public Layer {
  TFCC_KERAS_LAYER(DepthwiseConv2D)
  TFCC_KERAS_CONFIG(DepthwiseConv2D)
 public:
  using Options = DepthwiseConv2DOptions;
  explicit DepthwiseConv2D(IntOrTuple kernel_size, Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> kernel_size_, strides_, dilation_;
  Options options_;
  Variable kernel_, bias_;
};

/// Pads height and width with zeros: `padding` is one value for all four sides, or
/// {{top, bottom}, {left, right}}.
class ZeroPadding2D : public Layer {
  TFCC_KERAS_LAYER(ZeroPadding2D)
  TFCC_KERAS_CONFIG(ZeroPadding2D)
 public:
  explicit ZeroPadding2D(int64_t padding = 1, LayerArgs args = {});
  explicit ZeroPadding2D(std::vector<std::vector<int64_t>> padding, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<std::vector<int64_t>> padding_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
