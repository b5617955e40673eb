#include "tfcc/keras/layers/merging.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::layers {
namespace {
void check_merge_inputs(const Layer& layer, const Tensors& inputs) {
  TFCC_CHECK_ARG(inputs.size() >= 2,
                 "A merge layer should be called on a list of at least 2 "
                 "inputs. Got ",
                 inputs.size(), " inputs (layer '", layer.name(), "')");
}
}  // namespace

Add::Add(LayerArgs args) : Layer(std::move(args), "add") { set_supports_masking(true); }

Tensors Add::call_n(const Tensors& inputs, bool) {
  check_merge_inputs(*this, inputs);
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = add(out, inputs[i]);
  return {out};
}

Multiply::Multiply(LayerArgs args) : Layer(std::move(args), "multiply") {
  set_supports_masking(true);
}

Tensors Multiply::call_n(const Tensors& inputs, bool) {
  check_merge_inputs(*this, inputs);
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = multiply(out, inputs[i]);
  return {out};
}

Concatenate::Concatenate(Options options)
    : Layer({.name = options.name, .trainable = options.trainable}, "concatenate"),
      options_(std::move(options)) {
  set_supports_masking(true);
}

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

namespace {
// Keras' base merge compute_mask: the and of the masks given; none when no input has one.
Tensors and_of_masks(const Tensors& masks) {
  Tensor out;
  for (const auto& m : masks) {
    if (m.defined()) out = out.defined() ? logical_and(out, cast(m, bool_)) : cast(m, bool_);
  }
  return {out};
}
}  // namespace

Tensors Add::compute_mask(const Tensors&, const Tensors& masks) const {
  return and_of_masks(masks);
}

Tensors Multiply::compute_mask(const Tensors&, const Tensors& masks) const {
  return and_of_masks(masks);
}

Tensors Concatenate::compute_mask(const Tensors& inputs, const Tensors& masks) const {
  bool any = false;
  for (const auto& m : masks) any = any || m.defined();
  if (!any) return {Tensor()};
  Tensors full;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor m = i < masks.size() ? masks[i] : Tensor();
    if (!m.defined()) {
      full.push_back(cast(ones_like(inputs[i]), bool_));
    } else if (m.rank() < inputs[i].rank()) {
      full.push_back(
          logical_and(expand_dims(cast(m, bool_), -1), cast(ones_like(inputs[i]), bool_)));
    } else {
      full.push_back(cast(m, bool_));
    }
  }
  return {reduce_any(concat(full, options_.axis), {-1})};
}

}  // namespace tfcc::keras::layers
