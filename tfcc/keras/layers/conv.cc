#include "tfcc/keras/layers/conv.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/conv/conv.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"

namespace tfcc::keras::layers {
namespace {

std::string tf_padding(const std::string& keras_padding, const std::string& layer) {
  if (keras_padding == "valid") return "VALID";
  if (keras_padding == "same") return "SAME";
  throw InvalidArgumentError(internal::str_cat("Layer '", layer, "': unsupported padding '",
                                               keras_padding, "'; expected 'valid' or 'same'"));
}

void check_channels_last(const std::string& data_format, const std::string& layer) {
  if (data_format == "channels_last") return;
  if (data_format == "channels_first") {
    throw UnimplementedError(
        internal::str_cat("Layer '", layer,
                          "': data_format='channels_first' is not supported on CPU (as TF's CPU "
                          "kernels); transpose to channels_last"));
  }
  throw InvalidArgumentError(internal::str_cat("Layer '", layer,
                                               "': data_format must be 'channels_last' or "
                                               "'channels_first', got '",
                                               data_format, "'"));
}

int64_t channels_of(const PartialShape& s, int rank, const std::string& layer) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == rank, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=", rank,
                 ", found ndim=", s.rank_known() ? s.rank() : -1,
                 ". Full shape received: ", s.to_string());
  const int64_t c = s.dim(rank - 1);
  TFCC_CHECK_ARG(c != PartialShape::kUnknown,
                 "The channel dimension of the inputs should be "
                 "defined. The input_shape received is ",
                 s.to_string(), " (layer '", layer, "')");
  return c;
}

Tensor finish(Tensor y, const Variable& bias, bool use_bias, const activations::Activation& act) {
  if (use_bias) y = nn::bias_add(y, bias);
  return act(y);
}

int64_t deconv_length(int64_t in, int64_t k, int64_t s, int64_t d, const std::string& padding) {
  const int64_t k_eff = k + (k - 1) * (d - 1);
  if (padding == "valid") return in * s + std::max<int64_t>(k_eff - s, 0);
  return in * s;
}

// The keys Keras' convolutions write after filters and kernel_size, in Keras' order.
void add_conv_config(Config& c, const ConvOptions& o, const std::vector<int64_t>& strides,
                     const std::vector<int64_t>& dilation) {
  c.emplace_back("strides", config::repr(strides));
  c.emplace_back("padding", config::repr(o.padding));
  c.emplace_back("data_format", config::repr(o.data_format));
  c.emplace_back("dilation_rate", config::repr(dilation));
  c.emplace_back("groups", config::repr(o.groups));
  c.emplace_back("activation", config::repr(o.activation.name));
  c.emplace_back("use_bias", config::repr(o.use_bias));
  c.emplace_back("kernel_regularizer", config::repr(o.kernel_regularizer));
  c.emplace_back("bias_regularizer", config::repr(o.bias_regularizer));
  c.emplace_back("activity_regularizer", config::repr(o.activity_regularizer));
}

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
}

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
}

Tensor Conv2D::call(const Tensor& x, bool) {
  Tensor y = conv2d(x, kernel_, strides_, tf_padding(options_.padding, name()), dilation_);
  return finish(y, bias_, options_.use_bias, options_.activation);
}

Config Conv2D::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("filters", config::repr(filters_));
  c.emplace_back("kernel_size", config::repr(kernel_size_));
  add_conv_config(c, options_, strides_, dilation_);
  return c;
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

Config Conv1D::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("filters", config::repr(filters_));
  c.emplace_back("kernel_size", config::repr(std::vector<int64_t>{kernel_size_}));
  add_conv_config(c, options_, {stride_}, {dilation_});
  return c;
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

Config Conv2DTranspose::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("filters", config::repr(filters_));
  c.emplace_back("kernel_size", config::repr(kernel_size_));
  add_conv_config(c, options_, strides_, dilation_);
  return c;
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

Config DepthwiseConv2D::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("kernel_size", config::repr(kernel_size_));
  c.emplace_back("strides", config::repr(strides_));
  c.emplace_back("padding", config::repr(options_.padding));
  c.emplace_back("data_format", config::repr(std::string("channels_last")));
  c.emplace_back("dilation_rate", config::repr(dilation_));
  c.emplace_back("activation", config::repr(options_.activation.name));
  c.emplace_back("use_bias", config::repr(options_.use_bias));
  c.emplace_back("depth_multiplier", config::repr(options_.depth_multiplier));
  c.emplace_back("depthwise_regularizer", config::repr(options_.depthwise_regularizer));
  c.emplace_back("bias_regularizer", config::repr(options_.bias_regularizer));
  c.emplace_back("activity_regularizer", config::repr(options_.activity_regularizer));
  return c;
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

Config ZeroPadding2D::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("padding", internal::str_cat("(", config::repr(padding_[0]), ", ",
                                              config::repr(padding_[1]), ")"));
  return c;
}

}  // namespace tfcc::keras::layers
