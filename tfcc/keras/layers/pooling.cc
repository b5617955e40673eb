#include "tfcc/keras/layers/pooling.h"

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
      padding_(options.padding) {
  for (int64_t v : pool_size_) TFCC_CHECK_ARG(v > 0, "pool_size must be positive, got ", v);
  for (int64_t v : strides_) TFCC_CHECK_ARG(v > 0, "strides must be positive, got ", v);
  pool_padding(padding_, name());
  TFCC_CHECK_ARG(options.data_format == "channels_last", "Layer '", name(),
                 "': only data_format='channels_last' is supported");
}

Config Pooling2D::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("pool_size", config::repr(pool_size_));
  c.emplace_back("padding", config::repr(padding_));
  c.emplace_back("strides", config::repr(strides_));
  c.emplace_back("data_format", config::repr(std::string("channels_last")));
  return c;
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
      keepdims_(options.keepdims) {}

Tensor GlobalAveragePooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return global_avg_pool2d(x, keepdims_);
}

GlobalMaxPooling2D::GlobalMaxPooling2D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_max_pooling2d"),
      keepdims_(options.keepdims) {}

Tensor GlobalMaxPooling2D::call(const Tensor& x, bool) {
  check_input(x, name());
  return global_max_pool2d(x, keepdims_);
}

namespace {
Config global_pooling_config(Config c, bool keepdims) {
  c.emplace_back("data_format", config::repr(std::string("channels_last")));
  c.emplace_back("keepdims", config::repr(keepdims));
  return c;
}
}  // namespace

Config GlobalAveragePooling2D::get_config() const {
  return global_pooling_config(Layer::get_config(), keepdims_);
}

Config GlobalMaxPooling2D::get_config() const {
  return global_pooling_config(Layer::get_config(), keepdims_);
}

}  // namespace tfcc::keras::layers
