// Pooling layers (channels_last): MaxPooling2D, AveragePooling2D, GlobalAveragePooling2D,
// GlobalMaxPooling2D.
//
//   layers::MaxPooling2D();  // 2x2 windows, stride 2: (26, 26) -> (13, 13)
//   layers::AveragePooling2D(3, {.strides = 1, .padding = "same"});
//   layers::GlobalAveragePooling2D();                    // (b, h, w, c) -> (b, c)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/layers/conv.h"

namespace tfcc::keras::layers {

/// Options of the 2-D pooling layers (Keras defaults: strides = pool_size, valid padding).
struct Pooling2DOptions {
  std::optional<IntOrTuple> strides;
  std::string padding = "valid";
  std::string data_format = "channels_last";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The windowed 2-D pooling layers' shared part: window, strides, padding and config.
class Pooling2D : public Layer {
 protected:
  Pooling2D(IntOrTuple pool_size, const Pooling2DOptions& options, const char* default_name);

  std::vector<int64_t> pool_size_, strides_;
  std::string padding_;
  Pooling2DOptions options_;  // strides expanded
};

/// The maximum of each window.
class MaxPooling2D : public Pooling2D {
  TFCC_KERAS_LAYER(MaxPooling2D)
  TFCC_KERAS_CONFIG(MaxPooling2D)
 public:
  using Options = Pooling2DOptions;
  explicit MaxPooling2D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// The mean of each window (padding never counted).
class AveragePooling2D : public Pooling2D {
  TFCC_KERAS_LAYER(AveragePooling2D)
  TFCC_KERAS_CONFIG(AveragePooling2D)
 public:
  using Options = Pooling2DOptions;
  explicit AveragePooling2D(IntOrTuple pool_size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// Options of the global pooling layers.
struct GlobalPooling2DOptions {
  std::string data_format = "channels_last";
  bool keepdims = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The mean over height and width: (b, h, w, c) -> (b, c).
class GlobalAveragePooling2D : public Layer {
  TFCC_KERAS_LAYER(GlobalAveragePooling2D)
  TFCC_KERAS_CONFIG(GlobalAveragePooling2D)
 public:
  using Options = GlobalPooling2DOptions;
  explicit GlobalAveragePooling2D(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// The maximum over height and width: (b, h, w, c) -> (b, c).
class GlobalMaxPooling2D : public Layer {
  TFCC_KERAS_LAYER(GlobalMaxPooling2D)
  TFCC_KERAS_CONFIG(GlobalMaxPooling2D)
 public:
  using Options = GlobalPooling2DOptions;
  explicit GlobalMaxPooling2D(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
