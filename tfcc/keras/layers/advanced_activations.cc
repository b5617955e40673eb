#include "tfcc/keras/layers/advanced_activations.h"

#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {

LeakyReLU::LeakyReLU(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "leaky_re_lu"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(std::isfinite(options_.negative_slope) && options_.negative_slope >= 0,
                 "The negative_slope value of a Leaky ReLU layer cannot be None or negative "
                 "value. Expected a float. Received: negative_slope=",
                 options_.negative_slope);
}

Tensor LeakyReLU::call(const Tensor& x, bool) { return leaky_relu(x, options_.negative_slope); }

PReLU::PReLU(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "p_re_lu"),
      options_(std::move(options)) {
  for (int64_t a : options_.shared_axes) {
    TFCC_CHECK_ARG(a >= 1, "PReLU '", name(),
                   "': shared_axes are 1-based axes after the batch, got ", a);
  }
}

void PReLU::build(const PartialShape& input_shape) {
  TFCC_CHECK_ARG(input_shape.rank_known() && input_shape.rank() >= 2, "PReLU '", name(),
                 "' needs inputs of rank >= 2 (batch first), got ", input_shape.to_string());
  std::vector<int64_t> shape(input_shape.dims().begin() + 1, input_shape.dims().end());
  for (int64_t a : options_.shared_axes) {
    TFCC_CHECK_ARG(a < input_shape.rank(), "PReLU '", name(), "': shared axis ", a,
                   " is out of range for inputs ", input_shape.to_string());
    shape[a - 1] = 1;
  }
  for (int64_t d : shape) {
    TFCC_CHECK_ARG(d != PartialShape::kUnknown, "PReLU '", name(),
                   "' needs every non-shared axis known to build alpha, got ",
                   input_shape.to_string());
  }
  alpha_ = add_weight(
      "alpha", Shape(shape),
      {.initializer = options_.alpha_initializer, .regularizer = options_.alpha_regularizer});
}

Tensor PReLU::call(const Tensor& x, bool) {
  Tensor a =
      x.dtype() == alpha_.dtype() ? alpha_.read_value() : cast(alpha_.read_value(), x.dtype());
  return subtract(relu(x), multiply(a, relu(negative(x))));
}

ELU::ELU(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "elu"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(std::isfinite(options_.alpha), "ELU '", name(), "': alpha must be finite");
}

Tensor ELU::call(const Tensor& x, bool) {
  if (options_.alpha == 1.0) return elu(x);
  return where(greater(x, 0.0), x, multiply(expm1(x), options_.alpha));
}

const config::LayerSchema& LeakyReLU::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<LeakyReLU>(&LeakyReLU::options_)
                                                .option("negative_slope", &Options::negative_slope);
  return schema;
}

const config::LayerSchema& PReLU::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<PReLU>(&PReLU::options_)
          .option("alpha_initializer", &Options::alpha_initializer)
          .option("alpha_regularizer", &Options::alpha_regularizer)
          .option<keras::config::NoneIfEmpty>("shared_axes", &Options::shared_axes);
  return schema;
}

const config::LayerSchema& ELU::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<ELU>(&ELU::options_).option("alpha", &Options::alpha);
  return schema;
}

}  // namespace tfcc::keras::layers
