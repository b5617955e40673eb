#include "tfcc/keras/layers/conv3d.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/conv_util.h"
#include "tfcc/ops/conv3d/conv3d.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::layers {
namespace {

using conv_util::attach_constraints;
using conv_util::channels_of;
using conv_util::check_channels_last;
using conv_util::conv_options;
using conv_util::deconv_length;
using conv_util::finish;
using conv_util::tf_padding;

void check_filters(int64_t filters) {
  TFCC_CHECK_ARG(filters > 0,
                 "Invalid value for argument `filters`. Expected a strictly positive value. "
                 "Received filters=",
                 filters);
}

void check_rank5(const Tensor& x, const std::string& layer) {
  TFCC_CHECK_ARG(x.rank() == 5, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=5, found ndim=", x.rank(),
                 ". Full shape received: ", x.partial_shape().to_string());
}

// Expands and checks the window arguments of a 3-D convolution; the config keeps the tuples.
void setup(const std::string& layer, int64_t filters, std::vector<int64_t>& kernel_size,
           std::vector<int64_t>& strides, std::vector<int64_t>& dilation, ConvOptions& o) {
  check_filters(filters);
  for (int64_t v : kernel_size) TFCC_CHECK_ARG(v > 0, "kernel_size must be positive, got ", v);
  for (int64_t v : strides) TFCC_CHECK_ARG(v > 0, "strides must be positive, got ", v);
  for (int64_t v : dilation) TFCC_CHECK_ARG(v > 0, "dilation_rate must be positive, got ", v);
  tf_padding(o.padding, layer);
  check_channels_last(o.data_format, layer);
  o.strides = strides;
  o.dilation_rate = dilation;
}

}  // namespace

Conv3D::Conv3D(int64_t filters, IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv3d"),
      filters_(filters),
      kernel_size_(kernel_size.expand(3, "kernel_size")),
      strides_(options.strides.expand(3, "strides")),
      dilation_(options.dilation_rate.expand(3, "dilation_rate")),
      options_(std::move(options)) {
  setup(name(), filters_, kernel_size_, strides_, dilation_, options_);
  if (options_.groups != 1) {
    throw UnimplementedError(internal::str_cat(
        "Layer '", name(), "': Conv3D with groups=", options_.groups,
        " is not supported (TensorFlow's CPU Conv3D has no grouped convolution)"));
  }
}

void Conv3D::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 5, name());
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_[0], kernel_size_[1], kernel_size_[2], in, filters_},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  attach_constraints(options_, kernel_, bias_);
}

Tensor Conv3D::call(const Tensor& x, bool) {
  check_rank5(x, name());
  Tensor y = conv3d(x, kernel_, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

Conv3DTranspose::Conv3DTranspose(int64_t filters, IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv3d_transpose"),
      filters_(filters),
      kernel_size_(kernel_size.expand(3, "kernel_size")),
      strides_(options.strides.expand(3, "strides")),
      dilation_(options.dilation_rate.expand(3, "dilation_rate")),
      options_(std::move(options)) {
  setup(name(), filters_, kernel_size_, strides_, dilation_, options_);
}

void Conv3DTranspose::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 5, name());
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_[0], kernel_size_[1], kernel_size_[2], filters_, in},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  attach_constraints(options_, kernel_, bias_);
}

