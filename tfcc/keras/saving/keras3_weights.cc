// Keras 3's weight layout in HDF5 (saving_lib's H5IOStore): each saveable object is a group
// whose `vars` subgroup holds its own variables as datasets "0", "1", ... (trainable first) and
// carries the object's name as an attribute; a model's layers are under `layers/`, named after
// their class (Keras' _save_container_state), sublayers under their attribute name.
#include <algorithm>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/models/sequential.h"
#include "tfcc/keras/optimizers/loss_scale_optimizer.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/trackables.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::saving {
namespace {

using io::hdf5::Group;
using io::hdf5::ReadGroup;

const Model* as_graph_model(const Layer& layer) {
  const auto* m = dynamic_cast<const Model*>(&layer);
  return m && (m->is_graph_network() || dynamic_cast<const Sequential*>(m)) ? m : nullptr;
}

// Layer.save_own_variables: trainable variables first, then the others, each in creation order.
std::vector<Variable> own_variables(const Layer& layer) {
  std::vector<Variable> out;
  for (bool trainable : {true, false}) {
    for (const auto& [key, v] : layer.own_variables()) {
      if (v.trainable() == trainable) out.push_back(v);
    }
  }
  return out;
}

// Sublayers by attribute name, sorted as Keras walks them (public names first, then by name).
std::vector<std::pair<std::string, const Layer*>> sublayers(const Layer& layer) {
  std::vector<std::pair<std::string, const Layer*>> out;
  for (const auto& [key, child] : layer.children()) {
    if (const auto* l = dynamic_cast<const Layer*>(child.get())) out.emplace_back(key, l);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.starts_with("_"), a.first) <
           std::pair(b.first.starts_with("_"), b.first);
  });
  return out;
}

// The paths of a model's layers under `layers/`: snake_case class names, repeats numbered.
std::vector<std::pair<std::string, std::shared_ptr<Layer>>> layer_paths(const Model& model) {
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> out;
  std::map<std::string, int> used;
  for (const auto& l : keras_layers(model)) {
    std::string name = keras_snake_case(l->class_name());
    auto [it, fresh] = used.try_emplace(name, 0);
    if (!fresh) name.append("_").append(std::to_string(++it->second));
    out.emplace_back(name, l);
  }
  return out;
}

void save_state(const Layer& layer, Group group) {
  Group vars = group.create_group("vars");
  vars.set_string_attribute("name", layer.name());
  const std::vector<Variable> own = own_variables(layer);
  for (size_t i = 0; i < own.size(); ++i) vars.write(std::to_string(i), own[i].read_value());
  if (const Model* m = as_graph_model(layer)) {
    Group layers = group.create_group("layers");
    for (const auto& [path, l] : layer_paths(*m)) save_state(*l, layers.create_group(path));
    return;
  }
  for (const auto& [key, child] : sublayers(layer)) save_state(*child, group.create_group(key));
}

void load_state(const Layer& layer, const ReadGroup& group, const std::string& source) {
  const std::vector<Variable> own = own_variables(layer);
  if (own.empty() && !group.has_group("vars")) return;  // nothing to load
  const ReadGroup vars = group.group("vars");
  size_t stored = 0;
  while (vars.has_dataset(std::to_string(stored))) ++stored;
  TFCC_CHECK_ARG(stored == own.size() && vars.children().size() == own.size(), source, ": layer '",
                 layer.name(), "' (", layer.class_name(), ") expected ", own.size(),
                 " variables, but ", vars.path(), " holds ", vars.children().size());
  for (size_t i = 0; i < own.size(); ++i) {
    Tensor value = vars.read(std::to_string(i));
    const Variable& v = own[i];
    TFCC_CHECK_ARG(value.dtype() == v.dtype() && value.shape() == v.shape(), source, ": ",
                   vars.path(), "/", i, " is ", dtype_name(value.dtype()),
                   value.shape().to_string(), " but variable '", v.name(), "' of layer '",
                   layer.name(), "' is ", dtype_name(v.dtype()), v.shape().to_string());
    v.assign(value);
  }
  if (const Model* m = as_graph_model(layer)) {
    const ReadGroup layers = group.group("layers");
    for (const auto& [path, l] : layer_paths(*m)) load_state(*l, layers.group(path), source);
    return;
  }
  for (const auto& [key, child] : sublayers(layer)) load_state(*child, group.group(key), source);
}

// Keras 3's optimizer.variables: iterations (int64), learning_rate (float32; none with a
// schedule), then the EMA averages, gradient accumulators and slots (tfcc creates them in the
// same order). A null entry stands for the learning rate, which the config restores.
std::vector<Variable> keras_optimizer_variables(const optimizers::Optimizer& opt) {
  std::vector<Variable> all = opt.variables();  // iterations, then the rest
  std::vector<Variable> out{all[0]};
  if (opt.learning_rate_variable().defined()) out.emplace_back();
  out.insert(out.end(), all.begin() + 1, all.end());
  return out;
}

void save_optimizer_vars(const optimizers::Optimizer& opt, Group group) {
  Group vars = group.create_group("vars");
  vars.set_string_attribute("name", opt.name());
  std::vector<Variable> all = keras_optimizer_variables(opt);
  for (size_t i = 0; i < all.size(); ++i) {
    const Variable& v = all[i].defined() ? all[i] : opt.learning_rate_variable();
    vars.write(std::to_string(i), v.read_value());
  }
}

