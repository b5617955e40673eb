#include "tfcc/keras/engine/keras_tensor.h"

#include "tfcc/keras/engine/backend.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc::keras {

std::string KerasTensor::to_string() const {
  return internal::str_cat("KerasTensor(shape=", shape().to_string(),
                           ", dtype=", dtype_name(dtype()), ", created by layer '",
                           node_->layer->name(), "')");
}

InputLayer::InputLayer(std::vector<int64_t> input_shape, Options options)
    : Layer({.name =
                 options.name.empty() ? backend::unique_object_name("input", false) : options.name,
             .trainable = true,
             .input_shape = {},
             .dtype = options.dtype},
            "") {
  std::vector<int64_t> dims = {options.batch_size.value_or(PartialShape::kUnknown)};
  for (int64_t d : input_shape) {
    TFCC_CHECK_ARG(d >= -1, "Input shape dimensions must be non-negative or -1 (None), got ", d);
    dims.push_back(d);
  }
  batch_shape_ = PartialShape(dims);
}

Tensor InputLayer::call(const Tensor& inputs, bool) {
  TFCC_CHECK_ARG(batch_shape_.is_compatible_with(inputs.partial_shape()), "Input '", name(),
                 "' expects shape ", batch_shape_.to_string(), ", but received input with shape ",
                 inputs.partial_shape().to_string());
  return inputs;
}

Config InputLayer::get_config() const {
  Config c = {{"batch_input_shape", config::repr(batch_shape_.dims())},
              {"dtype", config::repr(std::string(dtype_name(dtype())))},
              {"sparse", "False"},
              {"ragged", "False"},
              {"name", config::repr(name())}};
  return c;
}

std::shared_ptr<Layer> InputLayer::from_config(const saving::Json& c) {
  std::vector<int64_t> shape =
      saving::int_list(c.at("batch_input_shape", "InputLayer config"), "batch_input_shape");
  TFCC_CHECK_ARG(!shape.empty(), "InputLayer config: batch_input_shape is empty");
  const LayerArgs args = saving::layer_args_from_config(c);
  std::optional<int64_t> batch;
  if (shape[0] >= 0) batch = shape[0];
  return std::make_shared<InputLayer>(std::vector<int64_t>(shape.begin() + 1, shape.end()),
                                      Options{args.name, batch, args.dtype});
}

KerasTensor Input(std::vector<int64_t> shape, InputOptions options) {
  return input_tensor_of(std::make_shared<InputLayer>(
      std::move(shape), InputLayer::Options{options.name, options.batch_size, options.dtype}));
}

KerasTensor input_tensor_of(const std::shared_ptr<InputLayer>& layer) {
  auto node = std::make_shared<Node>();
  node->layer = layer;
  node->output_shapes = {layer->batch_shape()};
  node->output_dtypes = {layer->dtype()};
  node->node_index = layer->add_inbound_node();
  layer->set_output_shapes(node->output_shapes);
  return KerasTensor(node, 0);
}

KerasTensors call_symbolic(const std::shared_ptr<Layer>& layer, const KerasTensors& inputs) {
  TFCC_CHECK_ARG(!inputs.empty(), "Layer '", layer->name(), "' was called on an empty list");
  // Placeholder batch: unknown dimensions become 1; the outputs' first dimension becomes None
  // again when the inputs' was unknown.
  Tensors placeholders, masks;
  bool batch_unknown = false;
  // Placeholder masks: all steps valid.
  auto placeholder = [&](std::vector<int64_t> dims, DType dtype, bool mask) {
    if (!dims.empty() && dims[0] == PartialShape::kUnknown) batch_unknown = true;
    for (auto& d : dims) d = d == PartialShape::kUnknown ? 1 : d;
    return mask ? cast(ones(dims), bool_) : zeros(dims, dtype);
  };
  for (const auto& kt : inputs) {
    const PartialShape& s = kt.shape();
    TFCC_CHECK_ARG(s.rank_known(), "Layer '", layer->name(), "' needs inputs of known rank");
    placeholders.push_back(placeholder(s.dims(), kt.dtype(), false));
    const auto mask_shape = kt.mask_shape();
    masks.push_back(mask_shape && mask_shape->rank_known()
                        ? placeholder(mask_shape->dims(), bool_, true)
                        : Tensor());
  }
  MaskedTensors outputs = layer->call_masked(placeholders, masks, {.training = false});
  auto node = std::make_shared<Node>();
  node->layer = layer;
  node->inputs = inputs;
  node->node_index = layer->add_inbound_node();
  auto symbolic_shape = [&](const Tensor& t) {
    std::vector<int64_t> dims = t.shape().dims();
    if (batch_unknown && !dims.empty()) dims[0] = PartialShape::kUnknown;
    return PartialShape(dims);
  };
  for (size_t i = 0; i < outputs.values.size(); ++i) {
    const Tensor& o = outputs.values[i];
    node->output_shapes.push_back(symbolic_shape(o));
    node->output_dtypes.push_back(o.dtype());
    const Tensor& m = i < outputs.masks.size() ? outputs.masks[i] : Tensor();
    node->output_mask_shapes.push_back(m.defined() ? std::optional(symbolic_shape(m))
                                                   : std::nullopt);
  }
  layer->set_output_shapes(node->output_shapes);
  KerasTensors result;
  for (size_t i = 0; i < outputs.values.size(); ++i) result.emplace_back(node, static_cast<int>(i));
  return result;
}

}  // namespace tfcc::keras