Tensor Conv3DTranspose::call(const Tensor& x, bool) {
  check_rank5(x, name());
  const Shape& s = x.shape();
  std::vector<int64_t> out = {s[0]};
  for (size_t i = 0; i < 3; ++i) {
    out.push_back(
        deconv_length(s[int(i) + 1], kernel_size_[i], strides_[i], dilation_[i], options_.padding));
  }
  out.push_back(filters_);
  Tensor y =
      conv3d_transpose(x, kernel_, out, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

Pooling3D::Pooling3D(IntOrTuple pool_size, const Pooling2DOptions& options,
                     const char* default_name)
    : Layer({options.name, options.trainable, options.input_shape}, default_name),
      pool_size_(pool_size.expand(3, "pool_size")),
      strides_(options.strides ? options.strides->expand(3, "strides") : pool_size_),
      options_(options) {
  options_.strides = strides_;
  for (int64_t v : pool_size_) TFCC_CHECK_ARG(v > 0, "pool_size must be positive, got ", v);
  for (int64_t v : strides_) TFCC_CHECK_ARG(v > 0, "strides must be positive, got ", v);
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
}

std::string Pooling3D::checked(const Tensor& x) const {
  check_rank5(x, name());
  return tf_padding(options_.padding, name());
}

MaxPooling3D::MaxPooling3D(IntOrTuple pool_size, Options options)
    : Pooling3D(pool_size, options, "max_pooling3d") {}

Tensor MaxPooling3D::call(const Tensor& x, bool) {
  return max_pool3d(x, pool_size_, strides_, checked(x));
}

AveragePooling3D::AveragePooling3D(IntOrTuple pool_size, Options options)
    : Pooling3D(pool_size, options, "average_pooling3d") {}

Tensor AveragePooling3D::call(const Tensor& x, bool) {
  return avg_pool3d(x, pool_size_, strides_, checked(x));
}

GlobalAveragePooling3D::GlobalAveragePooling3D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_average_pooling3d"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, name());
}

Tensor GlobalAveragePooling3D::call(const Tensor& x, bool) {
  check_rank5(x, name());
  return reduce_mean(x, {1, 2, 3}, options_.keepdims);
}

GlobalMaxPooling3D::GlobalMaxPooling3D(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "global_max_pooling3d"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, name());
}

Tensor GlobalMaxPooling3D::call(const Tensor& x, bool) {
  check_rank5(x, name());
  return reduce_max(x, {1, 2, 3}, options_.keepdims);
}

namespace {
template <typename L>
keras::config::LayerSchema pooling_schema(Pooling2DOptions L::*options,
                                          std::vector<int64_t> L::*pool_size) {
  return keras::config::schema<L>(options)
      .arg("pool_size", pool_size)
      .option("padding", &Pooling2DOptions::padding)
      .option("strides", &Pooling2DOptions::strides)
      .option("data_format", &Pooling2DOptions::data_format);
}
template <typename L>
keras::config::LayerSchema global_pooling_schema(GlobalPooling2DOptions L::*options) {
  return keras::config::schema<L>(options)
      .option("data_format", &GlobalPooling2DOptions::data_format)
      .option("keepdims", &GlobalPooling2DOptions::keepdims);
}
}  // namespace

const keras::config::LayerSchema& Conv3D::config_schema() {
  static const keras::config::LayerSchema schema =
      conv_options(keras::config::schema<Conv3D>(&Conv3D::options_)
                       .arg("filters", &Conv3D::filters_)
                       .arg("kernel_size", &Conv3D::kernel_size_),
                   true);
  return schema;
}

const keras::config::LayerSchema& Conv3DTranspose::config_schema() {
  static const keras::config::LayerSchema schema =
      conv_options(keras::config::schema<Conv3DTranspose>(&Conv3DTranspose::options_)
                       .arg("filters", &Conv3DTranspose::filters_)
                       .arg("kernel_size", &Conv3DTranspose::kernel_size_),
                   false);
  return schema;
}

const keras::config::LayerSchema& MaxPooling3D::config_schema() {
  static const keras::config::LayerSchema schema =
      pooling_schema<MaxPooling3D>(&MaxPooling3D::options_, &MaxPooling3D::pool_size_);
  return schema;
}

const keras::config::LayerSchema& AveragePooling3D::config_schema() {
  static const keras::config::LayerSchema schema =
      pooling_schema<AveragePooling3D>(&AveragePooling3D::options_, &AveragePooling3D::pool_size_);
  return schema;
}

const keras::config::LayerSchema& GlobalAveragePooling3D::config_schema() {
  static const keras::config::LayerSchema schema =
      global_pooling_schema<GlobalAveragePooling3D>(&GlobalAveragePooling3D::options_);
  return schema;
}

const keras::config::LayerSchema& GlobalMaxPooling3D::config_schema() {
  static const keras::config::LayerSchema schema =
      global_pooling_schema<GlobalMaxPooling3D>(&GlobalMaxPooling3D::options_);
  return schema;
}

}  // namespace tfcc::keras::layers
