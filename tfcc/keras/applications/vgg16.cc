// VGG16 as keras/src/applications/vgg16.py builds it: the same layers, names and order.
#include "tfcc/keras/applications/imagenet_utils.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/pooling.h"

namespace tfcc::keras::applications {

Model VGG16(Options o) {
  const char* model = "VGG16";
  internal::check_options(model, o.weights, o.pooling);
  const auto shape = internal::obtain_input_shape(model, o.input_shape, 224, 32, o.include_top);
  KerasTensor inputs = internal::image_input(shape);
  KerasTensor x = inputs;
  // (filters, convolutions) of the five blocks, each ending in 2x2 max pooling.
  const std::pair<int64_t, int> blocks[] = {{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}};
  for (int b = 0; b < 5; ++b) {
    const std::string block = "block" + std::to_string(b + 1);
    for (int c = 0; c < blocks[b].second; ++c) {
      x = layers::Conv2D(blocks[b].first, 3,
                         {.padding = "same",
                          .activation = "relu",
                          .name = block + "_conv" + std::to_string(c + 1)})(x);
    }
    x = layers::MaxPooling2D(2, {.strides = 2, .name = block + "_pool"})(x);
  }
  if (o.include_top) {
    x = layers::Flatten({.name = "flatten"})(x);
    x = layers::Dense(4096, {.activation = "relu", .name = "fc1"})(x);
    x = layers::Dense(4096, {.activation = "relu", .name = "fc2"})(x);
    x = layers::Dense(o.classes, {.activation = o.classifier_activation, .name = "predictions"})(x);
  } else {
    x = internal::pool(x, o.pooling, "", "");
  }
  return internal::finish(inputs, x, o.name.empty() ? "vgg16" : o.name, o.weights);
}

}  // namespace tfcc::keras::applications
