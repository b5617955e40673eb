#include "tfcc/keras/layers/conv.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/conv_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/conv/conv.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"

namespace tfcc::keras::layers {
namespace {
using conv_util::channels_of;
using conv_util::check_channels_last;
using conv_util::deconv_length;
using conv_util::finish;
using conv_util::tf_padding;
}  // namespace

std::vector<int64_t> IntOrTuple::expand(size_t n, const char* what) const {
  if (values.size() == 1) return std::vector<int64_t>(n, values[0]);
  TFCC_CHECK_ARG(values.size() == n, "The `", what, "` argument must be a tuple of ", n,
                 " integers. Received: ", config::repr(values));
  return values;
}

Conv2D::Conv2D(int64_t filters, IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv2d"),
      filters_(filters),
      kernel_size_(kernel_size.expand(2, "kernel_size")),
      strides_(options.strides.expand(2, "strides")),
      dilation_(options.dilation_rate.expand(2, "dilation_rate")),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(filters > 0,
                 "Invalid value for argument `filters`. Expected a strictly "
                 "positive value. Received filters=",
                 filters);
  for (int64_t v : kernel_size_) TFCC_CHECK_ARG(v > 0, "kernel_size must be positive, got ", v);
  for (int64_t v : strides_) TFCC_CHECK_ARG(v > 0, "strides must be positive, got ", v);
  for (int64_t v : dilation_) TFCC_CHECK_ARG(v > 0, "dilation_rate must be positive, got ", v);
  TFCC_CHECK_ARG(options_.groups > 0 && filters % options_.groups == 0,
                 "The number of filters must be evenly divisible by the number of groups. "
                 "Received: groups=",
                 options_.groups, ", filters=", filters);
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
  options_.strides = strides_;  // the config holds the expanded tuples
  options_.dilation_rate = dilation_;
}

namespace {
// The kernel's and bias' constraints, applied after each optimizer step.
void attach_constraints(const ConvOptions& o, const Variable& kernel, const Variable& bias) {
  if (o.kernel_constraint) constraints::attach(kernel, o.kernel_constraint);
  if (o.bias_constraint && bias.defined()) constraints::attach(bias, o.bias_constraint);
}
}  // namespace

void Conv2D::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 4, name());
  TFCC_CHECK_ARG(in % options_.groups == 0,
                 "The number of input channels must be evenly "
                 "divisible by the number of groups. Received groups=",
                 options_.groups, ", but the input has ", in, " channels (full input shape is ",
                 s.to_string(), ")");
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_[0], kernel_size_[1], in / options_.groups, filters_},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  attach_constraints(options_, kernel_, bias_);
}

Tensor Conv2D::call(const Tensor& x, bool) {
  Tensor y = conv2d(x, kernel_, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

Conv1D::Conv1D(int64_t filters, int64_t kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv1d"),
      filters_(filters),
      kernel_size_(kernel_size),
      stride_(options.strides.expand(1, "strides")[0]),
      dilation_(options.dilation_rate.expand(1, "dilation_rate")[0]),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(filters > 0 && kernel_size > 0 && stride_ > 0 && dilation_ > 0,
                 "Conv1D: filters, kernel_size, strides and dilation_rate must be positive");
  if (options_.padding != "causal") tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
  options_.strides = IntOrTuple{stride_};
  options_.dilation_rate = IntOrTuple{dilation_};
}

void Conv1D::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 3, name());
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_, in, filters_},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  attach_constraints(options_, kernel_, bias_);
}

