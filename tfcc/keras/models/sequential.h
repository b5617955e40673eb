// keras::Sequential: a plain stack of layers, each with one input and one output.
//
//   keras::Sequential model({
//       layers::Dense(64, {.activation = "relu", .input_shape = {784}}),
//       layers::Dropout(0.1),
//       layers::Dense(10),
//   });
//   model.summary();
//   auto logits = model(x, {.training = true});
//
// With an input_shape on the first layer (or an InputLayer first) the model is built at once, so
// summary() works before any data is seen; otherwise it builds on its first call. Layers are taken
// by value (moved into shared_ptrs) or as shared_ptrs the caller keeps.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <type_traits>
#include <vector>

#include "tfcc/keras/models/model.h"

namespace tfcc::keras {

/// A layer handle that Sequential accepts: a layer temporary (moved into a new shared_ptr) or a
/// std::shared_ptr to a layer.
class LayerPtr : public std::shared_ptr<Layer> {
 public:
  template <typename L>
  requires(std::is_base_of_v<Layer, std::decay_t<L>> && !std::is_lvalue_reference_v<L>)
      LayerPtr(L&& layer)  // NOLINT: implicit by design
      : std::shared_ptr<Layer>(std::make_shared<std::decay_t<L>>(std::move(layer))) {}
  template <typename L>
  requires std::is_base_of_v<Layer, L> LayerPtr(std::shared_ptr<L> layer)  // NOLINT
      : std::shared_ptr<Layer>(std::move(layer)) {}
};

/// A linear stack of layers.
class Sequential : public Model {
  TFCC_KERAS_LAYER(Sequential)
 public:
  explicit Sequential(std::vector<LayerPtr> layers = {}, ModelArgs args = {});
  /// Appends a layer (building it at once when the model's input shape is known).
  void add(LayerPtr layer);
  /// Removes the last layer.
  void pop();
  /// Builds the model for inputs of `input_shape` (batch dimension included; -1 for None).
  void build_for(std::vector<int64_t> input_shape);
  /// The layers as added (an InputLayer given first is not listed, as Keras).
  std::vector<std::shared_ptr<Layer>> layers() const override;

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
  MaskedTensors call_n_masked(const Tensors& inputs, const Tensors& masks, bool training) override;
  bool sequential_like() const override { return true; }

 private:
  void rebuild_graph();
  std::shared_ptr<InputLayer> input_layer_;
  std::vector<std::shared_ptr<Layer>> layers_;
  std::optional<KerasTensor> input_, output_;
};

}  // namespace tfcc::keras
#pragma GCC visibility pop
