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

Merge::Merge(LayerArgs args, std::string default_name)
    : Layer(std::move(args), std::move(default_name)) {
  set_supports_masking(true);
}

Tensors Merge::call_n(const Tensors& inputs, bool) {
  if (exact_inputs() != 0) {
    TFCC_CHECK_ARG(inputs.size() == exact_inputs(), "A `", class_name(),
                   "` layer should be called on exactly ", exact_inputs(),
                   " inputs. Received: ", inputs.size(), " inputs (layer '", name(), "')");
  } else {
    check_merge_inputs(*this, inputs);
  }
  return {merge(inputs)};
}

Tensors Merge::compute_mask(const Tensors& inputs, const Tensors& masks) const {
  if (masks.size() < inputs.size()) return {Tensor()};
  Tensor out;
  for (const auto& m : masks) {
    if (!m.defined()) return {Tensor()};
    out = out.defined() ? logical_or(out, cast(m, bool_)) : cast(m, bool_);
  }
  return {out};
}

Tensor Merge::step_mask(const Tensor& mask, const Tensor& x) {
  const Tensor m = cast(mask, bool_);
  return m.rank() < x.rank() ? expand_dims(m, -1) : m;
}

Tensor Merge::fold_masked(const Tensors& inputs,
                          const std::function<Tensor(const Tensor&, const Tensor&)>& op) const {
  Tensor out = inputs[0];
  Tensor out_valid = input_mask(0).defined() ? step_mask(input_mask(0), out) : Tensor();
  for (size_t i = 1; i < inputs.size(); ++i) {
    Tensor x = inputs[i];
    const Tensor valid = input_mask(i).defined() ? step_mask(input_mask(i), x) : Tensor();
    if (valid.defined()) x = where(valid, x, out);
    if (out_valid.defined()) out = where(out_valid, out, x);
    out_valid = valid.defined() && out_valid.defined() ? logical_or(out_valid, valid) : Tensor();
    out = op(out, x);
  }
  return out;
}

Add::Add(LayerArgs args) : Merge(std::move(args), "add") {}

Tensor Add::merge(const Tensors& inputs) {
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = add(out, inputs[i]);
  return out;
}

Multiply::Multiply(LayerArgs args) : Merge(std::move(args), "multiply") {}

Tensor Multiply::merge(const Tensors& inputs) {
  // Keras 3: a masked factor counts as 1; when every input has a mask, the steps masked in all
  // of them are zero.
  Tensor out, any_valid;
  bool all_masked = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor x = inputs[i];
    const Tensor m = input_mask(i);
    if (m.defined()) {
      const Tensor valid = step_mask(m, x);
      x = where(valid, x, 1.0);
      any_valid = any_valid.defined() ? logical_or(any_valid, valid) : valid;
    } else {
      all_masked = false;
    }
    out = out.defined() ? multiply(out, x) : x;
  }
  return all_masked && any_valid.defined() ? where(any_valid, out, 0.0) : out;
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