// Keras 3 writes a LossScaleOptimizer's variables (its own, then the inner optimizer's) under
// optimizer/vars and the inner optimizer's again under optimizer/inner_optimizer/vars, which is
// where Keras loads the inner optimizer from.
void save_optimizer(optimizers::Optimizer& opt, Group root) {
  Group group = root.create_group("optimizer");
  save_optimizer_vars(opt, group);
  if (const auto* scaled = dynamic_cast<const optimizers::LossScaleOptimizer*>(&opt)) {
    save_optimizer_vars(*scaled->inner_optimizer(), group.create_group("inner_optimizer"));
  }
}

void load_optimizer(Model& model, const ReadGroup& root, const std::string& source) {
  if (!model.compiled() || !model.optimizer() || !root.has_group("optimizer/vars")) return;
  const ReadGroup vars = root.group("optimizer/vars");
  const size_t stored = vars.children().size();
  optimizers::Optimizer& opt = *model.optimizer();
  // Slots were saved (more than iterations and the learning rate): create them to fill them.
  if (stored > keras_optimizer_variables(opt).size()) prepare_for_restore(model);
  std::vector<Variable> all = keras_optimizer_variables(opt);
  if (stored != all.size()) {
    TFCC_LOG(WARNING) << source << ": skipping the optimizer's state: the file holds " << stored
                      << " variables, optimizer '" << opt.name() << "' has " << all.size();
    return;
  }
  for (size_t i = 0; i < stored; ++i) {
    if (!all[i].defined()) continue;  // the learning rate comes from the config
    const Variable& v = all[i];
    Tensor value = vars.read(std::to_string(i));
    TFCC_CHECK_ARG(value.shape() == v.shape() && value.dtype() == v.dtype(), source, ": ",
                   vars.path(), "/", i, " does not match the optimizer's variable ", v.name());
    v.assign(value);
  }
}

}  // namespace

std::string keras_snake_case(const std::string& class_name) {
  static const std::regex non_word(R"(\W+)");
  static const std::regex word("(.)([A-Z][a-z]+)");
  static const std::regex boundary("([a-z])([A-Z])");
  std::string s = std::regex_replace(class_name, non_word, "");
  s = std::regex_replace(s, word, "$1_$2");
  s = std::regex_replace(s, boundary, "$1_$2");
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<std::shared_ptr<Layer>> keras_layers(const Model& model) {
  if (dynamic_cast<const Sequential*>(&model) || !model.is_graph_network()) return model.layers();
  // Keras' map_graph: nodes in post-order from the outputs (a layer's index is its first
  // visit), depths propagated from the outputs, layers by decreasing depth then index.
  std::vector<const Node*> post;
  std::set<const Node*> finished;
  std::map<const Layer*, int> index;
  std::map<const Layer*, std::shared_ptr<Layer>> handle;
  std::function<void(const KerasTensor&)> visit = [&](const KerasTensor& t) {
    const Node* n = t.node().get();
    if (finished.count(n)) return;
    index.try_emplace(n->layer.get(), static_cast<int>(index.size()));
    handle[n->layer.get()] = n->layer;
    for (const auto& in : n->inputs) visit(in);
    finished.insert(n);
    post.push_back(n);
  };
  for (const auto& out : model.outputs()) visit(out);
  std::map<const Node*, int> node_depth;
  std::map<const Layer*, int> layer_depth;
  for (auto it = post.rbegin(); it != post.rend(); ++it) {
    const Node* n = *it;
    int depth = std::max(node_depth[n], layer_depth[n->layer.get()]);
    layer_depth[n->layer.get()] = depth;
    node_depth[n] = depth;
    for (const auto& in : n->inputs) {
      int& d = node_depth[in.node().get()];
      d = std::max(d, depth + 1);
    }
  }
  for (const auto& in : model.inputs()) {  // inputs the outputs do not depend on
    const Layer* l = in.node()->layer.get();
    if (layer_depth.count(l)) continue;
    layer_depth[l] = 0;
    index[l] = -1;
    handle[l] = in.node()->layer;
  }
  std::vector<const Layer*> order;
  for (const auto& [l, d] : layer_depth) order.push_back(l);
  std::sort(order.begin(), order.end(), [&](const Layer* a, const Layer* b) {
    return std::pair(-layer_depth[a], index[a]) < std::pair(-layer_depth[b], index[b]);
  });
  std::vector<std::shared_ptr<Layer>> out;
  for (const Layer* l : order) out.push_back(handle[l]);
  return out;
}

void save_keras3_weights(const Model& model, Group root) {
  TFCC_CHECK_ARG(model.built(), "Unable to save the weights of model '", model.name(),
                 "': it has not yet been built");
  save_state(model, root);
  if (model.compiled() && model.optimizer()) save_optimizer(*model.optimizer(), root);
}

void load_keras3_weights(Model& model, const ReadGroup& root, bool load_opt) {
  TFCC_CHECK_ARG(model.built(), "Unable to load weights into model '", model.name(),
                 "': it has not yet been built. Build it first by calling it on a batch of data, "
                 "or give its first layer an `input_shape`.");
  load_state(model, root, root.source());
  if (load_opt) load_optimizer(model, root, root.source());
}

}  // namespace tfcc::keras::saving
