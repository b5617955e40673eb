// Keras 3's config.json: written from tfcc's layer configs (get_config) and the model graph, and
// read by turning it into the Keras 2 form model_from_config rebuilds.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/models/sequential.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/keras/saving/model_saving.h"

namespace tfcc::keras::saving {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// {"module", "class_name", "config", "registered_name": null}: how Keras 3 serializes objects.
Json keras_object(const char* module, const std::string& class_name, Json config) {
  Json out = Json::object();
  out.set("module", Json(module));
  out.set("class_name", Json(class_name));
  out.set("config", std::move(config));
  out.set("registered_name", Json());
  return out;
}

Json dtype_policy(const std::string& name) {
  Json c = Json::object();
  c.set("name", Json(name));
  return keras_object("keras", "DTypePolicy", c);
}

Json shape_json(const std::vector<int64_t>& dims) {
  Json out = Json::array();
  for (int64_t d : dims) out.push(d < 0 ? Json() : Json(d));
  return out;
}

Json layer_entry(const Layer& layer);

// Keys holding a serialized layer: an RNN's cell, a wrapper's layer (Bidirectional's
// backward_layer too).
bool is_nested_layer_key(const std::string& key) {
  return key == "cell" || key == "layer" || key == "backward_layer";
}

// tfcc's config of a layer (Keras 2 spellings) in Keras 3's.
Json keras3_layer_config(const std::string& cls, const Json& config) {
  Json out = Json::object();
  for (const auto& [key, value] : config.members("layer config")) {
    if (key == "dtype" && cls != "InputLayer" && value.type() == Json::Type::kString) {
      out.set(key, dtype_policy(value.as_string()));
    } else if (key == "batch_input_shape") {
      if (cls == "InputLayer") out.set("batch_shape", value);  // others: an InputLayer entry
    } else if (ends_with(key, "_initializer") && value.type() == Json::Type::kString) {
      out.set(key, keras_object("keras.initializers", value.as_string(), Json::object()));
    } else if (ends_with(key, "_regularizer") && value.type() == Json::Type::kObject) {
      out.set(key, keras_object("keras.regularizers",
                                value.at("class_name", "regularizer").as_string("class_name"),
                                value.at("config", "regularizer")));
    } else if (ends_with(key, "_constraint") && value.type() == Json::Type::kObject) {
      out.set(key, keras_object("keras.constraints",
                                value.at("class_name", "constraint").as_string("class_name"),
                                value.at("config", "constraint")));
    } else if (is_nested_layer_key(key) && value.type() == Json::Type::kObject) {
      const std::string& cell_cls = value.at("class_name", "cell").as_string("class_name");
      out.set(key, keras_object("keras.layers", cell_cls,
                                keras3_layer_config(cell_cls, value.at("config", "cell"))));
    } else {
      out.set(key, value);
    }
  }
  return out;
}

// Node indices relative to `model` (a layer may have nodes in other models too), in the order
// the layer was called.
std::map<const Node*, int64_t> relative_node_indices(const Model& model) {
  std::vector<const Node*> nodes;
  std::set<const Node*> seen;
  std::function<void(const Node*)> visit = [&](const Node* n) {
    if (!seen.insert(n).second) return;
    for (const auto& in : n->inputs) visit(in.node().get());
    nodes.push_back(n);
  };
  for (const auto& in : model.inputs()) visit(in.node().get());
  for (const auto& out : model.outputs()) visit(out.node().get());
  std::map<const Layer*, std::vector<const Node*>> by_layer;
  for (const Node* n : nodes) by_layer[n->layer.get()].push_back(n);
  std::map<const Node*, int64_t> rel;
  for (auto& [layer, list] : by_layer) {
    std::sort(list.begin(), list.end(),
              [](const Node* a, const Node* b) { return a->node_index < b->node_index; });
    for (size_t i = 0; i < list.size(); ++i) rel[list[i]] = static_cast<int64_t>(i);
  }
  return rel;
}

Json functional_config(const Model& model) {
  const std::map<const Node*, int64_t> rel = relative_node_indices(model);
  auto history = [&](const KerasTensor& t) {
    Json h = Json::array();
    h.push(Json(t.node()->layer->name()));
    h.push(Json(rel.at(t.node().get())));
    h.push(Json(int64_t{t.index()}));
    return h;
  };
  auto keras_tensor = [&](const KerasTensor& t) {
    Json c = Json::object();
    c.set("shape", shape_json(t.shape().rank_known() ? t.shape().dims() : std::vector<int64_t>{}));
    c.set("dtype", Json(std::string(dtype_name(t.dtype()))));
    c.set("keras_history", history(t));
    Json out = Json::object();
    out.set("class_name", Json("__keras_tensor__"));
    out.set("config", c);
    return out;
  };
  std::map<const Layer*, std::vector<const Node*>> calls;
  for (const auto& [node, index] : rel) calls[node->layer.get()].push_back(node);
  Json layers = Json::array();
  for (const auto& l : keras_layers(model)) {
    Json entry = layer_entry(*l);
    entry.set("name", Json(l->name()));
    Json inbound = Json::array();
    auto& nodes = calls[l.get()];
    std::sort(nodes.begin(), nodes.end(),
              [&](const Node* a, const Node* b) { return rel.at(a) < rel.at(b); });
    for (const Node* n : nodes) {
      if (n->inputs.empty()) continue;  // an InputLayer's own node
      Json args = Json::array();
      Json kwargs = Json::object();
      if (n->inputs.size() == 1) {
        args.push(keras_tensor(n->inputs[0]));
      } else if (l->class_name() == "MultiHeadAttention") {
        // call(query, value, key=None, attention_mask=None): positional, the mask by keyword.
        for (size_t i = 0; i < n->inputs.size() && i < 3; ++i) {
          args.push(keras_tensor(n->inputs[i]));
        }
        if (n->inputs.size() > 3) kwargs.set("attention_mask", keras_tensor(n->inputs[3]));
      } else {
        Json list = Json::array();
        for (const auto& in : n->inputs) list.push(keras_tensor(in));
        args.push(list);
      }
      Json call = Json::object();
      call.set("args", args);
      call.set("kwargs", kwargs);
      inbound.push(call);
    }
    entry.set("inbound_nodes", inbound);
    layers.push(entry);
  }
  // One input / output is written bare (["dense", 0, 0]), as Keras does.
  auto refs = [&](const KerasTensors& tensors) {
    if (tensors.size() == 1) return history(tensors[0]);
    Json out = Json::array();
    for (const auto& t : tensors) out.push(history(t));
    return out;
  };
  Json config = Json::object();
  config.set("name", Json(model.name()));
  config.set("trainable", Json(model.trainable()));
  config.set("layers", layers);
  config.set("input_layers", refs(model.inputs()));
  config.set("output_layers", refs(model.outputs()));
  return config;
}

Json sequential_config(const Sequential& seq, Json& build_shape) {
  Json layers = Json::array();
  if (seq.is_graph_network() && !seq.inputs().empty()) {
    const KerasTensor input = seq.inputs()[0];
    layers.push(layer_entry(*input.node()->layer));
    build_shape = shape_json(input.shape().dims());
  } else if (!seq.layers().empty() && seq.layers()[0]->declared_input_shape()) {
    const Layer& first = *seq.layers()[0];
    Json c = Json::object();
    build_shape = shape_json(first.declared_input_shape()->dims());
    c.set("batch_shape", build_shape);
    c.set("dtype", Json(std::string(dtype_name(first.dtype()))));
    c.set("sparse", Json(false));
    c.set("name", Json(first.name() + "_input"));
    layers.push(keras_object("keras.layers", "InputLayer", c));
  }
  for (const auto& l : seq.layers()) layers.push(layer_entry(*l));
  Json config = Json::object();
  config.set("name", Json(seq.name()));
  config.set("trainable", Json(seq.trainable()));
  config.set("dtype", dtype_policy(std::string(dtype_name(seq.dtype()))));
  config.set("layers", layers);
  if (!build_shape.is_null()) config.set("build_input_shape", build_shape);
  return config;
}

// A model as a serialized object (top level, or nested as a layer).
Json model_entry(const Model& model) {
  Json out;
  Json build_shape;
  if (const auto* seq = dynamic_cast<const Sequential*>(&model)) {
    out = keras_object("keras", "Sequential", sequential_config(*seq, build_shape));
  } else if (model.is_graph_network()) {
    out = keras_object("keras.src.models.functional", "Functional", functional_config(model));
    out.set("registered_name", Json("Functional"));
  } else {
    out = keras_object("keras.layers", model.class_name(),
                       keras3_layer_config(model.class_name(), layer_config(model)));
    out.set("registered_name", Json(model.class_name()));
  }
  Json build = Json::object();
  build.set("input_shape", build_shape);
  out.set("build_config", build);
  return out;
}

Json layer_entry(const Layer& layer) {
  if (const auto* m = dynamic_cast<const Model*>(&layer)) return model_entry(*m);
  return keras_object("keras.layers", layer.class_name(),
                      keras3_layer_config(layer.class_name(), layer_config(layer)));
}

// ---- reading -----------------------------------------------------------------------------

Json layer_config_from_keras3(const std::string& cls, const Json& config);

// A serialized layer or model (Keras 3) as {"class_name", "config"} (+ name, inbound_nodes).
Json entry_from_keras3(const Json& entry) {
  const std::string& cls = entry.at("class_name", "layer").as_string("class_name");
  Json out = Json::object();
  if (cls == "Sequential" || cls == "Functional" || cls == "Model") {
    out = config_from_keras3(entry);
  } else {
    out.set("class_name", Json(cls));
    out.set("config", layer_config_from_keras3(cls, entry.at("config", "layer " + cls)));
  }
  if (const Json* name = entry.find("name")) out.set("name", *name);
  if (const Json* nodes = entry.find("inbound_nodes")) {
    // Each call's Keras tensors, in order: [[layer, node, tensor, {}], ...].
    Json calls = Json::array();
    for (const Json& node : nodes->items("inbound_nodes")) {
      Json refs = Json::array();
      std::function<void(const Json&)> collect = [&](const Json& v) {
        if (v.type() == Json::Type::kArray) {
          for (const Json& x : v.items()) collect(x);
        } else if (v.type() == Json::Type::kObject) {
          const Json* c = v.find("class_name");
          if (c && c->type() == Json::Type::kString && c->as_string() == "__keras_tensor__") {
            Json ref = Json::array();
            for (const Json& h : v.at("config", "keras tensor")
                                     .at("keras_history", "keras tensor")
                                     .items("keras_history")) {
              ref.push(h);
            }
            refs.push(ref.push(Json::object()));
          } else {
            for (const auto& [k, x] : v.members()) collect(x);
          }
        }
      };
      if (node.type() == Json::Type::kObject) {
        if (const Json* args = node.find("args")) collect(*args);
        if (const Json* kwargs = node.find("kwargs")) {
          // Keras masks passed explicitly (`mask=`, MultiHeadAttention's query_mask, ...) are
          // not inputs: tfcc carries masks from the layers that make them (layer.h).
          for (const auto& [k, x] : kwargs->members()) {
            if (k != "mask" && k != "query_mask" && k != "value_mask" && k != "key_mask")
              collect(x);
          }
        }
      } else {
        collect(node);  // Keras 2's [[layer, node, tensor, kwargs], ...]
      }
      calls.push(refs);
    }
    out.set("inbound_nodes", calls);
  }
  return out;
}

Json layer_config_from_keras3(const std::string& cls, const Json& config) {
  Json out = Json::object();
  for (const auto& [key, value] : config.members("layer config")) {
    if (key == "dtype" && value.type() == Json::Type::kObject) {
      out.set(key, value.at("config", "dtype policy").at("name", "dtype policy"));
    } else if (key == "batch_shape" && cls == "InputLayer") {
      out.set("batch_input_shape", value);
    } else if (is_nested_layer_key(key) && value.type() == Json::Type::kObject) {
      out.set(key, entry_from_keras3(value));
    } else {
      out.set(key, value);
    }
  }
  return out;
}

// ["dense", 0, 0] -> [["dense", 0, 0]].
Json ref_list(const Json& refs) {
  const auto& items = refs.items("input_layers / output_layers");
  if (!items.empty() && items[0].type() == Json::Type::kString) {
    Json out = Json::array();
    out.push(refs);
    return out;
  }
  return refs;
}

// tfcc's compile config in Keras 3's (Model.get_compile_config): losses tfcc knows by name only
// are written as that name, which Keras resolves too.
Json compile_config_to_keras3(const Json& c) {
  Json out = Json::object();
  // tf.keras 2's optimizer keys that Keras 3's optimizers refuse ("Argument(s) not recognized").
  Json optimizer = c.at("optimizer", "compile_config");
  if (const Json* oc = optimizer.find("config"); oc && oc->type() == Json::Type::kObject) {
    Json kept = Json::object();
    for (const auto& [key, value] : oc->members()) {
      if (key != "jit_compile" && key != "is_legacy_optimizer" && key != "decay")
        kept.set(key, value);
    }
    optimizer.set("config", kept);
  }
  out.set("optimizer", optimizer);
  Json loss = c.at("loss", "compile_config");
  if (loss.type() == Json::Type::kObject) {
    const std::string& cls = loss.at("class_name", "loss").as_string("class_name");
    const bool is_class = !cls.empty() && std::isupper(static_cast<unsigned char>(cls[0]));
    loss = is_class ? keras_object("keras.losses", cls, loss.at("config", "loss")) : Json(cls);
  }
  out.set("loss", loss);
  out.set("loss_weights", Json());
  out.set("metrics", c.at("metrics", "compile_config"));
  out.set("weighted_metrics", Json());
  const Json* eager = c.find("run_eagerly");
  out.set("run_eagerly", eager ? *eager : Json(false));
  out.set("steps_per_execution", Json(int64_t{1}));
  out.set("jit_compile", Json(false));
  return out;
}

}  // namespace

