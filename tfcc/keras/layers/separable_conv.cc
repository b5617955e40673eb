#include "tfcc/keras/layers/separable_conv.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/conv_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/conv/conv.h"

namespace tfcc::keras::layers {
namespace {
using conv_util::channels_of;
using conv_util::check_channels_last;
using conv_util::deconv_length;
using conv_util::finish;
using conv_util::tf_padding;

void check_positive(const std::vector<int64_t>& v, const char* what, const std::string& layer) {
  for (int64_t x : v) {
    TFCC_CHECK_ARG(x > 0, "Layer '", layer, "': `", what, "` must be positive, got ", x);
  }
}
}  // namespace

SeparableConv::SeparableConv(int rank, int64_t filters, IntOrTuple kernel_size,
                             const SeparableConvOptions& options, const char* default_name)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            default_name),
      rank_(rank),
      filters_(filters),
      kernel_size_(kernel_size.expand(rank, "kernel_size")),
      options_(options) {
  TFCC_CHECK_ARG(filters > 0,
                 "Invalid value for argument `filters`. Expected a strictly positive value. "
                 "Received filters=",
                 filters);
  TFCC_CHECK_ARG(options_.depth_multiplier > 0, "Layer '", name(),
                 "': depth_multiplier must be positive, got ", options_.depth_multiplier);
  options_.strides = options.strides.expand(rank, "strides");
  options_.dilation_rate = options.dilation_rate.expand(rank, "dilation_rate");
  check_positive(kernel_size_, "kernel_size", name());
  check_positive(options_.strides.values, "strides", name());
  check_positive(options_.dilation_rate.values, "dilation_rate", name());
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
}

void SeparableConv::build(const PartialShape& s) {
  const int64_t in = channels_of(s, rank_ + 2, name());
  const int64_t dm = options_.depth_multiplier;
  std::vector<int64_t> dw = kernel_size_, pw(rank_, 1);
  dw.insert(dw.end(), {in, dm});
  pw.insert(pw.end(), {checked_mul(in, dm), filters_});
  depthwise_ = add_weight("depthwise_kernel", Shape(dw),
                          {.initializer = options_.depthwise_initializer,
                           .regularizer = options_.depthwise_regularizer});
  pointwise_ = add_weight("pointwise_kernel", Shape(pw),
                          {.initializer = options_.pointwise_initializer,
                           .regularizer = options_.pointwise_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  if (options_.depthwise_constraint) constraints::attach(depthwise_, options_.depthwise_constraint);
  if (options_.pointwise_constraint) constraints::attach(pointwise_, options_.pointwise_constraint);
  if (options_.bias_constraint && bias_.defined()) {
    constraints::attach(bias_, options_.bias_constraint);
  }
}

Tensor SeparableConv::call(const Tensor& inputs, bool) {
  channels_of(inputs.partial_shape(), rank_ + 2, name());
  Tensor x = inputs, dw = depthwise_.read_value(), pw = pointwise_.read_value();
  std::vector<int64_t> strides = options_.strides.values, dilation = options_.dilation_rate.values;
  if (rank_ == 1) {  // as 2-D with a height of 1
    x = expand_dims(x, 1);
    dw = expand_dims(dw, 0);
    pw = expand_dims(pw, 0);
    strides.insert(strides.begin(), 1);
    dilation.insert(dilation.begin(), 1);
  }
  Tensor y = depthwise_conv2d(x, dw, strides, tf_padding(options_.padding, name()), dilation);
  y = conv2d(y, pw, {1}, "VALID");
  if (rank_ == 1) y = squeeze(y, 1);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

SeparableConv2D::SeparableConv2D(int64_t filters, IntOrTuple kernel_size, Options options)
    : SeparableConv(2, filters, std::move(kernel_size), options, "separable_conv2d") {}

SeparableConv1D::SeparableConv1D(int64_t filters, IntOrTuple kernel_size, Options options)
    : SeparableConv(1, filters, std::move(kernel_size), options, "separable_conv1d") {}

Conv1DTranspose::Conv1DTranspose(int64_t filters, IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv1d_transpose"),
      filters_(filters),
      kernel_size_(kernel_size.expand(1, "kernel_size")),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(filters > 0,
                 "Invalid value for argument `filters`. Expected a strictly positive value. "
                 "Received filters=",
                 filters);
  options_.strides = options_.strides.expand(1, "strides");
  options_.dilation_rate = options_.dilation_rate.expand(1, "dilation_rate");
  check_positive(kernel_size_, "kernel_size", name());
  check_positive(options_.strides.values, "strides", name());
  check_positive(options_.dilation_rate.values, "dilation_rate", name());
  TFCC_CHECK_ARG(options_.groups == 1, "Conv1DTranspose '", name(), "' has no groups");
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
}

void Conv1DTranspose::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 3, name());
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_[0], filters_, in},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  if (options_.kernel_constraint) constraints::attach(kernel_, options_.kernel_constraint);
  if (options_.bias_constraint && bias_.defined()) {
    constraints::attach(bias_, options_.bias_constraint);
  }
}

