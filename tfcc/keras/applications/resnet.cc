// ResNet50 and ResNet50V2 as keras/src/applications/resnet.py and resnet_v2.py build them: the
// same layers, names and order.
#include "tfcc/keras/applications/imagenet_utils.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"

namespace tfcc::keras::applications {
namespace {

using KT = KerasTensor;

KT batch_norm(const KT& x, const std::string& name) {
  return layers::BatchNormalization({.epsilon = 1.001e-5, .name = name})(x);
}

KT relu(const KT& x, const std::string& name) {
  return layers::Activation("relu", {.name = name})(x);
}

// Post-activation bottleneck (residual_block_v1).
KT block_v1(const KT& in, int64_t filters, int64_t stride, bool conv_shortcut,
            const std::string& name) {
  KT shortcut = in;
  if (conv_shortcut) {
    shortcut = layers::Conv2D(4 * filters, 1, {.strides = stride, .name = name + "_0_conv"})(in);
    shortcut = batch_norm(shortcut, name + "_0_bn");
  }
  KT x = layers::Conv2D(filters, 1, {.strides = stride, .name = name + "_1_conv"})(in);
  x = relu(batch_norm(x, name + "_1_bn"), name + "_1_relu");
  x = layers::Conv2D(filters, 3, {.padding = "same", .name = name + "_2_conv"})(x);
  x = relu(batch_norm(x, name + "_2_bn"), name + "_2_relu");
  x = layers::Conv2D(4 * filters, 1, {.name = name + "_3_conv"})(x);
  x = batch_norm(x, name + "_3_bn");
  x = layers::Add({.name = name + "_add"})({shortcut, x});
  return relu(x, name + "_out");
}

KT stack_v1(KT x, int64_t filters, int blocks, int64_t stride1, const std::string& name) {
  x = block_v1(x, filters, stride1, true, name + "_block1");
  for (int i = 2; i <= blocks; ++i) {
    x = block_v1(x, filters, 1, false, name + "_block" + std::to_string(i));
  }
  return x;
}

// Pre-activation bottleneck (residual_block_v2).
KT block_v2(const KT& in, int64_t filters, int64_t stride, bool conv_shortcut,
            const std::string& name) {
  KT preact = relu(batch_norm(in, name + "_preact_bn"), name + "_preact_relu");
  KT shortcut = in;
  if (conv_shortcut) {
    shortcut =
        layers::Conv2D(4 * filters, 1, {.strides = stride, .name = name + "_0_conv"})(preact);
  } else if (stride > 1) {
    shortcut = layers::MaxPooling2D(1, {.strides = stride})(in);
  }
  KT x = layers::Conv2D(filters, 1, {.use_bias = false, .name = name + "_1_conv"})(preact);
  x = relu(batch_norm(x, name + "_1_bn"), name + "_1_relu");
  x = layers::ZeroPadding2D(1, {.name = name + "_2_pad"})(x);
  x = layers::Conv2D(filters, 3,
                     {.strides = stride, .use_bias = false, .name = name + "_2_conv"})(x);
  x = relu(batch_norm(x, name + "_2_bn"), name + "_2_relu");
  x = layers::Conv2D(4 * filters, 1, {.name = name + "_3_conv"})(x);
  return layers::Add({.name = name + "_out"})({shortcut, x});
}

KT stack_v2(KT x, int64_t filters, int blocks, int64_t stride1, const std::string& name) {
  x = block_v2(x, filters, 1, true, name + "_block1");
  for (int i = 2; i < blocks; ++i) {
    x = block_v2(x, filters, 1, false, name + "_block" + std::to_string(i));
  }
  return block_v2(x, filters, stride1, false, name + "_block" + std::to_string(blocks));
}

// keras' resnet.ResNet: stem, the stacks, then the head.
Model resnet(const Options& o, bool preact, const char* model, const char* default_name) {
  internal::check_options(model, o.weights, o.pooling);
  const auto shape = internal::obtain_input_shape(model, o.input_shape, 224, 32, o.include_top);
  KT inputs = internal::image_input(shape);
  KT x = layers::ZeroPadding2D(3, {.name = "conv1_pad"})(inputs);
  x = layers::Conv2D(64, 7, {.strides = 2, .name = "conv1_conv"})(x);
  if (!preact) x = relu(batch_norm(x, "conv1_bn"), "conv1_relu");
  x = layers::ZeroPadding2D(1, {.name = "pool1_pad"})(x);
  x = layers::MaxPooling2D(3, {.strides = 2, .name = "pool1_pool"})(x);
  if (preact) {
    x = stack_v2(x, 64, 3, 2, "conv2");
    x = stack_v2(x, 128, 4, 2, "conv3");
    x = stack_v2(x, 256, 6, 2, "conv4");
    x = stack_v2(x, 512, 3, 1, "conv5");
    x = relu(batch_norm(x, "post_bn"), "post_relu");
  } else {
    x = stack_v1(x, 64, 3, 1, "conv2");
    x = stack_v1(x, 128, 4, 2, "conv3");
    x = stack_v1(x, 256, 6, 2, "conv4");
    x = stack_v1(x, 512, 3, 2, "conv5");
  }
  if (o.include_top) {
    x = layers::GlobalAveragePooling2D({.name = "avg_pool"})(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation, .name = "predictions"})(x);
  } else {
    x = internal::pool(x, o.pooling, "avg_pool", "max_pool");
  }
  return internal::finish(inputs, x, o.name.empty() ? default_name : o.name, o.weights);
}

}  // namespace

Model ResNet50(Options options) { return resnet(options, false, "ResNet50", "resnet50"); }

Model ResNet50V2(Options options) { return resnet(options, true, "ResNet50V2", "resnet50v2"); }

}  // namespace tfcc::keras::applications
