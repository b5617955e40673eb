#include "tfcc/keras/layers/global_pooling1d.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::layers {

GlobalAveragePooling1D::GlobalAveragePooling1D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_average_pooling1d"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(
      options_.data_format == "channels_last" || options_.data_format == "channels_first",
      "Layer '", name(), "': data_format must be 'channels_last' or 'channels_first', ", "got '",
      options_.data_format, "'");
  set_supports_masking(true);
}

Tensors GlobalAveragePooling1D::compute_mask(const Tensors&, const Tensors&) const {
  return {Tensor()};
}

Tensor GlobalAveragePooling1D::call(const Tensor& x, bool) {
  TFCC_CHECK_ARG(x.partial_shape().rank() == 3, "Input 0 of layer \"", name(),
                 "\" is incompatible with the layer: expected ndim=3, found shape ",
                 x.partial_shape().to_string());
  const bool last = options_.data_format == "channels_last";
  const int64_t steps_axis = last ? 1 : 2;
  Tensor mask = input_mask(0);
  if (!mask.defined()) return reduce_mean(x, {steps_axis}, options_.keepdims);
  // Keras: sum(x * mask) / sum(mask) over the steps.
  Tensor m = expand_dims(cast(mask, x.dtype()), last ? 2 : 1);
  return divide(reduce_sum(multiply(x, m), {steps_axis}, options_.keepdims),
                reduce_sum(m, {steps_axis}, options_.keepdims));
}

const config::LayerSchema& GlobalAveragePooling1D::config_schema() {
  static const config::LayerSchema schema =
      config::schema<GlobalAveragePooling1D>(&GlobalAveragePooling1D::options_)
          .option("data_format", &Options::data_format)
          .option("keepdims", &Options::keepdims);
  return schema;
}

}  // namespace tfcc::keras::layers