Json compile_config_from_keras3(const Json& c) {
  if (c.is_null() || c.type() != Json::Type::kObject || c.members().empty()) return Json();
  Json out = Json::object();
  out.set("optimizer", c.at("optimizer", "compile_config"));
  const Json* loss = c.find("loss");
  if (!loss || loss->is_null()) {
    out.set("loss", Json());
  } else if (loss->type() == Json::Type::kString) {
    Json l = Json::object();
    l.set("class_name", *loss);
    l.set("config", Json::object());
    out.set("loss", l);
  } else {
    out.set("loss", *loss);
  }
  // Metrics by name: strings as written, serialized metric objects by their config's name.
  Json metrics = Json::array();
  std::function<void(const Json&)> collect = [&](const Json& m) {
    if (m.type() == Json::Type::kString) {
      metrics.push(m);
    } else if (m.type() == Json::Type::kArray) {
      for (const Json& x : m.items()) collect(x);
    } else if (m.type() == Json::Type::kObject) {
      const Json* config = m.find("config");
      const Json* name = config ? config->find("name") : nullptr;
      metrics.push(name ? *name : m.at("class_name", "metric"));
    }
  };
  if (const Json* m = c.find("metrics")) collect(*m);
  out.set("metrics", metrics);
  if (const Json* e = c.find("run_eagerly"); e && e->type() == Json::Type::kBool) {
    out.set("run_eagerly", *e);
  }
  return out;
}

