#include "tfcc/keras/applications/imagenet_utils.h"

#include "tfcc/keras/engine/backend.h"
#include "tfcc/keras/layers/pooling.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras::applications::internal {

namespace {

std::string shape_string(const std::vector<int64_t>& shape) {
  return PartialShape(shape).to_string();
}

}  // namespace

std::vector<int64_t> obtain_input_shape(const std::string& model,
                                        const std::vector<int64_t>& input_shape,
                                        int64_t default_size, int64_t min_size, bool include_top) {
  if (input_shape.empty()) {
    if (include_top) return {default_size, default_size, 3};
    return {PartialShape::kUnknown, PartialShape::kUnknown, 3};
  }
  TFCC_CHECK_ARG(input_shape.size() == 3, model,
                 ": `input_shape` must be a tuple of three integers",
                 " (height, width, channels). Received: input_shape=", shape_string(input_shape));
  for (int i = 0; i < 2; ++i) {
    const int64_t d = input_shape[static_cast<size_t>(i)];
    TFCC_CHECK_ARG(d == PartialShape::kUnknown || d >= min_size, model,
                   ": input size must be at least ", min_size, "x", min_size,
                   "; Received: input_shape=", shape_string(input_shape));
  }
  TFCC_CHECK_ARG(input_shape[2] > 0, model, ": the number of channels must be known and positive;",
                 " Received: input_shape=", shape_string(input_shape));
  if (include_top) {
    for (int64_t d : input_shape) {
      TFCC_CHECK_ARG(d != PartialShape::kUnknown, model,
                     ": if `include_top` is True, you should specify a static `input_shape`. "
                     "Received: input_shape=",
                     shape_string(input_shape));
    }
  }
  return input_shape;
}

void check_options(const std::string& model, const std::optional<std::string>& weights,
                   const std::string& pooling) {
  if (weights) {
    TFCC_REQUIRE(UnimplementedError, *weights != "imagenet", model,
                 ": weights=\"imagenet\" would download Keras' ImageNet weights, which tfcc does "
                 "not do; pass weights=None, or the path of a Keras 3 `.weights.h5` file of this "
                 "architecture");
    TFCC_REQUIRE(NotFoundError, file_exists(*weights), model,
                 ": the `weights` argument should be None (random initialization) or the path "
                 "to the weights file to be loaded; no file at ",
                 *weights);
  }
  TFCC_CHECK_ARG(
      pooling.empty() || pooling == "avg" || pooling == "max", model,
      ": `pooling` must be None (\"\"), \"avg\" or \"max\"; Received: pooling=", pooling);
}

KerasTensor image_input(const std::vector<int64_t>& shape) {
  return Input(shape, {.name = backend::unique_object_name("input_layer")});
}

std::vector<std::vector<int64_t>> correct_pad(const KerasTensor& x, int64_t kernel) {
  const int64_t correct = kernel / 2;
  std::vector<std::vector<int64_t>> pad;
  for (int axis = 1; axis <= 2; ++axis) {
    const int64_t n = x.shape().dim(axis);
    const int64_t adjust = n == PartialShape::kUnknown ? 1 : 1 - n % 2;
    pad.push_back({correct - adjust, correct});
  }
  return pad;
}

KerasTensor pool(const KerasTensor& x, const std::string& pooling, const std::string& avg_name,
                 const std::string& max_name) {
  if (pooling == "avg") return layers::GlobalAveragePooling2D({.name = avg_name})(x);
  if (pooling == "max") return layers::GlobalMaxPooling2D({.name = max_name})(x);
  return x;
}

Model finish(const KerasTensor& inputs, const KerasTensor& outputs, const std::string& name,
             const std::optional<std::string>& weights) {
  Model model(inputs, outputs, {.name = name});
  if (weights) model.load_weights(*weights);
  return model;
}

}  // namespace tfcc::keras::applications::internal
