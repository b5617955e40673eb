// Volumetric layers (channels_last, inputs (batch, depth, height, width, channels)): Conv3D,
// Conv3DTranspose, MaxPooling3D, AveragePooling3D, GlobalMaxPooling3D, GlobalAveragePooling3D.
// Options and Keras config keys are the 2-D layers' (ConvOptions, Pooling2DOptions,
// GlobalPooling2DOptions).
//
//   layers::Conv3D(16, 3, {.padding = "same", .activation = "relu"});  // (b, d, h, w, 16)
//   layers::Conv3DTranspose(8, 2, {.strides = 2});                     // doubles d, h, w
//   layers::MaxPooling3D();                                             // 2x2x2 windows, stride 2
//   layers::AveragePooling3D({1, 2, 2}, {.padding = "same"});
//   layers::GlobalAveragePooling3D();                                   // (b, d, h, w, c) -> (b,
//   c)
//
// Kernels: Conv3D (kd, kh, kw, in, filters); Conv3DTranspose (kd, kh, kw, filters, in).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/pooling.h"

namespace tfcc::keras::layers {

/// 3-D convolution over (batch, depth, height, width, channels); `groups` must be 1 (as
/// TensorFlow's CPU kernel).
class Conv3D : public Layer {
  TFCC_KERAS_LAYER(Conv3D)
  TFCC_KERAS_CONFIG(Conv3D)
 public:
  using Options = ConvOptions;
  Conv3D(int64_t filters, IntOrTuple kernel_size, Options options = {});
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

/// Transposed 3-D convolution (the gradient of Conv3D with respect to its input).
class Conv3DTranspose : public Layer {
  TFCC_KERAS_LAYER(Conv3DTranspose)
  TFCC_KERAS_CONFIG(Conv3DTranspose)
 public:
  using Options = ConvOptions;
  Conv3DTranspose(int64_t filters, IntOrTuple kernel_size, Options options = {});
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

/// The windowed 3-D pooling layers' shared part: window, strides, padding and config.
class Pooling3D : public Layer {
 protected:
  Pooling3D(IntOrTuple pool_size, const Pooling2DOptions& options, const char* default_name);
  /// The TensorFlow padding, after checking x is 5-D.
  std::string checked(const Tensor& x) const;

  std::vector<int64_t> pool_size_, strides_;
  Pooling2DOptions options_;  // strides expanded
};

/// The maximum of each window.
class MaxPooling3D : public Pooling3D {
  TFCC_KERAS_LAYER(MaxPooling3D)
  TFCC_KERAS_CONFIG(MaxPooling3D)
 public:
  using Options = Pooling2DOptions;
  explicit MaxPooling3D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// The mean of each window (padding never counted).
class AveragePooling3D : public Pooling3D {
  TFCC_KERAS_LAYER(AveragePooling3D)
  TFCC_KERAS_CONFIG(AveragePooling3D)
 public:
  using Options = Pooling2DOptions;
  explicit AveragePooling3D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// The mean over depth, height and width: (b, d, h, w, c) -> (b, c).
class GlobalAveragePooling3D : public Layer {
  TFCC_KERAS_LAYER(GlobalAveragePooling3D)
  TFCC_KERAS_CONFIG(GlobalAveragePooling3D)
 public:
  using Options = GlobalPooling2DOptions;
  explicit GlobalAveragePooling3D(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// The maximum over depth, height and width: (b, d, h, w, c) -> (b, c).
class GlobalMaxPooling3D : public Layer {
  TFCC_KERAS_LAYER(GlobalMaxPooling3D)
  TFCC_KERAS_CONFIG(GlobalMaxPooling3D)
 public:
  using Options = GlobalPooling2DOptions;
  explicit GlobalMaxPooling3D(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
