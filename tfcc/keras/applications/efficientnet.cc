// EfficientNetB0 as keras/src/applications/efficientnet.py builds it: the same layers, names and
// order (its preprocessing inside: Rescaling(1/255) and Normalization).
#include <cmath>

#include "tfcc/keras/applications/imagenet_utils.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"
#include "tfcc/keras/layers/preprocessing.h"

namespace tfcc::keras::applications {
namespace {

using KT = KerasTensor;

// VarianceScaling(2, fan_out, truncated_normal) for convolutions, (1/3, fan_out, uniform) for the
// classifier, as Keras' CONV_KERNEL_INITIALIZER and DENSE_KERNEL_INITIALIZER.
initializers::Spec conv_init() {
  return initializers::VarianceScaling({.scale = 2.0, .mode = "fan_out"});
}
initializers::Spec dense_init() {
  return initializers::VarianceScaling(
      {.scale = 1.0 / 3.0, .mode = "fan_out", .distribution = "uniform"});
}

KT bn_act(const KT& x, const std::string& bn, const std::string& act) {
  KT y = layers::BatchNormalization({.axis = 3, .name = bn})(x);
  return layers::Activation("swish", {.name = act})(y);
}

struct BlockArgs {
  int64_t kernel_size, repeats, filters_in, filters_out, expand_ratio, strides;
};

// Mobile inverted bottleneck with squeeze-and-excitation (se_ratio 0.25).
KT block(const KT& inputs, double drop_rate, const std::string& name, int64_t filters_in,
         int64_t filters_out, int64_t kernel_size, int64_t strides, int64_t expand_ratio) {
  const int64_t filters = filters_in * expand_ratio;
  KT x = inputs;
  if (expand_ratio != 1) {
    x = layers::Conv2D(filters, 1,
                       {.padding = "same",
                        .use_bias = false,
                        .kernel_initializer = conv_init(),
                        .name = name + "expand_conv"})(x);
    x = bn_act(x, name + "expand_bn", name + "expand_activation");
  }
  if (strides == 2) {
    x = layers::ZeroPadding2D(internal::correct_pad(x, kernel_size),
                              {.name = name + "dwconv_pad"})(x);
  }
  x = layers::DepthwiseConv2D(kernel_size, {.strides = strides,
                                            .padding = strides == 2 ? "valid" : "same",
                                            .use_bias = false,
                                            .depthwise_initializer = conv_init(),
                                            .name = name + "dwconv"})(x);
  x = bn_act(x, name + "bn", name + "activation");
  const int64_t filters_se = std::max<int64_t>(1, static_cast<int64_t>(filters_in * 0.25));
  KT se = layers::GlobalAveragePooling2D({.name = name + "se_squeeze"})(x);
  se = layers::Reshape({1, 1, filters}, {.name = name + "se_reshape"})(se);
  se = layers::Conv2D(filters_se, 1,
                      {.padding = "same",
                       .activation = "swish",
                       .kernel_initializer = conv_init(),
                       .name = name + "se_reduce"})(se);
  se = layers::Conv2D(filters, 1,
                      {.padding = "same",
                       .activation = "sigmoid",
                       .kernel_initializer = conv_init(),
                       .name = name + "se_expand"})(se);
  x = layers::Multiply({.name = name + "se_excite"})({x, se});
  x = layers::Conv2D(filters_out, 1,
                     {.padding = "same",
                      .use_bias = false,
                      .kernel_initializer = conv_init(),
                      .name = name + "project_conv"})(x);
  x = layers::BatchNormalization({.axis = 3, .name = name + "project_bn"})(x);
  if (strides == 1 && filters_in == filters_out) {
    if (drop_rate > 0) {
      x = layers::Dropout(drop_rate, {.noise_shape = {-1, 1, 1, 1}, .name = name + "drop"})(x);
    }
    x = layers::Add({.name = name + "add"})({x, inputs});
  }
  return x;
}

}  // namespace

Model EfficientNetB0(Options o) {
  const char* model = "EfficientNetB0";
  internal::check_options(model, o.weights, o.pooling);
  const auto shape = internal::obtain_input_shape(model, o.input_shape, 224, 32, o.include_top);
  KT inputs = internal::image_input(shape);
  KT x = layers::Rescaling(1.0 / 255.0)(inputs);
  x = layers::Normalization({.axis = {3}})(x);
  x = layers::ZeroPadding2D(internal::correct_pad(x, 3), {.name = "stem_conv_pad"})(x);
  x = layers::Conv2D(
      32, 3,
      {.strides = 2, .use_bias = false, .kernel_initializer = conv_init(), .name = "stem_conv"})(x);
  x = bn_act(x, "stem_bn", "stem_activation");
  // Width and depth coefficients 1: filters and repeats as listed.
  static constexpr BlockArgs kBlocks[] = {
      {3, 1, 32, 16, 1, 1},  {3, 2, 16, 24, 6, 2},   {5, 2, 24, 40, 6, 2},   {3, 3, 40, 80, 6, 2},
      {5, 3, 80, 112, 6, 1}, {5, 4, 112, 192, 6, 2}, {3, 1, 192, 320, 6, 1},
  };
  double total = 0;
  for (const BlockArgs& a : kBlocks) total += static_cast<double>(a.repeats);
  const double drop_connect_rate = 0.2;
  int b = 0;
  for (int i = 0; i < 7; ++i) {
    const BlockArgs& a = kBlocks[i];
    for (int64_t j = 0; j < a.repeats; ++j) {
      const std::string name = "block" + std::to_string(i + 1) + static_cast<char>('a' + j) + "_";
      x = block(x, drop_connect_rate * b / total, name, j > 0 ? a.filters_out : a.filters_in,
                a.filters_out, a.kernel_size, j > 0 ? 1 : a.strides, a.expand_ratio);
      ++b;
    }
  }
  x = layers::Conv2D(1280, 1,
                     {.padding = "same",
                      .use_bias = false,
                      .kernel_initializer = conv_init(),
                      .name = "top_conv"})(x);
  x = bn_act(x, "top_bn", "top_activation");
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D({.name = "avg_pool"})(x);
    x = layers::Dropout(0.2, {.name = "top_dropout"})(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation,
                                  .kernel_initializer = dense_init(),
                                  .name = "predictions"})(x);
  } else {
    x = internal::pool(x, o.pooling, "avg_pool", "max_pool");
  }
  return internal::finish(inputs, x, o.name.empty() ? "efficientnetb0" : o.name, o.weights);
}

}  // namespace tfcc::keras::applications