Json keras3_model_config(const Model& model) {
  Json out = model_entry(model);
  out.set("compile_config", model.compiled() && model.optimizer()
                                ? compile_config_to_keras3(models::compile_config(model))
                                : Json::object());
  return out;
}

Json keras3_layer_entry(const Layer& layer) { return layer_entry(layer); }

std::shared_ptr<Layer> layer_from_keras3(const Json& entry) {
  const Json e = entry_from_keras3(entry);
  return layer_from_config(e.at("class_name", "layer").as_string("class_name"),
                           e.at("config", "layer"));
}

namespace {
// Keras 3 records the ops that compute masks (NotEqual, Any, LogicalOr, ...: module
// keras.src.ops.*) as layers of a functional config, feeding `mask=` arguments. Without those
// arguments (entry_from_keras3) nothing leads from them to the outputs: they are dropped, since
// tfcc's layers make the same masks themselves.
Json without_mask_ops(const Json& keras_layers, const Json& layers, const Json& outputs) {
  std::map<std::string, const Json*> by_name;
  for (const Json& l : layers.items()) {
    if (const Json* name = l.find("name")) by_name[name->as_string("name")] = &l;
  }
  std::set<std::string> needed;
  std::function<void(const Json&)> visit = [&](const Json& ref) {
    const auto& r = ref.items("node reference");
    if (r.empty() || !needed.insert(r[0].as_string("layer name")).second) return;
    auto it = by_name.find(r[0].as_string());
    if (it == by_name.end()) return;
    if (const Json* nodes = it->second->find("inbound_nodes")) {
      for (const Json& call : nodes->items()) {
        for (const Json& in : call.items()) visit(in);
      }
    }
  };
  for (const Json& out : outputs.items("output_layers")) visit(out);
  Json kept = Json::array();
  const auto& originals = keras_layers.items("layers");
  for (size_t i = 0; i < layers.items().size(); ++i) {
    const Json& l = layers.items()[i];
    const Json* module = i < originals.size() ? originals[i].find("module") : nullptr;
    const bool op = module && module->type() == Json::Type::kString &&
                    module->as_string().rfind("keras.src.ops", 0) == 0;
    const Json* name = l.find("name");
    if (op && name && !needed.count(name->as_string())) continue;
    kept.push(l);
  }
  return kept;
}
}  // namespace

