#include "tfcc/keras/layers/activation_layers.h"

#include <cmath>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {

ReLU::ReLU(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "re_lu"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(
      !options_.max_value || *options_.max_value >= 0,
      "max_value of a ReLU layer cannot be a negative value. Received: ", *options_.max_value);
  TFCC_CHECK_ARG(options_.negative_slope >= 0,
                 "negative_slope of a ReLU layer cannot be a negative value. Received: ",
                 options_.negative_slope);
}

Tensor ReLU::call(const Tensor& x, bool) {
  const auto& o = options_;
  Tensor y;
  if (o.negative_slope == 0 && o.threshold == 0) {
    y = relu(x);
  } else {
    Tensor above = greater_equal(x, o.threshold);
    y = where(above, x, multiply(subtract(x, o.threshold), o.negative_slope));
  }
  if (o.max_value) y = minimum(y, *o.max_value);
  return y;
}

Config ReLU::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("max_value", options_.max_value ? config::repr(*options_.max_value) : "None");
  c.emplace_back("negative_slope", config::repr(options_.negative_slope));
  c.emplace_back("threshold", config::repr(options_.threshold));
  return c;
}

Softmax::Softmax(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "softmax"),
      options_(std::move(options)) {}

Tensor Softmax::call(const Tensor& x, bool) { return softmax(x, options_.axis); }

Config Softmax::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("axis", config::repr(options_.axis));
  return c;
}

}  // namespace tfcc::keras::layers
