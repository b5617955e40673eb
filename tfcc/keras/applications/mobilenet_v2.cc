// MobileNetV2 as keras/src/applications/mobilenet_v2.py builds it: the same layers, names and
// order, so its weights files and configs are interchangeable with Keras'.
#include <cmath>
#include <cstdio>

#include "tfcc/keras/applications/imagenet_utils.h"
#include "tfcc/keras/layers/activation_layers.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"

namespace tfcc::keras::applications {
namespace {

using KT = KerasTensor;

// Rounds `v` to a multiple of `divisor`, never below 90% of v (Keras' _make_divisible).
int64_t make_divisible(double v, int64_t divisor = 8) {
  const auto d = static_cast<double>(divisor);
  int64_t rounded = std::max(divisor, static_cast<int64_t>(v + d / 2) / divisor * divisor);
  if (static_cast<double>(rounded) < 0.9 * v) rounded += divisor;
  return rounded;
}

KT batch_norm(const KT& x, const std::string& name) {
  return layers::BatchNormalization({.momentum = 0.999, .epsilon = 1e-3, .name = name})(x);
}

KT relu6(const KT& x, const std::string& name) {
  return layers::ReLU({.max_value = 6.0, .name = name})(x);
}

KT inverted_res_block(const KT& inputs, int64_t expansion, int64_t stride, double alpha,
                      int64_t filters, int block_id) {
  const int64_t in_channels = inputs.shape().dim(3);
  const int64_t pointwise_filters = make_divisible(
      static_cast<double>(static_cast<int64_t>(static_cast<double>(filters) * alpha)));
  std::string prefix = "block_" + std::to_string(block_id) + "_";
  KT x = inputs;
  if (block_id) {
    x = layers::Conv2D(expansion * in_channels, 1,
                       {.padding = "same", .use_bias = false, .name = prefix + "expand"})(x);
    x = relu6(batch_norm(x, prefix + "expand_BN"), prefix + "expand_relu");
  } else {
    prefix = "expanded_conv_";
  }
  if (stride == 2) {
    x = layers::ZeroPadding2D(internal::correct_pad(x, 3), {.name = prefix + "pad"})(x);
  }
  x = layers::DepthwiseConv2D(3, {.strides = stride,
                                  .padding = stride == 1 ? "same" : "valid",
                                  .use_bias = false,
                                  .name = prefix + "depthwise"})(x);
  x = relu6(batch_norm(x, prefix + "depthwise_BN"), prefix + "depthwise_relu");
  x = layers::Conv2D(pointwise_filters, 1,
                     {.padding = "same", .use_bias = false, .name = prefix + "project"})(x);
  x = batch_norm(x, prefix + "project_BN");
  if (in_channels == pointwise_filters && stride == 1) {
    return layers::Add({.name = prefix + "add"})({inputs, x});
  }
  return x;
}

}  // namespace

Model MobileNetV2(MobileNetV2Options o) {
  const char* model = "MobileNetV2";
  internal::check_options(model, o.weights, o.pooling);
  TFCC_CHECK_ARG(o.alpha > 0, model, ": `alpha` must be positive; Received: alpha=", o.alpha);
  // Keras keeps a square input of a size it has weights for (96 ... 224) as the default size.
  int64_t default_size = 224;
  if (o.input_shape.size() == 3 && o.input_shape[0] == o.input_shape[1]) {
    for (int64_t s : {96, 128, 160, 192, 224}) {
      if (o.input_shape[0] == s) default_size = s;
    }
  }
  const auto shape =
      internal::obtain_input_shape(model, o.input_shape, default_size, 32, o.include_top);
  KT inputs = internal::image_input(shape);
  const double alpha = o.alpha;

  KT x =
      layers::Conv2D(make_divisible(32 * alpha), 3,
                     {.strides = 2, .padding = "same", .use_bias = false, .name = "Conv1"})(inputs);
  x = relu6(batch_norm(x, "bn_Conv1"), "Conv1_relu");

  struct Block {
    int64_t filters, stride, expansion;
  };
  static constexpr Block kBlocks[] = {
      {16, 1, 1}, {24, 2, 6},  {24, 1, 6},  {32, 2, 6},  {32, 1, 6},  {32, 1, 6},
      {64, 2, 6}, {64, 1, 6},  {64, 1, 6},  {64, 1, 6},  {96, 1, 6},  {96, 1, 6},
      {96, 1, 6}, {160, 2, 6}, {160, 1, 6}, {160, 1, 6}, {320, 1, 6},
  };
  int block_id = 0;
  for (const Block& b : kBlocks) {
    x = inverted_res_block(x, b.expansion, b.stride, alpha, b.filters, block_id++);
  }

  const int64_t last_block_filters = alpha > 1.0 ? make_divisible(1280 * alpha) : 1280;
  x = layers::Conv2D(last_block_filters, 1, {.use_bias = false, .name = "Conv_1"})(x);
  x = relu6(batch_norm(x, "Conv_1_bn"), "out_relu");

  if (o.include_top) {
    x = layers::GlobalAveragePooling2D()(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation, .name = "predictions"})(x);
  } else {
    x = internal::pool(x, o.pooling, "", "");
  }
  std::string name = o.name;
  if (name.empty()) {
    char alpha_text[32];
    std::snprintf(alpha_text, sizeof alpha_text, "%.2f", alpha);
    const std::string rows = shape[0] == PartialShape::kUnknown ? "None" : std::to_string(shape[0]);
    name = std::string("mobilenetv2_") + alpha_text + "_" + rows;
  }
  return internal::finish(inputs, x, name, o.weights);
}

}  // namespace tfcc::keras::applications