Json config_from_keras3(const Json& config) {
  const std::string& cls = config.at("class_name", "model config").as_string("class_name");
  const Json& c = config.at("config", "model config");
  Json out = Json::object();
  Json inner = Json::object();
  if (const Json* name = c.find("name")) inner.set("name", *name);
  Json layers = Json::array();
  for (const Json& l : c.at("layers", cls + " config").items("layers")) {
    layers.push(entry_from_keras3(l));
  }
  if (cls == "Sequential") {
    // Built from build_input_shape when no InputLayer was saved.
    const bool has_input =
        !layers.items().empty() && layers.items()[0].at("class_name").as_string() == "InputLayer";
    const Json* shape = c.find("build_input_shape");
    if (!has_input && shape && !shape->is_null()) {
      Json input_config = Json::object();
      input_config.set("batch_input_shape", *shape);
      Json input = Json::object();
      input.set("class_name", Json("InputLayer"));
      input.set("config", input_config);
      Json with_input = Json::array();
      with_input.push(input);
      for (const Json& l : layers.items()) with_input.push(l);
      layers = with_input;
    }
    inner.set("layers", layers);
    out.set("class_name", Json("Sequential"));
  } else {
    inner.set("layers", without_mask_ops(c.at("layers", cls + " config"), layers,
                                         ref_list(c.at("output_layers", "Functional config"))));
    inner.set("input_layers", ref_list(c.at("input_layers", "Functional config")));
    inner.set("output_layers", ref_list(c.at("output_layers", "Functional config")));
    out.set("class_name", Json("Functional"));
  }
  out.set("config", inner);
  return out;
}

}  // namespace tfcc::keras::saving
