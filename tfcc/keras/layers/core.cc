#include "tfcc/keras/layers/core.h"

#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/nn/nn.h"

namespace tfcc::keras::layers {

Dense::Dense(int64_t units, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "dense"),
      units_(units),
      options_(std::move(options)) {
  set_supports_masking(true);
  TFCC_CHECK_ARG(units > 0,
                 "Received an invalid value for `units`, expected a positive integer. "
                 "Received: units=",
                 units);
}

void Dense::build(const PartialShape& input_shape) {
  TFCC_CHECK_ARG(input_shape.rank_known() && input_shape.rank() >= 1 &&
                     input_shape.dim(input_shape.rank() - 1) != PartialShape::kUnknown,
                 "The last dimension of the inputs to a Dense layer should be defined. Found "
                 "None. Full input shape received: ",
                 input_shape.to_string());
  const int64_t in = input_shape.dim(input_shape.rank() - 1);
  kernel_ = add_weight(
      "kernel", Shape{in, units_},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{units_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
  if (options_.kernel_constraint) constraints::attach(kernel_, options_.kernel_constraint);
  if (options_.bias_constraint && bias_.defined()) {
    constraints::attach(bias_, options_.bias_constraint);
  }
}

Tensor Dense::call(const Tensor& inputs, bool) {
  const PartialShape s = inputs.partial_shape();
  TFCC_CHECK_ARG(s.rank_known() && s.rank() >= 1 && s.dim(s.rank() - 1) == kernel_.shape()[0],
                 "Input 0 of layer \"", name(),
                 "\" is incompatible with the layer: expected axis "
                 "-1 of input shape to have value ",
                 kernel_.shape()[0], ", but received input with shape ", s.to_string());
  Tensor x = inputs.dtype() == kernel_.dtype() ? inputs : cast(inputs, kernel_.dtype());
  Tensor y;
  if (s.rank() == 2) {
    y = matmul(x, kernel_);
  } else if (!s.is_fully_defined()) {
    // Leading dims unknown (a trace with a None batch): BatchMatMulV2 broadcasts the kernel.
    y = matmul(x, kernel_);
  } else {
    // (..., in) -> (N, in) . kernel -> (..., units), as tf.tensordot does.
    std::vector<int64_t> out_dims = x.shape().dims();
    out_dims.back() = units_;
    y = reshape(matmul(reshape(x, {-1, kernel_.shape()[0]}), kernel_), out_dims);
  }
  if (options_.use_bias) y = nn::bias_add(y, bias_);
  return options_.activation(y);
}

Activation::Activation(activations::Activation activation, LayerArgs args)
    : Layer(std::move(args), "activation"), activation_(std::move(activation)) {
  set_supports_masking(true);
}

Tensor Activation::call(const Tensor& inputs, bool) { return activation_(inputs); }

Flatten::Flatten(LayerArgs args) : Layer(std::move(args), "flatten") {}

Tensor Flatten::call(const Tensor& inputs, bool) {
  const PartialShape s = inputs.partial_shape();
  TFCC_CHECK_ARG(s.rank_known() && s.rank() >= 1, "Flatten needs inputs of rank >= 1, got ",
                 s.to_string());
  if (s.rank() == 1) return expand_dims(inputs, 1);
  int64_t rest = 1;
  bool rest_known = true;
  for (int i = 1; i < s.rank(); ++i) {
    if (s.dim(i) == PartialShape::kUnknown)
      rest_known = false;
    else
      rest = checked_mul(rest, s.dim(i));
  }
  if (rest_known && rest > 0) return reshape(inputs, {-1, rest});
  return reshape(inputs, {inputs.shape()[0], -1});
}

Reshape::Reshape(std::vector<int64_t> target_shape, LayerArgs args)
    : Layer(std::move(args), "reshape"), target_shape_(std::move(target_shape)) {
  int unknown = 0;
  for (int64_t d : target_shape_) {
    TFCC_CHECK_ARG(d >= -1, "Reshape: target_shape dimensions must be positive or -1, got ", d);
    unknown += d == -1;
  }
  TFCC_CHECK_ARG(unknown <= 1,
                 "There must be at most one unknown dimension in output_shape. "
                 "Received: output_shape=",
                 config::repr(target_shape_));
}

Tensor Reshape::call(const Tensor& inputs, bool) {
  std::vector<int64_t> dims = {-1};
  bool has_unknown = false;
  for (int64_t d : target_shape_) has_unknown |= d == -1;
  if (has_unknown) dims[0] = inputs.shape()[0];
  dims.insert(dims.end(), target_shape_.begin(), target_shape_.end());
  return reshape(inputs, dims);
}

Dropout::Dropout(double rate, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "dropout"),
      rate_(rate),
      options_(std::move(options)) {
  set_supports_masking(true);
  TFCC_CHECK_ARG(std::isfinite(rate) && rate >= 0 && rate <= 1,
                 "Invalid value received for argument `rate`. Expected a float value between 0 "
                 "and 1. Received: rate=",
                 rate);
}

Tensor Dropout::call(const Tensor& inputs, bool training) {
  if (!training || rate_ == 0) return inputs;
  if (rate_ == 1) return zeros_like(inputs);
  return nn::dropout(inputs, rate_, options_.seed, options_.noise_shape);
}

const config::LayerSchema& Dense::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Dense>(&Dense::options_)
          .arg("units", &Dense::units_)
          .option("activation", &Options::activation)
          .option("use_bias", &Options::use_bias)
          .option("kernel_initializer", &Options::kernel_initializer)
          .option("bias_initializer", &Options::bias_initializer)
          .option("kernel_regularizer", &Options::kernel_regularizer)
          .option("bias_regularizer", &Options::bias_regularizer)
          .option("activity_regularizer", &Options::activity_regularizer)
          .option("kernel_constraint", &Options::kernel_constraint)
          .option("bias_constraint", &Options::bias_constraint);
  return schema;
}

const config::LayerSchema& Activation::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Activation>(&Activation::args_).arg("activation", &Activation::activation_);
  return schema;
}

const config::LayerSchema& Flatten::config_schema() {
  static const config::LayerSchema schema = config::schema<Flatten>(&Flatten::args_);
  return schema;
}

const config::LayerSchema& Reshape::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Reshape>(&Reshape::args_)
          .arg<config::Ints>("target_shape", &Reshape::target_shape_);
  return schema;
}

const config::LayerSchema& Dropout::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Dropout>(&Dropout::options_)
          .arg("rate", &Dropout::rate_)
          .option<config::NoneIfEmpty>("noise_shape", &Options::noise_shape)
          .option("seed", &Options::seed);
  return schema;
}

}  // namespace tfcc::keras::layers
