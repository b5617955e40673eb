// Shared parts of the keras.applications models (keras/src/applications/imagenet_utils.py):
// input shape rules, the padding before a stride-2 convolution, the classifier head or global
// pooling, and loading a weights file. Internal to tfcc/keras/applications.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/applications/applications.h"
#include "tfcc/keras/engine/keras_tensor.h"

namespace tfcc::keras::applications::internal {

/// Keras' obtain_input_shape: `input_shape` checked (three dimensions, height and width at least
/// `min_size`), or the default: (default_size, default_size, 3) with a classifier head,
/// (None, None, 3) without. `model` names the model in errors.
std::vector<int64_t> obtain_input_shape(const std::string& model,
                                        const std::vector<int64_t>& input_shape,
                                        int64_t default_size, int64_t min_size, bool include_top);

/// Checks `weights` (None or a weights file) and `pooling` ("", "avg", "max").
void check_options(const std::string& model, const std::optional<std::string>& weights,
                   const std::string& pooling);

/// The Input of a model: named like Keras 3's ("input_layer", then "input_layer_1", ...).
KerasTensor image_input(const std::vector<int64_t>& shape);

/// Keras' correct_pad: ((top, bottom), (left, right)) zero padding so that a stride-2
/// `kernel` x `kernel` convolution with valid padding covers the input as "same" would.
std::vector<std::vector<int64_t>> correct_pad(const KerasTensor& x, int64_t kernel);

/// Global pooling of the features for `pooling` "avg" or "max" (named `avg_name` / `max_name`,
/// or the layers' default names when empty); `x` unchanged for "".
KerasTensor pool(const KerasTensor& x, const std::string& pooling, const std::string& avg_name,
                 const std::string& max_name);

/// The model from `inputs` to `outputs`, with the weights file loaded when one is given.
Model finish(const KerasTensor& inputs, const KerasTensor& outputs, const std::string& name,
             const std::optional<std::string>& weights);

}  // namespace tfcc::keras::applications::internal
