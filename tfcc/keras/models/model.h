// keras::Model: a layer made of layers, with summary() and (training.h) compile / fit / evaluate /
// predict. Three ways to make one, as in Keras:
//
//   // Functional: layers called on keras::Input.
//   auto inputs = keras::Input({784});
//   auto x = layers::Dense(64, {.activation = "relu"})(inputs);
//   keras::Model model(inputs, layers::Dense(10)(x));
//
//   // Subclassed: override call().
//   class MyModel : public keras::Model {
//    public:
//     MyModel() {
//       dense1_ = track_layer(std::make_shared<layers::Dense>(64, layers::Dense::Options{
//                                                                  .activation = "relu"}));
//       dense2_ = track_layer(std::make_shared<layers::Dense>(10));
//     }
//    protected:
//     tfcc::Tensor call(const tfcc::Tensor& x, bool training) override {
//       return (*dense2_)((*dense1_)(x, {training}), {training});
//     }
//    private:
//     std::shared_ptr<layers::Dense> dense1_, dense2_;
//   };
//
//   // Sequential: see sequential.h.
#pragma once

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras {

/// Arguments of a Model.
struct ModelArgs {
  std::string name;  ///< default "model" (functional), "sequential", or the subclass's snake_case
  bool trainable = true;
};

/// A layer composed of layers.
class Model : public Layer {
  TFCC_KERAS_LAYER(Model)
 public:
  /// A subclassed model: override call() (or call_n()) and track sublayers with track_layer.
  explicit Model(ModelArgs args = {});
  /// A functional model from its inputs to its outputs.
  Model(const KerasTensors& inputs, const KerasTensors& outputs, ModelArgs args = {});
  Model(const KerasTensor& input, const KerasTensor& output, ModelArgs args = {});
  Model(const KerasTensors& inputs, const KerasTensor& output, ModelArgs args = {});

  /// The model's layers: functional models list their InputLayers too, in graph order;
  /// Sequential models list the layers as added; subclassed models their tracked sublayers.
  virtual std::vector<std::shared_ptr<Layer>> layers() const;
  /// The layer called `name`; InvalidArgumentError if there is none.
  std::shared_ptr<Layer> get_layer(const std::string& name) const;
  /// Prints Keras' summary table (layer, output shape, parameter count, totals).
  void summary(std::ostream& os = std::cout) const;
  /// The summary as a string.
  std::string summary_string() const;
  /// True for a functional (or built Sequential) model.
  bool is_graph_network() const { return graph_.has_value(); }
  /// The functional graph's inputs and outputs (empty for subclassed models).
  KerasTensors inputs() const { return graph_ ? graph_->inputs : KerasTensors{}; }
  KerasTensors outputs() const { return graph_ ? graph_->outputs : KerasTensors{}; }

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
  /// Makes this model a graph network (the functional constructor and Sequential use it).
  void init_graph(const KerasTensors& inputs, const KerasTensors& outputs, bool track_layers);
  /// Whether summary() draws the one-chain table (no "Connected to" column).
  virtual bool sequential_like() const;

 private:
  struct Graph {
    KerasTensors inputs, outputs;
    std::vector<std::shared_ptr<Node>> nodes;  // topological order, inputs first
    std::vector<std::shared_ptr<Layer>> layers;
  };
  std::optional<Graph> graph_;
};

}  // namespace tfcc::keras
