#include "tfcc/keras/layers/pooling.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/pool/pool.h"

namespace tfcc::keras::layers {
namespace {

std::string pool_padding(const std::string& p, const std::string& layer) {
  if (p == "valid") return "VALID";
  if (p == "same") return "SAME";
  throw InvalidArgumentError(internal::str_cat("Layer '", layer, "': unsupported padding '", p,
                                               "'; expected 'valid' or 'same'"));
}

void check_input(const Tensor& x, const std::string& layer) {
  TFCC_CHECK_ARG(x.rank() == 4, "Input 0 of layer \"", layer,
                 "\" is incompatible with the "
                 "layer: expected ndim=4, found ndim=",
                 x.rank(), ". Full shape received: ", x.shape().to_string());
}

}  // namespace

Pooling2D::Pooling2D(IntOrTuple pool_size, const Pooling2DOptions& options,
                     const char* default_name)
    : Layer({options.name, options.trainable, options.input_shape}, default_name),
      pool_size_(pool_size.expand(2, "pool_size")),
      strides_(options.strides ? options.strides->expand(2, "strides") : pool_size_),
      padding_(options.padding),
      options_(options) {
  options_.strides = strides_;
  for (int64_t v : pool_size_) TFCC_CHECK_ARG(v > 0, "pool_size must be positive, got ", v);
  for (int64_t v : strides_) TFCC_CHECK_ARG(v > 0, "strides must be positive, got ", v);
  pool_padding(padding_, name());
  TFCC_CHECK_ARG(options.data_format == "channels_last", "Layer '", name(),
                 "': only data_format='channels_last' is supported");
}

MaxPooling2D::MaxPooling2D(IntOrTuple pool_size, Options options)
    : Pooling2D(pool_size, options, "max_pooling2d") {}

Tensor MaxPooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return max_pool2d(x, pool_size_, strides_, pool_padding(padding_, name()));
}

AveragePooling2D::AveragePooling2D(IntOrTuple pool_size, Options options)
    : Pooling2D(pool_size, options, "average_pooling2d") {}

Tensor AveragePooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return avg_pool2d(x, pool_size_, strides_, pool_padding(padding_, name()));
}

GlobalAveragePooling2D::GlobalAveragePooling2D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_average_pooling2d"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.data_format == "channels_last", "Layer '", name(),
                 "': only data_format='channels_last' is supported");
}

Tensor GlobalAveragePooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return global_avg_pool2d(x, options_.keepdims);
}

GlobalMaxPooling2D::GlobalMaxPooling2D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_max_pooling2d"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.data_format == "channels_last", "Layer '", name(),
                 "': only data_format='channels_last' is supported");
}

Tensor GlobalMaxPooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return global_max_pool2d(x, options_.keepdims);
}

namespace {
template <typename L>
config::LayerSchema pooling_schema(Pooling2DOptions L::*options,
                                   std::vector<int64_t> L::*pool_size) {
  return config::schema<L>(options)
      .arg("pool_size", pool_size)
      .option("padding", &Pooling2DOptions::padding)
      .option("strides", &Pooling2DOptions::strides)
      .option("data_format", &Pooling2DOptions::data_format);
}
template <typename L>
config::LayerSchema global_pooling_schema(GlobalPooling2DOptions L::*options) {
  return config::schema<L>(options)
      .option("data_format", &GlobalPooling2DOptions::data_format)
      .option("keepdims", &GlobalPooling2DOptions::keepdims);
}
}  // namespace

const config::LayerSchema& MaxPooling2D::config_schema() {
  static const config::LayerSchema schema =
      pooling_schema<MaxPooling2D>(&MaxPooling2D::options_, &MaxPooling2D::pool_size_);
  return schema;
}

const config::LayerSchema& AveragePooling2D::config_schema() {
  static const config::LayerSchema schema =
      pooling_schema<AveragePooling2D>(&AveragePooling2D::options_, &AveragePooling2D::pool_size_);
  return schema;
}

const config::LayerSchema& GlobalAveragePooling2D::config_schema() {
  static const config::LayerSchema schema =
      global_pooling_schema<GlobalAveragePooling2D>(&GlobalAveragePooling2D::options_);
  return schema;
}

const config::LayerSchema& GlobalMaxPooling2D::config_schema() {
  static const config::LayerSchema schema =
      global_pooling_schema<GlobalMaxPooling2D>(&GlobalMaxPooling2D::options_);
  return schema;
}

}  // namespace tfcc::keras::layers
