#include "tfcc/keras/models/model.h"

#include <algorithm>
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

namespace {

// Keras 3's order of a functional model's layers (keras/src/ops/function.py, map_graph): by
// depth, the longest path to an output, deepest first; layers of equal depth in the order a
// depth-first walk from the outputs first reaches them. Summaries, configs and weight lists of
// models with branches (ResNet's shortcuts) then list the layers as Keras does.
std::vector<std::shared_ptr<Layer>> layers_in_keras_order(const KerasTensors& inputs,
                                                          const KerasTensors& outputs) {
  std::map<const Layer*, size_t> first_reached;
  std::map<const Layer*, std::shared_ptr<Layer>> handles;
  std::vector<const Node*> post_order;  // inputs before the nodes using them
  std::set<const Node*> done;
  std::function<void(const Node*)> walk = [&](const Node* n) {
    if (done.count(n)) return;
    first_reached.emplace(n->layer.get(), first_reached.size());
    handles.emplace(n->layer.get(), n->layer);
    for (const auto& in : n->inputs) walk(in.node().get());
    done.insert(n);
    post_order.push_back(n);
  };
  for (const auto& out : outputs) walk(out.node().get());
  std::map<const Node*, int64_t> node_depth;
  std::map<const Layer*, int64_t> layer_depth;
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    const Node* n = *it;
    int64_t depth = std::max(node_depth[n], layer_depth[n->layer.get()]);
    layer_depth[n->layer.get()] = depth;
    node_depth[n] = depth;
    for (const auto& in : n->inputs) {
      int64_t& parent = node_depth[in.node().get()];
      parent = std::max(parent, depth + 1);
    }
  }
  std::vector<std::pair<std::pair<int64_t, int64_t>, const Layer*>> order;
  for (const auto& [layer, depth] : layer_depth) {
    order.push_back({{-depth, static_cast<int64_t>(first_reached.at(layer))}, layer});
  }
  // An input no output depends on: depth 0, before the other layers of depth 0 (Keras: index -1).
  for (const auto& in : inputs) {
    const Layer* layer = in.node()->layer.get();
    if (layer_depth.count(layer)) continue;
    layer_depth[layer] = 0;
    handles.emplace(layer, in.node()->layer);
    order.push_back({{0, -1}, layer});
  }
  std::sort(order.begin(), order.end());
  std::vector<std::shared_ptr<Layer>> layers;
  for (const auto& entry : order) layers.push_back(handles.at(entry.second));
  return layers;
}

}  // namespace

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
  g.layers = layers_in_keras_order(inputs, outputs);
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
  return call_n_masked(inputs, input_masks(), training).values;
}

MaskedTensors Model::call_n_masked(const Tensors& inputs, const Tensors& masks, bool training) {
  if (!graph_) return Layer::call_n_masked(inputs, masks, training);
  const Graph& g = *graph_;
  TFCC_CHECK_ARG(inputs.size() == g.inputs.size(), "Layer \"", name(), "\" expects ",
                 g.inputs.size(), " input(s), but it received ", inputs.size(), " input tensors");
  // Each value with its Keras mask (undefined: none), as Keras' functional call carries them.
  std::map<std::pair<const Node*, int>, std::pair<Tensor, Tensor>> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& kt = g.inputs[i];
    values[{kt.node().get(), kt.index()}] = {(*kt.node()->layer)(inputs[i], {training}),
                                             i < masks.size() ? masks[i] : Tensor()};
  }
  for (const auto& n : g.nodes) {
    if (n->inputs.empty()) continue;
    Tensors args, arg_masks;
    for (const auto& in : n->inputs) {
      auto it = values.find({in.node().get(), in.index()});
      TFCC_CHECK_ARG(it != values.end(), "Model '", name(), "': no value for an input of layer '",
                     n->layer->name(), "'");
      args.push_back(it->second.first);
      arg_masks.push_back(it->second.second);
    }
    MaskedTensors outs = n->layer->call_masked(args, arg_masks, {training});
    for (size_t i = 0; i < outs.values.size(); ++i) {
      values[{n.get(), static_cast<int>(i)}] = {outs.values[i], outs.masks[i]};
    }
  }
  MaskedTensors result;
  for (const auto& o : g.outputs) {
    const auto& [value, mask] = values.at({o.node().get(), o.index()});
    result.values.push_back(value);
    result.masks.push_back(mask);
  }
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
