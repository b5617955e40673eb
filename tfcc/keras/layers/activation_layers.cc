#include "tfcc/keras/layers/activation_layers.h"

#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {

ReLU::ReLU(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "re_lu"),
      options_(std::move(options)) {
  set_supports_masking(true);
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

Softmax::Softmax(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "softmax"),
      options_(std::move(options)) {
  set_supports_masking(true);
}

Tensor Softmax::call(const Tensor& x, bool) { return softmax(x, options_.axis); }

const config::LayerSchema& ReLU::config_schema() {
  static const config::LayerSchema schema = config::schema<ReLU>(&ReLU::options_)
                                                .option("max_value", &Options::max_value)
                                                .option("negative_slope", &Options::negative_slope)
                                                .option("threshold", &Options::threshold);
  return schema;
}

const config::LayerSchema& Softmax::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Softmax>(&Softmax::options_).option("axis", &Options::axis);
  return schema;
}

}  // namespace tfcc::keras::layers
