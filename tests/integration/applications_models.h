// The two keras::applications models the interop tests export and save (issue 18 item 5):
// MobileNetV2(weights=None, input_shape=(96, 96, 3)) and ResNet50(weights=None,
// input_shape=(64, 64, 3)), with logits out (no softmax, so that a difference in any weight
// shows) and batch-norm statistics, gammas and betas drawn at random (the initial ones, 0 and 1,
// would hide a mix-up of those weights).
#pragma once

#include <memory>
#include <string>

#include "tfcc/tfcc.h"

namespace tfcc::interop_tests {

inline void randomize_batch_norm(keras::Model& model) {
  for (const auto& layer : model.layers()) {
    if (!std::dynamic_pointer_cast<keras::layers::BatchNormalization>(layer)) continue;
    std::vector<Tensor> values;
    int i = 0;
    // gamma, beta, moving_mean, moving_variance
    for (const Tensor& w : layer->get_weights()) {
      const bool positive = i == 0 || i == 3;
      values.push_back(
          random::uniform(w.shape().dims(), positive ? 0.5 : -0.5, positive ? 1.5 : 0.5));
      ++i;
    }
    layer->set_weights(values);
  }
}

/// "mobilenet_v2" or "resnet50", with its input size in `size`.
inline keras::Model application(const std::string& name, int64_t* size) {
  namespace apps = keras::applications;
  keras::Model model =
      name == "mobilenet_v2"
          ? apps::MobileNetV2({.input_shape = {96, 96, 3}, .classifier_activation = "linear"})
          : apps::ResNet50({.input_shape = {64, 64, 3}, .classifier_activation = "linear"});
  *size = name == "mobilenet_v2" ? 96 : 64;
  randomize_batch_norm(model);
  return model;
}

}  // namespace tfcc::interop_tests
