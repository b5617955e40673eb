// 1-D pooling layers over the steps of (batch, steps, channels): MaxPooling1D, AveragePooling1D,
// GlobalAveragePooling1D (which honours a mask of the valid steps) and GlobalMaxPooling1D.
//
//   layers::MaxPooling1D(2);                              // (b, 10, c) -> (b, 5, c)
//   layers::AveragePooling1D(3, {.strides = 1, .padding = "same"});
//   layers::GlobalAveragePooling1D();                     // (b, steps, c) -> (b, c)
//   layers::GlobalAveragePooling1D().pool(x, mask);       // mean over the steps where mask is 1
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/layers/conv.h"

namespace tfcc::keras::layers {

/// Options of the 1-D pooling layers (Keras defaults: strides = pool_size, valid padding).
struct Pooling1DOptions {
  std::optional<IntOrTuple> strides;
  std::string padding = "valid";
  std::string data_format = "channels_last";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The windowed 1-D pooling layers' shared part: window, stride, padding and config.
class Pooling1D : public Layer {
 protected:
  Pooling1D(IntOrTuple pool_size, const Pooling1DOptions& options, const char* default_name);
  /// x (b, steps, c) as (b, 1, steps, c), checked.
  Tensor as_2d(const Tensor& x) const;

  std::vector<int64_t> pool_size_;
  Pooling1DOptions options_;  // strides expanded
  std::string padding_;       // "VALID" or "SAME"
};

/// The maximum of each window of steps.
class MaxPooling1D : public Pooling1D {
  TFCC_KERAS_LAYER(MaxPooling1D)
  TFCC_KERAS_CONFIG(MaxPooling1D)
 public:
  using Options = Pooling1DOptions;
  explicit MaxPooling1D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// The mean of each window of steps (padding never counted).
class AveragePooling1D : public Pooling1D {
  TFCC_KERAS_LAYER(AveragePooling1D)
  TFCC_KERAS_CONFIG(AveragePooling1D)
 public:
  using Options = Pooling1DOptions;
  explicit AveragePooling1D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// Options of the 1-D global pooling layers.
struct GlobalPooling1DOptions {
  std::string data_format = "channels_last";
  bool keepdims = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The mean over the steps: (b, steps, c) -> (b, c), or (b, 1, c) with keepdims.
class GlobalAveragePooling1D : public Layer {
  TFCC_KERAS_LAYER(GlobalAveragePooling1D)
  TFCC_KERAS_CONFIG(GlobalAveragePooling1D)
 public:
  using Options = GlobalPooling1DOptions;
  explicit GlobalAveragePooling1D(Options options = {});
  /// The pooled inputs; with `mask` ((b, steps), non-zero where a step is valid) the mean is
  /// over the valid steps only, as Keras' masked GlobalAveragePooling1D.
  Tensor pool(const Tensor& inputs, const std::optional<Tensor>& mask = std::nullopt) const;
  /// None: the steps are pooled away (a call reads the input's Keras mask, as `pool`).
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// The maximum over the steps: (b, steps, c) -> (b, c), or (b, 1, c) with keepdims.
class GlobalMaxPooling1D : public Layer {
  TFCC_KERAS_LAYER(GlobalMaxPooling1D)
  TFCC_KERAS_CONFIG(GlobalMaxPooling1D)
 public:
  using Options = GlobalPooling1DOptions;
  explicit GlobalMaxPooling1D(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
