// keras::applications: the image models of keras.applications, built from tfcc's layers with the
// same layer names, layer order and parameter counts as Keras 3 (weights start from the layers'
// initializers, as `weights=None` in Keras).
//
//   using namespace tfcc::keras;
//   Model net = applications::MobileNetV2({.input_shape = {96, 96, 3}, .classes = 10});
//   net.summary();                                            // Total params: 2,270,794
//   Model features = applications::ResNet50({.include_top = false, .pooling = "avg"});
//   Model tuned = applications::ResNet50({.weights = "resnet50.weights.h5"});  // Keras 3 weights
//
// Inputs are channels_last images. Each model expects the preprocessing of its Keras module
// (MobileNetV2: pixels scaled to [-1, 1]; ResNet50 / VGG16: BGR with the ImageNet mean removed;
// DenseNet121: ImageNet mean and deviation; ResNet50V2: [-1, 1]); EfficientNetB0 includes its
// own (Rescaling and Normalization layers), taking pixels in [0, 255].
//
// Input shapes follow keras.applications' rules: without `input_shape` the models take
// (224, 224, 3), or (None, None, 3) when include_top is false; height and width must be at least
// 32 (VGG16 and ResNet: 32; DenseNet121: 32); with include_top the shape must be fully known.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/models/model.h"

namespace tfcc::keras::applications {

/// Options of the keras.applications models (Keras' arguments, weights=None by default).
struct Options {
  /// The classifier head (pooling, Dense `classes`); false: the convolutional features only.
  bool include_top = true;
  /// None: random initialisation. A Keras 3 weights file (`.weights.h5` or `.keras`) of the
  /// same architecture is loaded with load_weights. "imagenet" (a download) is an
  /// UnimplementedError.
  std::optional<std::string> weights;
  /// One image's shape (height, width, 3); -1 for an unknown size (include_top false only).
  std::vector<int64_t> input_shape;
  /// With include_top false: "" (4-D features), "avg" or "max" (global pooling to 2-D).
  std::string pooling;
  /// Classes of the classifier head (include_top only).
  int64_t classes = 1000;
  /// Activation of the classifier head; "linear" (or "") for logits.
  activations::Activation classifier_activation = "softmax";
  /// The model's name; default Keras' ("resnet50", "mobilenetv2_1.00_224", ...).
  std::string name;
};

/// Options of MobileNetV2: Options plus the width multiplier.
struct MobileNetV2Options {
  bool include_top = true;
  std::optional<std::string> weights;
  std::vector<int64_t> input_shape;
  std::string pooling;
  int64_t classes = 1000;
  activations::Activation classifier_activation = "softmax";
  std::string name;
  /// Width multiplier: filters of every layer scaled by alpha (rounded to multiples of 8).
  double alpha = 1.0;
};

/// MobileNetV2 (Sandler et al. 2018): inverted residual blocks with linear bottlenecks.
Model MobileNetV2(MobileNetV2Options options = {});
/// ResNet50 (He et al. 2015), bottleneck blocks with post-activation.
Model ResNet50(Options options = {});
/// ResNet50V2 (He et al. 2016), bottleneck blocks with pre-activation.
Model ResNet50V2(Options options = {});
/// VGG16 (Simonyan and Zisserman 2014): 13 3x3 convolutions and 3 dense layers.
Model VGG16(Options options = {});
/// DenseNet121 (Huang et al. 2016): dense blocks of 6, 12, 24 and 16 layers.
Model DenseNet121(Options options = {});
/// EfficientNetB0 (Tan and Le 2019), with its preprocessing (Rescaling, Normalization) inside.
Model EfficientNetB0(Options options = {});

}  // namespace tfcc::keras::applications
#pragma GCC visibility pop