Tensor Conv1D::call(const Tensor& x, bool) {
  Tensor in = x;
  std::string padding = options_.padding;
  if (padding == "causal") {
    // Left-pad so output t sees inputs up to t only.
    in = pad(x, {{0, 0}, {dilation_ * (kernel_size_ - 1), 0}, {0, 0}});
    padding = "valid";
  }
  Tensor y = conv1d(in, kernel_, stride_, tf_padding(padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

Conv2DTranspose::Conv2DTranspose(int64_t filters, IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "conv2d_transpose"),
      filters_(filters),
      kernel_size_(kernel_size.expand(2, "kernel_size")),
      strides_(options.strides.expand(2, "strides")),
      dilation_(options.dilation_rate.expand(2, "dilation_rate")),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(filters > 0,
                 "Invalid value for argument `filters`. Expected a strictly "
                 "positive value. Received filters=",
                 filters);
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
  options_.strides = strides_;
  options_.dilation_rate = dilation_;
}

void Conv2DTranspose::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 4, name());
  kernel_ = add_weight(
      "kernel", Shape{kernel_size_[0], kernel_size_[1], filters_, in},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{filters_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  attach_constraints(options_, kernel_, bias_);
}

Tensor Conv2DTranspose::call(const Tensor& x, bool) {
  const Shape& s = x.shape();
  std::vector<int64_t> out = {
      s[0], deconv_length(s[1], kernel_size_[0], strides_[0], dilation_[0], options_.padding),
      deconv_length(s[2], kernel_size_[1], strides_[1], dilation_[1], options_.padding), filters_};
  Tensor y =
      conv2d_transpose(x, kernel_, out, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

DepthwiseConv2D::DepthwiseConv2D(IntOrTuple kernel_size, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "depthwise_conv2d"),
      kernel_size_(kernel_size.expand(2, "kernel_size")),
      strides_(options.strides.expand(2, "strides")),
      dilation_(options.dilation_rate.expand(2, "dilation_rate")),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.depth_multiplier > 0, "depth_multiplier must be positive, got ",
                 options_.depth_multiplier);
  tf_padding(options_.padding, name());
  check_channels_last(options_.data_format, name());
  options_.strides = strides_;
  options_.dilation_rate = dilation_;
}

void DepthwiseConv2D::build(const PartialShape& s) {
  const int64_t in = channels_of(s, 4, name());
  kernel_ = add_weight("depthwise_kernel",
                       Shape{kernel_size_[0], kernel_size_[1], in, options_.depth_multiplier},
                       {.initializer = options_.depthwise_initializer,
                        .regularizer = options_.depthwise_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{checked_mul(in, options_.depth_multiplier)},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
}

Tensor DepthwiseConv2D::call(const Tensor& x, bool) {
  Tensor y =
      depthwise_conv2d(x, kernel_, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

ZeroPadding2D::ZeroPadding2D(int64_t padding, LayerArgs args)
    : ZeroPadding2D(std::vector<std::vector<int64_t>>{{padding, padding}, {padding, padding}},
                    std::move(args)) {}

ZeroPadding2D::ZeroPadding2D(std::vector<std::vector<int64_t>> padding, LayerArgs args)
    : Layer(std::move(args), "zero_padding2d"), padding_(std::move(padding)) {
  TFCC_CHECK_ARG(padding_.size() == 2 && padding_[0].size() == 2 && padding_[1].size() == 2,
                 "`padding` should have two elements, each a pair (before, after)");
  for (const auto& p : padding_) {
    for (int64_t v : p) TFCC_CHECK_ARG(v >= 0, "ZeroPadding2D: padding must be >= 0, got ", v);
  }
}

Tensor ZeroPadding2D::call(const Tensor& x, bool) {
  TFCC_CHECK_ARG(x.rank() == 4, "ZeroPadding2D expects a 4-D input, got ", x.shape().to_string());
  return pad(x, {{0, 0}, padding_[0], padding_[1], {0, 0}});
}

namespace {
// The keys Keras' convolutions write after filters and kernel_size, in Keras' order.
template <typename Builder>
auto conv_options(Builder b, bool groups) {
  b = std::move(b)
          .option("strides", &ConvOptions::strides)
          .option("padding", &ConvOptions::padding)
          .option("data_format", &ConvOptions::data_format)
          .option("dilation_rate", &ConvOptions::dilation_rate);
  if (groups) b = std::move(b).option("groups", &ConvOptions::groups);
  return std::move(b)
      .option("activation", &ConvOptions::activation)
      .option("use_bias", &ConvOptions::use_bias)
      .option("kernel_initializer", &ConvOptions::kernel_initializer)
      .option("bias_initializer", &ConvOptions::bias_initializer)
      .option("kernel_regularizer", &ConvOptions::kernel_regularizer)
      .option("bias_regularizer", &ConvOptions::bias_regularizer)
      .option("activity_regularizer", &ConvOptions::activity_regularizer)
      .option("kernel_constraint", &ConvOptions::kernel_constraint)
      .option("bias_constraint", &ConvOptions::bias_constraint);
}
}  // namespace

const config::LayerSchema& Conv2D::config_schema() {
  static const config::LayerSchema schema =
      conv_options(config::schema<Conv2D>(&Conv2D::options_)
                       .arg("filters", &Conv2D::filters_)
                       .arg("kernel_size", &Conv2D::kernel_size_),
                   true);
  return schema;
}

const config::LayerSchema& Conv1D::config_schema() {
  static const config::LayerSchema schema =
      conv_options(config::schema<Conv1D>(&Conv1D::options_)
                       .arg("filters", &Conv1D::filters_)
                       .arg<config::OneTuple>("kernel_size", &Conv1D::kernel_size_),
                   true);
  return schema;
}

const config::LayerSchema& Conv2DTranspose::config_schema() {
  static const config::LayerSchema schema =
      conv_options(config::schema<Conv2DTranspose>(&Conv2DTranspose::options_)
                       .arg("filters", &Conv2DTranspose::filters_)
                       .arg("kernel_size", &Conv2DTranspose::kernel_size_),
                   false);
  return schema;
}

const config::LayerSchema& DepthwiseConv2D::config_schema() {
  static const config::LayerSchema schema =
      config::schema<DepthwiseConv2D>(&DepthwiseConv2D::options_)
          .arg("kernel_size", &DepthwiseConv2D::kernel_size_)
          .option("strides", &Options::strides)
          .option("padding", &Options::padding)
          .option("data_format", &Options::data_format)
          .option("dilation_rate", &Options::dilation_rate)
          .option("activation", &Options::activation)
          .option("use_bias", &Options::use_bias)
          .option("depth_multiplier", &Options::depth_multiplier)
          .option("depthwise_initializer", &Options::depthwise_initializer)
          .option("bias_initializer", &Options::bias_initializer)
          .option("depthwise_regularizer", &Options::depthwise_regularizer)
          .option("bias_regularizer", &Options::bias_regularizer)
          .option("activity_regularizer", &Options::activity_regularizer);
  return schema;
}

const config::LayerSchema& ZeroPadding2D::config_schema() {
  static const config::LayerSchema schema =
      config::schema<ZeroPadding2D>(&ZeroPadding2D::args_).arg("padding", &ZeroPadding2D::padding_);
  return schema;
}

}  // namespace tfcc::keras::layers

namespace tfcc::keras::config {

std::string Codec<layers::IntOrTuple>::repr(const layers::IntOrTuple& v) {
  return config::repr(v.values);
}

void Codec<layers::IntOrTuple>::read(const Json& v, layers::IntOrTuple& out,
                                     std::string_view what) {
  Codec<std::vector<int64_t>>::read(v, out.values, what);
}

}  // namespace tfcc::keras::config
