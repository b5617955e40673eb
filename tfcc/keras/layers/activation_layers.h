// Activation layers: ReLU (with max_value, negative_slope, threshold) and Softmax (axis).
//
//   layers::ReLU();                      // max(x, 0)
//   layers::ReLU({.max_value = 6.0});    // relu6
//   layers::Softmax({.axis = -1});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of ReLU.
struct ReLUOptions {
  std::optional<double> max_value;
  double negative_slope = 0.0;
  double threshold = 0.0;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Options of Softmax.
struct SoftmaxOptions {
  int64_t axis = -1;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// f(x) = max_value if x >= max_value; x if threshold <= x < max_value;
/// negative_slope * (x - threshold) otherwise.
class ReLU : public Layer {
  TFCC_KERAS_LAYER(ReLU)
  TFCC_KERAS_CONFIG(ReLU)
 public:
  using Options = ReLUOptions;
  explicit ReLU(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// softmax along `axis`.
class Softmax : public Layer {
  TFCC_KERAS_LAYER(Softmax)
  TFCC_KERAS_CONFIG(Softmax)
 public:
  using Options = SoftmaxOptions;
  explicit Softmax(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
