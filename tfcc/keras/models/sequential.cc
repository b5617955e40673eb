#include "tfcc/keras/models/sequential.h"

namespace tfcc::keras {

Sequential::Sequential(std::vector<LayerPtr> layers, ModelArgs args) : Model(std::move(args)) {
  ensure_name();
  for (auto& l : layers) add(std::move(l));
}

void Sequential::add(LayerPtr layer) {
  TFCC_CHECK_ARG(layer != nullptr, "Sequential '", name(), "': cannot add a null layer");
  if (auto input = std::dynamic_pointer_cast<InputLayer>(layer)) {
    TFCC_CHECK_ARG(layers_.empty() && !input_layer_, "Sequential '", name(),
                   "': an InputLayer can only be the first layer");
    input_layer_ = input;
    input_ = input_tensor_of(input);
    output_ = input_;
    return;
  }
  for (const auto& l : layers_) {
    TFCC_CHECK_ARG(l.get() != layer.get(), "Sequential '", name(), "': layer '", layer->name(),
                   "' was already added");
  }
  layers_.push_back(layer);
  track_layer(std::shared_ptr<Layer>(layer));
  if (!output_ && layers_.size() == 1 && layer->declared_input_shape()) {
    const auto& dims = layer->declared_input_shape()->dims();
    input_ = Input(std::vector<int64_t>(dims.begin() + 1, dims.end()), {.dtype = layer->dtype()});
    output_ = input_;
  }
  if (output_) {
    KerasTensors out = call_symbolic(layer, {*output_});
    TFCC_CHECK_ARG(out.size() == 1,
                   "All layers in a Sequential model should have a single output "
                   "tensor. For multi-output layers, use the functional API. (layer '",
                   layer->name(), "')");
    output_ = out[0];
    init_graph({*input_}, {*output_}, false);
  }
}

void Sequential::pop() {
  TFCC_CHECK_ARG(!layers_.empty(), "There are no layers in the model.");
  auto remaining = layers_;
  remaining.pop_back();
  layers_.clear();
  clear_tracking();
  if (input_) output_ = input_;
  for (auto& l : remaining) {
    layers_.push_back(l);
    track_layer(l);
    if (output_) output_ = call_symbolic(l, {*output_})[0];
  }
  if (output_ && !layers_.empty()) init_graph({*input_}, {*output_}, false);
}

void Sequential::build_for(std::vector<int64_t> input_shape) {
  if (is_graph_network()) return;
  TFCC_CHECK_ARG(!input_shape.empty(), "Sequential '", name(),
                 "': build needs an input shape with a batch dimension");
  TFCC_CHECK_ARG(!layers_.empty(), "Sequential '", name(), "' has no layers to build");
  input_ = Input(
      std::vector<int64_t>(input_shape.begin() + 1, input_shape.end()),
      {.batch_size = input_shape[0] < 0 ? std::nullopt : std::optional<int64_t>(input_shape[0]),
       .dtype = layers_.front()->dtype()});
  output_ = input_;
  for (auto& l : layers_) output_ = call_symbolic(l, {*output_})[0];
  init_graph({*input_}, {*output_}, false);
}

std::vector<std::shared_ptr<Layer>> Sequential::layers() const { return layers_; }

Tensors Sequential::call_n(const Tensors& inputs, bool training) {
  return call_n_masked(inputs, input_masks(), training).values;
}

MaskedTensors Sequential::call_n_masked(const Tensors& inputs, const Tensors& masks,
                                        bool training) {
  TFCC_CHECK_ARG(inputs.size() == 1, "Sequential '", name(), "' expects 1 input, got ",
                 inputs.size());
  TFCC_CHECK_ARG(!layers_.empty(), "Sequential '", name(), "' has no layers");
  if (!is_graph_network()) {
    // First call without a declared input shape: infer every layer's output shape once so that
    // summary() works, with the batch dimension left unknown.
    std::vector<int64_t> dims = inputs[0].shape().dims();
    if (!dims.empty()) dims[0] = -1;
    build_for(dims);
  }
  Tensor x = inputs[0];
  Tensor mask = masks.empty() ? Tensor() : masks[0];
  if (input_layer_) x = (*input_layer_)(x, {training});
  // Each layer's output mask goes to the next layer (Keras' _keras_mask).
  for (const auto& l : layers_) {
    MaskedTensors out = l->call_masked({x}, {mask}, {training});
    x = out.values.at(0);
    mask = out.masks.at(0);
  }
  return {{x}, {mask}};
}

}  // namespace tfcc::keras
