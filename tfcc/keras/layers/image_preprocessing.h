// Keras 3's image preprocessing layers, usable in a model and in a Dataset map:
//
//   auto model = keras::Sequential({
//       layers::InputLayer({64, 64, 3}),
//       layers::Resizing(32, 32),                              // always
//       layers::RandomFlip({.mode = "horizontal"}),            // training only
//       layers::RandomContrast(0.2),                           // training only
//       layers::Rescaling(1.0 / 255),
//       ...});
//
// As Keras 3.15: Resizing and CenterCrop act at inference too; the Random* layers change the
// images only when called with training = true (fit) and pass them through otherwise (RandomCrop
// included, which at inference returns its input unchanged). Images are (h, w, c) or
// (batch, h, w, c), channels last. The random draws come from tfcc::random (per-layer `seed`
// as Keras' seed), so they cannot equal Keras' numbers; their distributions are Keras'.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Resizing.
struct ResizingOptions {
  std::string data_format = "channels_last";
  /// A tfcc::image::resize_method name.
  std::string interpolation = "bilinear";
  /// Centre-crop to the target aspect ratio first (keras.preprocessing.image.smart_resize).
  bool crop_to_aspect_ratio = false;
  bool pad_to_aspect_ratio = false;  ///< not supported (InvalidArgumentError when true)
  std::string fill_mode = "constant";
  double fill_value = 0.0;
  bool antialias = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Resizes images to (height, width); integer images are rounded and saturated back to their
/// dtype, as Keras does.
class Resizing : public Layer {
  TFCC_KERAS_LAYER(Resizing)
  TFCC_KERAS_CONFIG(Resizing)
 public:
  using Options = ResizingOptions;
  Resizing(int64_t height, int64_t width, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t height_, width_;
  Options options_;
};

/// Options of CenterCrop.
struct CenterCropOptions {
  std::string data_format = "channels_last";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// The central (height, width) window; an image smaller than that is smart-resized instead.
class CenterCrop : public Layer {
  TFCC_KERAS_LAYER(CenterCrop)
  TFCC_KERAS_CONFIG(CenterCrop)
 public:
  using Options = CenterCropOptions;
  CenterCrop(int64_t height, int64_t width, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t height_, width_;
  Options options_;
};

/// Options of RandomFlip.
struct RandomFlipOptions {
  std::string data_format = "channels_last";
  std::optional<int64_t> seed;
  /// "horizontal", "vertical" or "horizontal_and_vertical" (one draw flips both axes, as Keras).
  std::string mode = "horizontal_and_vertical";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Training: each image flipped with probability 1/2.
class RandomFlip : public Layer {
  TFCC_KERAS_LAYER(RandomFlip)
  TFCC_KERAS_CONFIG(RandomFlip)
 public:
  using Options = RandomFlipOptions;
  explicit RandomFlip(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// Options of RandomContrast.
struct RandomContrastOptions {
  std::string data_format = "channels_last";
  /// Output clipped to this range.
  std::vector<double> value_range = {0, 255};
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Training: per image, (x - mean) * f + mean with f uniform in [1 - lower, 1 + upper], clipped
/// to value_range. factor: {f} (lower = upper = f) or {lower, upper}, in [0, 1].
class RandomContrast : public Layer {
  TFCC_KERAS_LAYER(RandomContrast)
  TFCC_KERAS_CONFIG(RandomContrast)
 public:
  using Options = RandomContrastOptions;
  explicit RandomContrast(std::vector<double> factor, Options options = {});
  explicit RandomContrast(double factor, Options options = {})
      : RandomContrast(std::vector<double>{factor}, std::move(options)) {}

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<double> factor_;  // (lower, upper)
  Options options_;
};

/// Options of RandomCrop.
struct RandomCropOptions {
  std::string data_format = "channels_last";
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Training: a (height, width) window at a uniform offset (the batch shares it, as Keras); an
/// image not larger than that is centre-cropped to the aspect ratio and resized.
class RandomCrop : public Layer {
  TFCC_KERAS_LAYER(RandomCrop)
  TFCC_KERAS_CONFIG(RandomCrop)
 public:
  using Options = RandomCropOptions;
  RandomCrop(int64_t height, int64_t width, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t height_, width_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
