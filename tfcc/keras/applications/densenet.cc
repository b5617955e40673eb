// DenseNet121 as keras/src/applications/densenet.py builds it: the same layers, names and order.
#include "tfcc/keras/applications/imagenet_utils.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"

namespace tfcc::keras::applications {
namespace {

using KT = KerasTensor;

KT bn_relu(const KT& x, const std::string& name) {
  KT y = layers::BatchNormalization({.axis = 3, .epsilon = 1.001e-5, .name = name + "_bn"})(x);
  return layers::Activation("relu", {.name = name + "_relu"})(y);
}

// BN-ReLU-Conv1x1(4k)-BN-ReLU-Conv3x3(k), concatenated to the block's input (k = 32).
KT conv_block(const KT& x, int64_t growth_rate, const std::string& name) {
  KT y = bn_relu(x, name + "_0");
  y = layers::Conv2D(4 * growth_rate, 1, {.use_bias = false, .name = name + "_1_conv"})(y);
  y = bn_relu(y, name + "_1");
  y = layers::Conv2D(growth_rate, 3,
                     {.padding = "same", .use_bias = false, .name = name + "_2_conv"})(y);
  return layers::Concatenate({.axis = 3, .name = name + "_concat"})({x, y});
}

KT dense_block(KT x, int blocks, const std::string& name) {
  for (int i = 0; i < blocks; ++i) x = conv_block(x, 32, name + "_block" + std::to_string(i + 1));
  return x;
}

// BN-ReLU-Conv1x1 halving the channels, then 2x2 average pooling.
KT transition_block(const KT& x, double reduction, const std::string& name) {
  KT y = bn_relu(x, name);
  const auto filters = static_cast<int64_t>(static_cast<double>(y.shape().dim(3)) * reduction);
  y = layers::Conv2D(filters, 1, {.use_bias = false, .name = name + "_conv"})(y);
  return layers::AveragePooling2D(2, {.strides = 2, .name = name + "_pool"})(y);
}

}  // namespace

Model DenseNet121(Options o) {
  const char* model = "DenseNet121";
  internal::check_options(model, o.weights, o.pooling);
  const auto shape = internal::obtain_input_shape(model, o.input_shape, 224, 32, o.include_top);
  KT inputs = internal::image_input(shape);
  KT x = layers::ZeroPadding2D(3)(inputs);
  x = layers::Conv2D(64, 7, {.strides = 2, .use_bias = false, .name = "conv1_conv"})(x);
  x = bn_relu(x, "conv1");
  x = layers::ZeroPadding2D(1)(x);
  x = layers::MaxPooling2D(3, {.strides = 2, .name = "pool1"})(x);
  const int blocks[] = {6, 12, 24, 16};
  for (int i = 0; i < 4; ++i) {
    x = dense_block(x, blocks[i], "conv" + std::to_string(i + 2));
    if (i < 3) x = transition_block(x, 0.5, "pool" + std::to_string(i + 2));
  }
  x = layers::BatchNormalization({.axis = 3, .epsilon = 1.001e-5, .name = "bn"})(x);
  x = layers::Activation("relu", {.name = "relu"})(x);
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D({.name = "avg_pool"})(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation, .name = "predictions"})(x);
  } else {
    x = internal::pool(x, o.pooling, "avg_pool", "max_pool");
  }
  return internal::finish(inputs, x, o.name.empty() ? "densenet121" : o.name, o.weights);
}

}  // namespace tfcc::keras::applications
