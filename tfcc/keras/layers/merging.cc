#include "tfcc/keras/layers/merging.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"

namespace tfcc::keras::layers {
namespace {
void check_merge_inputs(const Layer& layer, const Tensors& inputs) {
  TFCC_CHECK_ARG(inputs.size() >= 2,
                 "A merge layer should be called on a list of at least 2 "
                 "inputs. Got ",
                 inputs.size(), " inputs (layer '", layer.name(), "')");
}
}  // namespace

Add::Add(LayerArgs args) : Layer(std::move(args), "add") {}

Tensors Add::call_n(const Tensors& inputs, bool) {
  check_merge_inputs(*this, inputs);
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = add(out, inputs[i]);
  return {out};
}

Multiply::Multiply(LayerArgs args) : Layer(std::move(args), "multiply") {}

Tensors Multiply::call_n(const Tensors& inputs, bool) {
  check_merge_inputs(*this, inputs);
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = multiply(out, inputs[i]);
  return {out};
}

Concatenate::Concatenate(Options options)
    : Layer({.name = options.name, .trainable = options.trainable}, "concatenate"),
      options_(std::move(options)) {}

Tensors Concatenate::call_n(const Tensors& inputs, bool) {
  check_merge_inputs(*this, inputs);
  return {concat(inputs, options_.axis)};
}

const config::LayerSchema& Add::config_schema() {
  static const config::LayerSchema schema = config::schema<Add>(&Add::args_);
  return schema;
}

const config::LayerSchema& Multiply::config_schema() {
  static const config::LayerSchema schema = config::schema<Multiply>(&Multiply::args_);
  return schema;
}

const config::LayerSchema& Concatenate::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Concatenate>(&Concatenate::options_).option("axis", &Options::axis);
  return schema;
}

}  // namespace tfcc::keras::layers