Tensor Conv1DTranspose::call(const Tensor& x, bool) {
  const PartialShape s = x.partial_shape();
  channels_of(s, 3, name());
  TFCC_CHECK_ARG(s.dim(1) != PartialShape::kUnknown, "Conv1DTranspose '", name(),
                 "' needs the number of steps known, got ", s.to_string());
  const int64_t stride = options_.strides.values[0], dilation = options_.dilation_rate.values[0];
  const std::vector<int64_t> out = {
      s.dim(0), 1, deconv_length(s.dim(1), kernel_size_[0], stride, dilation, options_.padding),
      filters_};
  Tensor y = conv2d_transpose(expand_dims(x, 1), expand_dims(kernel_.read_value(), 0), out,
                              {1, stride}, tf_padding(options_.padding, name()), {1, dilation});
  return finish(squeeze(y, 1), bias_, options_.use_bias, options_.activation);
}

namespace {
template <typename L>
config::LayerSchema separable_schema(SeparableConvOptions L::*options, int64_t L::*filters,
                                     std::vector<int64_t> L::*kernel_size) {
  using O = SeparableConvOptions;
  return keras::config::schema<L>(options)
      .option("depth_multiplier", &O::depth_multiplier)
      .arg("filters", filters)
      .arg("kernel_size", kernel_size)
      .option("strides", &O::strides)
      .option("padding", &O::padding)
      .option("data_format", &O::data_format)
      .option("dilation_rate", &O::dilation_rate)
      .option("activation", &O::activation)
      .option("use_bias", &O::use_bias)
      .option("depthwise_initializer", &O::depthwise_initializer)
      .option("pointwise_initializer", &O::pointwise_initializer)
      .option("bias_initializer", &O::bias_initializer)
      .option("depthwise_regularizer", &O::depthwise_regularizer)
      .option("pointwise_regularizer", &O::pointwise_regularizer)
      .option("bias_regularizer", &O::bias_regularizer)
      .option("activity_regularizer", &O::activity_regularizer)
      .option("depthwise_constraint", &O::depthwise_constraint)
      .option("pointwise_constraint", &O::pointwise_constraint)
      .option("bias_constraint", &O::bias_constraint);
}
}  // namespace

const config::LayerSchema& SeparableConv2D::config_schema() {
  static const config::LayerSchema schema = separable_schema<SeparableConv2D>(
      &SeparableConv2D::options_, &SeparableConv2D::filters_, &SeparableConv2D::kernel_size_);
  return schema;
}

const config::LayerSchema& SeparableConv1D::config_schema() {
  static const config::LayerSchema schema = separable_schema<SeparableConv1D>(
      &SeparableConv1D::options_, &SeparableConv1D::filters_, &SeparableConv1D::kernel_size_);
  return schema;
}

const config::LayerSchema& Conv1DTranspose::config_schema() {
  using O = ConvOptions;
  static const config::LayerSchema schema =
      keras::config::schema<Conv1DTranspose>(&Conv1DTranspose::options_)
          .arg("filters", &Conv1DTranspose::filters_)
          .arg("kernel_size", &Conv1DTranspose::kernel_size_)
          .option("strides", &O::strides)
          .option("padding", &O::padding)
          .option("data_format", &O::data_format)
          .option("dilation_rate", &O::dilation_rate)
          .option("activation", &O::activation)
          .option("use_bias", &O::use_bias)
          .option("kernel_initializer", &O::kernel_initializer)
          .option("bias_initializer", &O::bias_initializer)
          .option("kernel_regularizer", &O::kernel_regularizer)
          .option("bias_regularizer", &O::bias_regularizer)
          .option("activity_regularizer", &O::activity_regularizer)
          .option("kernel_constraint", &O::kernel_constraint)
          .option("bias_constraint", &O::bias_constraint);
  return schema;
}

}  // namespace tfcc::keras::layers
