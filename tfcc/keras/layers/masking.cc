#include "tfcc/keras/layers/masking.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::layers {

namespace {
// True where a step has any feature different from `value`: (batch, time[, 1]).
Tensor valid_steps(const Tensor& x, double value, bool keepdims) {
  TFCC_CHECK_ARG(x.partial_shape().rank() >= 1, "Masking needs inputs of rank 1 or more, got ",
                 x.partial_shape().to_string());
  return reduce_any(not_equal(x, value), {-1}, keepdims);
}
}  // namespace

Masking::Masking(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "masking"),
      options_(std::move(options)) {
  set_supports_masking(true);
}

Tensors Masking::compute_mask(const Tensors& inputs, const Tensors&) const {
  return {valid_steps(inputs.at(0), options_.mask_value, false)};
}

Tensor Masking::call(const Tensor& inputs, bool) {
  return where(valid_steps(inputs, options_.mask_value, true), inputs, 0.0);
}

const config::LayerSchema& Masking::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Masking>(&Masking::options_).option("mask_value", &Options::mask_value);
  return schema;
}

}  // namespace tfcc::keras::layers
