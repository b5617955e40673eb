#include "tfcc/keras/layers/pooling1d.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/pool/pool.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::layers {
namespace {

void check_rank3(const Tensor& x, const std::string& layer) {
  TFCC_CHECK_ARG(x.rank() == 3, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=3, found ndim=", x.rank(),
                 ". Full shape received: ", x.partial_shape().to_string());
}

void check_channels_last(const std::string& format, const std::string& layer) {
  TFCC_CHECK_ARG(format == "channels_last", "Layer '", layer,
                 "': only data_format='channels_last' is supported, got '", format, "'");
}

}  // namespace

Pooling1D::Pooling1D(IntOrTuple pool_size, const Pooling1DOptions& options,
                     const char* default_name)
    : Layer({options.name, options.trainable, options.input_shape}, default_name),
      pool_size_(pool_size.expand(1, "pool_size")),
      options_(options) {
  options_.strides = options.strides ? options.strides->expand(1, "strides") : pool_size_;
  TFCC_CHECK_ARG(pool_size_[0] > 0, "pool_size must be positive, got ", pool_size_[0]);
  TFCC_CHECK_ARG(options_.strides->values[0] > 0, "strides must be positive, got ",
                 options_.strides->values[0]);
  if (options_.padding == "valid") {
    padding_ = "VALID";
  } else if (options_.padding == "same") {
    padding_ = "SAME";
  } else {
    throw InvalidArgumentError(internal::str_cat("Layer '", name(), "': unsupported padding '",
                                                 options_.padding,
                                                 "'; expected 'valid' or 'same'"));
  }
  check_channels_last(options_.data_format, name());
}

Tensor Pooling1D::as_2d(const Tensor& x) const {
  check_rank3(x, name());
  return expand_dims(x, 1);
}

MaxPooling1D::MaxPooling1D(IntOrTuple pool_size, Options options)
    : Pooling1D(pool_size, options, "max_pooling1d") {}

Tensor MaxPooling1D::call(const Tensor& x, bool) {
  const int64_t s = options_.strides->values[0];
  return squeeze(max_pool2d(as_2d(x), {1, pool_size_[0]}, {1, s}, padding_), 1);
}

AveragePooling1D::AveragePooling1D(IntOrTuple pool_size, Options options)
    : Pooling1D(pool_size, options, "average_pooling1d") {}

Tensor AveragePooling1D::call(const Tensor& x, bool) {
  const int64_t s = options_.strides->values[0];
  return squeeze(avg_pool2d(as_2d(x), {1, pool_size_[0]}, {1, s}, padding_), 1);
}

GlobalAveragePooling1D::GlobalAveragePooling1D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_average_pooling1d"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, name());
  set_supports_masking(true);  // reads the input's mask; the output has none
}

Tensors GlobalAveragePooling1D::compute_mask(const Tensors&, const Tensors&) const {
  return {Tensor()};
}

Tensor GlobalAveragePooling1D::pool(const Tensor& x, const std::optional<Tensor>& mask) const {
  check_rank3(x, name());
  if (!mask) return reduce_mean(x, 1, options_.keepdims);
  TFCC_CHECK_ARG(mask->rank() == 2, "GlobalAveragePooling1D '", name(),
                 "': the mask must be (batch, steps), got ", mask->partial_shape().to_string(),
                 " for inputs ", x.partial_shape().to_string());
  Tensor m = expand_dims(cast(*mask, x.dtype()), 2);
  return divide(reduce_sum(multiply(x, m), 1, options_.keepdims),
                reduce_sum(m, 1, options_.keepdims));
}

Tensor GlobalAveragePooling1D::call(const Tensor& x, bool) {
  const Tensor mask = input_mask(0);  // the Keras mask of the input, if any (layer.h)
  return mask.defined() ? pool(x, mask) : pool(x);
}

GlobalMaxPooling1D::GlobalMaxPooling1D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_max_pooling1d"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, name());
}

Tensor GlobalMaxPooling1D::call(const Tensor& x, bool) {
  check_rank3(x, name());
  return reduce_max(x, 1, options_.keepdims);
}

namespace {
template <typename L>
config::LayerSchema pooling_schema(Pooling1DOptions L::*options,
                                   std::vector<int64_t> L::*pool_size) {
  return keras::config::schema<L>(options)
      .arg("pool_size", pool_size)
      .option("padding", &Pooling1DOptions::padding)
      .option("strides", &Pooling1DOptions::strides)
      .option("data_format", &Pooling1DOptions::data_format);
}
template <typename L>
config::LayerSchema global_pooling_schema(GlobalPooling1DOptions L::*options) {
  return keras::config::schema<L>(options)
      .option("data_format", &GlobalPooling1DOptions::data_format)
      .option("keepdims", &GlobalPooling1DOptions::keepdims);
}
}  // namespace

const config::LayerSchema& MaxPooling1D::config_schema() {
  static const config::LayerSchema schema =
      pooling_schema<MaxPooling1D>(&MaxPooling1D::options_, &MaxPooling1D::pool_size_);
  return schema;
}

const config::LayerSchema& AveragePooling1D::config_schema() {
  static const config::LayerSchema schema =
      pooling_schema<AveragePooling1D>(&AveragePooling1D::options_, &AveragePooling1D::pool_size_);
  return schema;
}

const config::LayerSchema& GlobalAveragePooling1D::config_schema() {
  static const config::LayerSchema schema =
      global_pooling_schema<GlobalAveragePooling1D>(&GlobalAveragePooling1D::options_);
  return schema;
}

const config::LayerSchema& GlobalMaxPooling1D::config_schema() {
  static const config::LayerSchema schema =
      global_pooling_schema<GlobalMaxPooling1D>(&GlobalMaxPooling1D::options_);
  return schema;
}

}  // namespace tfcc::keras::layers
