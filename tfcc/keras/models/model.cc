#include "tfcc/keras/models/model.h"

#include <functional>
#include <map>
#include <set>

#include "tfcc/keras/engine/backend.h"

namespace tfcc::keras {

Model::Model(ModelArgs args) : Layer({.name = args.name, .trainable = args.trainable}, "") {}

Model::Model(const KerasTensors& inputs, const KerasTensors& outputs, ModelArgs args)
    : Layer({.name = args.name, .trainable = args.trainable}, "model") {
  init_graph(inputs, outputs, true);
}

Model::Model(const KerasTensor& input, const KerasTensor& output, ModelArgs args)
    : Model(KerasTensors{input}, KerasTensors{output}, std::move(args)) {}

Model::Model(const KerasTensors& inputs, const KerasTensor& output, ModelArgs args)
    : Model(inputs, KerasTensors{output}, std::move(args)) {}

void Model::init_graph(const KerasTensors& inputs, const KerasTensors& outputs, bool track_layers) {
  TFCC_CHECK_ARG(!inputs.empty() && !outputs.empty(),
                 "A functional Model needs at least one input and one output");
  std::set<const Node*> input_nodes;
  for (const auto& kt : inputs) {
    TFCC_CHECK_ARG(std::dynamic_pointer_cast<InputLayer>(kt.node()->layer) != nullptr,
                   "Input tensors to a Model must come from `keras::Input`. Received: ",
                   kt.to_string(), " (missing previous layer metadata)");
    input_nodes.insert(kt.node().get());
  }
  Graph g;
  g.inputs = inputs;
  g.outputs = outputs;
  std::set<const Node*> visited;
  std::function<void(const std::shared_ptr<Node>&)> visit = [&](const std::shared_ptr<Node>& n) {
    if (!visited.insert(n.get()).second) return;
    if (n->inputs.empty() && !input_nodes.count(n.get())) {
      throw InvalidArgumentError(
          internal::str_cat("Graph disconnected: cannot obtain value for tensor from layer '",
                            n->layer->name(), "'. It is not among the model's inputs"));
    }
    for (const auto& in : n->inputs) visit(in.node());
    g.nodes.push_back(n);
  };
  for (const auto& in : inputs) visit(in.node());
  for (const auto& out : outputs) visit(out.node());
  std::set<const Layer*> seen_layers;
  for (const auto& n : g.nodes) {
    if (seen_layers.insert(n->layer.get()).second) g.layers.push_back(n->layer);
  }
  if (track_layers) {
    for (const auto& l : g.layers) {
      if (std::dynamic_pointer_cast<InputLayer>(l)) continue;
      track_layer(l);
    }
  }
  std::vector<PartialShape> out_shapes;
  for (const auto& o : outputs) out_shapes.push_back(o.shape());
  set_output_shapes(out_shapes);
  graph_ = std::move(g);
  std::vector<PartialShape> in_shapes;
  for (const auto& i : inputs) in_shapes.push_back(i.shape());
  maybe_build(in_shapes);
}

Tensors Model::call_n(const Tensors& inputs, bool training) {
  if (!graph_) return Layer::call_n(inputs, training);  // subclassed: the user's call()
  const Graph& g = *graph_;
  TFCC_CHECK_ARG(inputs.size() == g.inputs.size(), "Layer \"", name(), "\" expects ",
                 g.inputs.size(), " input(s), but it received ", inputs.size(), " input tensors");
  std::map<std::pair<const Node*, int>, Tensor> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& kt = g.inputs[i];
    values[{kt.node().get(), kt.index()}] = (*kt.node()->layer)(inputs[i], {training});
  }
  for (const auto& n : g.nodes) {
    if (n->inputs.empty()) continue;
    Tensors args;
    for (const auto& in : n->inputs) {
      auto it = values.find({in.node().get(), in.index()});
      TFCC_CHECK_ARG(it != values.end(), "Model '", name(), "': no value for an input of layer '",
                     n->layer->name(), "'");
      args.push_back(it->second);
    }
    Tensors outs = (*n->layer)(args, {training});
    for (size_t i = 0; i < outs.size(); ++i) values[{n.get(), static_cast<int>(i)}] = outs[i];
  }
  Tensors result;
  for (const auto& o : g.outputs) result.push_back(values.at({o.node().get(), o.index()}));
  return result;
}

std::vector<std::shared_ptr<Layer>> Model::layers() const {
  if (graph_) return graph_->layers;
  return sublayers();
}

std::shared_ptr<Layer> Model::get_layer(const std::string& layer_name) const {
  for (const auto& l : layers()) {
    if (l->name() == layer_name) return l;
  }
  throw InvalidArgumentError(
      internal::str_cat("No such layer: ", layer_name, ". Existing layers are: ", [&] {
        std::string names = "[";
        for (const auto& l : layers()) {
          if (names.size() > 1) names.append(", ");
          names.append("'").append(l->name()).append("'");
        }
        return names.append("]");
      }()));
}

bool Model::sequential_like() const {
  if (!graph_) return true;
  // Keras: every node has at most one input and each layer is called once, and no layer feeds
  // two others.
  std::map<const Layer*, int> consumers;
  for (const auto& n : graph_->nodes) {
    if (n->inputs.size() > 1 || n->output_shapes.size() > 1 || n->node_index > 0) return false;
    for (const auto& in : n->inputs) {
      if (++consumers[in.node()->layer.get()] > 1) return false;
    }
  }
  return true;
}

}  // namespace tfcc::keras
