// Model::save, keras::models::load_model and the model config (Keras' Sequential / Functional
// get_config and from_config).
#include "tfcc/keras/saving/model_saving.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/models/sequential.h"
#include "tfcc/keras/optimizers/serialization.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::models {
namespace {

using saving::Json;
namespace fs = std::filesystem;

constexpr const char* kConfigFile = "config.json";
constexpr const char* kMetadataFile = "metadata.json";

std::string variables_prefix(const std::string& dir) {
  return (fs::path(dir) / "variables" / "variables").string();
}

Json serialize_layer(const Layer& layer) {
  if (const auto* m = dynamic_cast<const Model*>(&layer); m && m->is_graph_network()) {
    return model_config(*m);
  }
  Json out = Json::object();
  out.set("class_name", Json(layer.class_name()));
  out.set("config", saving::layer_config(layer));
  return out;
}

std::shared_ptr<Layer> deserialize_layer(const Json& entry) {
  const std::string& cls = entry.at("class_name", "layer").as_string("class_name");
  if (cls == "Sequential" || cls == "Functional") return model_from_config(entry);
  return saving::layer_from_config(cls, entry.at("config", "layer"));
}

// The nodes of a functional model, inputs first (a depth-first walk from the outputs).
std::vector<const Node*> graph_nodes(const Model& model) {
  std::vector<const Node*> order;
  std::set<const Node*> seen;
  std::function<void(const Node*)> visit = [&](const Node* n) {
    if (!seen.insert(n).second) return;
    for (const auto& in : n->inputs) visit(in.node().get());
    order.push_back(n);
  };
  for (const auto& in : model.inputs()) visit(in.node().get());
  for (const auto& out : model.outputs()) visit(out.node().get());
  return order;
}

Json functional_config(const Model& model) {
  std::vector<const Node*> nodes = graph_nodes(model);
  // Node indices relative to this model (a layer may have nodes in other models too).
  std::map<const Node*, int> rel;
  std::map<const Layer*, std::vector<const Node*>> by_layer;
  for (const Node* n : nodes) by_layer[n->layer.get()].push_back(n);
  for (auto& [layer, list] : by_layer) {
    std::sort(list.begin(), list.end(),
              [](const Node* a, const Node* b) { return a->node_index < b->node_index; });
    for (size_t i = 0; i < list.size(); ++i) rel[list[i]] = static_cast<int>(i);
  }
  auto ref = [&](const KerasTensor& t) {
    Json r = Json::array();
    r.push(Json(t.node()->layer->name()));
    r.push(Json(int64_t{rel.at(t.node().get())}));
    r.push(Json(int64_t{t.index()}));
    return r;
  };
  Json layers = Json::array();
  for (const auto& l : model.layers()) {
    Json entry = serialize_layer(*l);
    entry.set("name", Json(l->name()));
    Json inbound = Json::array();
    for (const Node* n : by_layer[l.get()]) {
      if (n->inputs.empty()) continue;  // an InputLayer's own node
      Json call = Json::array();
      for (const auto& in : n->inputs) call.push(ref(in).push(Json::object()));
      inbound.push(call);
    }
    entry.set("inbound_nodes", inbound);
    layers.push(entry);
  }
  Json inputs = Json::array(), outputs = Json::array();
  for (const auto& t : model.inputs()) inputs.push(ref(t));
  for (const auto& t : model.outputs()) outputs.push(ref(t));
  Json config = Json::object();
  config.set("name", Json(model.name()));
  config.set("layers", layers);
  config.set("input_layers", inputs);
  config.set("output_layers", outputs);
  return config;
}

std::shared_ptr<Model> functional_from_config(const Json& config) {
  std::map<std::string, std::shared_ptr<Layer>> by_name;
  std::map<std::pair<std::string, int64_t>, KerasTensors> produced;
  struct Pending {
    std::shared_ptr<Layer> layer;
    const Json* inbound;
    size_t next = 0;
  };
  std::vector<Pending> pending;
  for (const Json& entry : config.at("layers", "model config").items("layers")) {
    std::shared_ptr<Layer> layer = deserialize_layer(entry);
    const std::string& name = entry.at("name", "layer").as_string("name");
    by_name[name] = layer;
    if (auto input = std::dynamic_pointer_cast<InputLayer>(layer)) {
      produced[{name, 0}] = {input_tensor_of(input)};
    }
    pending.push_back({layer, &entry.at("inbound_nodes", "layer"), 0});
  }
  auto resolve = [&](const Json& ref) -> std::optional<KerasTensor> {
    const auto& r = ref.items("node reference");
    TFCC_CHECK_ARG(r.size() >= 3, "Malformed node reference in a model config: ", ref.dump());
    auto it = produced.find({r[0].as_string("layer name"), r[1].as_int("node index")});
    if (it == produced.end()) return std::nullopt;
    const int64_t index = r[2].as_int("tensor index");
    TFCC_CHECK_ARG(index >= 0 && index < static_cast<int64_t>(it->second.size()),
                   "Model config: tensor index ", index, " out of range in ", ref.dump());
    return it->second[static_cast<size_t>(index)];
  };
  // Layers are listed in graph order, but shared layers may need several passes (as Keras).
  for (bool progress = true; progress;) {
    progress = false;
    for (Pending& p : pending) {
      const auto& calls = p.inbound->items("inbound_nodes");
      while (p.next < calls.size()) {
        KerasTensors in;
        bool ready = true;
        for (const Json& ref : calls[p.next].items("inbound node")) {
          auto t = resolve(ref);
          if (!t) {
            ready = false;
            break;
          }
          in.push_back(*t);
        }
        if (!ready) break;
        produced[{p.layer->name(), static_cast<int64_t>(p.next)}] = p.layer->apply(in);
        ++p.next;
        progress = true;
      }
    }
  }
  for (const Pending& p : pending) {
    TFCC_CHECK_ARG(p.next == p.inbound->items().size(), "Model config: cannot rebuild the call ",
                   p.next, " of layer '", p.layer->name(),
                   "': its inputs are never produced (graph disconnected)");
  }
  KerasTensors inputs, outputs;
  for (const Json& ref : config.at("input_layers", "model config").items("input_layers")) {
    auto t = resolve(ref);
    TFCC_CHECK_ARG(t.has_value(), "Model config: unknown input ", ref.dump());
    inputs.push_back(*t);
  }
  for (const Json& ref : config.at("output_layers", "model config").items("output_layers")) {
    auto t = resolve(ref);
    TFCC_CHECK_ARG(t.has_value(), "Model config: unknown output ", ref.dump());
    outputs.push_back(*t);
  }
  const Json* name = config.find("name");
  return std::make_shared<Model>(inputs, outputs,
                                 ModelArgs{.name = name ? name->as_string("name") : ""});
}

// ---- compile config ------------------------------------------------------------------------

std::string loss_reduction_name(losses::Reduction r) {
  switch (r) {
    case losses::Reduction::kAuto:
      return "auto";
    case losses::Reduction::kNone:
      return "none";
    case losses::Reduction::kSum:
      return "sum";
    case losses::Reduction::kSumOverBatchSize:
      return "sum_over_batch_size";
  }
  return "auto";
}

losses::Reduction reduction_from(const Json& c) {
  const Json* r = c.find("reduction");
  const std::string s = r ? r->as_string("reduction") : "auto";
  if (s == "auto") return losses::Reduction::kAuto;
  if (s == "none") return losses::Reduction::kNone;
  if (s == "sum") return losses::Reduction::kSum;
  if (s == "sum_over_batch_size") return losses::Reduction::kSumOverBatchSize;
  throw InvalidArgumentError(internal::str_cat("Unknown loss reduction '", s, "'"));
}

Json loss_config(const losses::Loss& loss) {
  Json c = Json::object();
  std::string cls;
  if (const auto* l = dynamic_cast<const losses::SparseCategoricalCrossentropy*>(&loss)) {
    cls = "SparseCategoricalCrossentropy";
    c.set("reduction", Json(loss_reduction_name(l->options().reduction)));
    c.set("name", Json(l->options().name));
    c.set("from_logits", Json(l->options().from_logits));
    c.set("ignore_class", l->options().ignore_class ? Json(*l->options().ignore_class) : Json());
  } else if (const auto* l = dynamic_cast<const losses::CategoricalCrossentropy*>(&loss)) {
    cls = "CategoricalCrossentropy";
    c.set("reduction", Json(loss_reduction_name(l->options().reduction)));
    c.set("name", Json(l->options().name));
    c.set("from_logits", Json(l->options().from_logits));
    c.set("label_smoothing", Json(l->options().label_smoothing));
    c.set("axis", Json(l->options().axis));
  } else if (const auto* l = dynamic_cast<const losses::BinaryCrossentropy*>(&loss)) {
    cls = "BinaryCrossentropy";
    c.set("reduction", Json(loss_reduction_name(l->options().reduction)));
    c.set("name", Json(l->options().name));
    c.set("from_logits", Json(l->options().from_logits));
    c.set("label_smoothing", Json(l->options().label_smoothing));
    c.set("axis", Json(l->options().axis));
  } else {
    cls = loss.name();  // rebuilt with losses::get
    c.set("name", Json(loss.name()));
  }
  Json out = Json::object();
  out.set("class_name", Json(cls));
  out.set("config", c);
  return out;
}

std::shared_ptr<losses::Loss> loss_from_config(const Json& j) {
  const std::string& cls = j.at("class_name", "loss").as_string("class_name");
  const Json& c = j.at("config", "loss");
  auto get_bool = [&](const char* k) { return c.at(k, "loss config").as_bool(k); };
  if (cls == "SparseCategoricalCrossentropy") {
    const Json* ic = c.find("ignore_class");
    return std::make_shared<losses::SparseCategoricalCrossentropy>(
        losses::SparseCategoricalCrossentropyOptions{
            .from_logits = get_bool("from_logits"),
            .ignore_class =
                ic && !ic->is_null() ? std::optional(ic->as_int("ignore_class")) : std::nullopt,
            .reduction = reduction_from(c),
            .name = c.at("name", "loss config").as_string("name")});
  }
  if (cls == "CategoricalCrossentropy") {
    return std::make_shared<losses::CategoricalCrossentropy>(losses::CategoricalCrossentropyOptions{
        .from_logits = get_bool("from_logits"),
        .label_smoothing = c.at("label_smoothing", "loss config").as_number("label_smoothing"),
        .axis = c.at("axis", "loss config").as_int("axis"),
        .reduction = reduction_from(c),
        .name = c.at("name", "loss config").as_string("name")});
  }
  if (cls == "BinaryCrossentropy") {
    return std::make_shared<losses::BinaryCrossentropy>(losses::BinaryCrossentropyOptions{
        .from_logits = get_bool("from_logits"),
        .label_smoothing = c.at("label_smoothing", "loss config").as_number("label_smoothing"),
        .axis = c.at("axis", "loss config").as_int("axis"),
        .reduction = reduction_from(c),
        .name = c.at("name", "loss config").as_string("name")});
  }
  return losses::get(cls);
}

Json compile_config(const Model& model) {
  Json out = Json::object();
  out.set("optimizer", optimizers::serialize(*model.optimizer()));
  out.set("loss", model.loss() ? loss_config(*model.loss()) : Json());
  Json metrics = Json::array();
  auto all = model.metrics();
  for (size_t i = model.loss() ? 1 : 0; i < all.size(); ++i) metrics.push(Json(all[i]->name()));
  out.set("metrics", metrics);
  out.set("run_eagerly", Json(model.run_eagerly()));
  return out;
}

void compile_from_config(Model& model, const Json& c) {
  CompileOptions options;
  // Keras' key, or "optimizer_config" (files written before every hyperparameter was saved).
  const Json* oc = c.find("optimizer");
  if (!oc) oc = &c.at("optimizer_config", "compile_config");
  options.optimizer = optimizers::deserialize(*oc);
  const Json& loss = c.at("loss", "compile_config");
  if (!loss.is_null()) options.loss = loss_from_config(loss);
  for (const Json& m : c.at("metrics", "compile_config").items("metrics")) {
    options.metrics.emplace_back(m.as_string("metric"));
  }
  if (const Json* e = c.find("run_eagerly")) options.run_eagerly = e->as_bool("run_eagerly");
  model.compile(std::move(options));
}

// A class load_model cannot rebuild is reported now (the save itself succeeds, as in Keras).
void warn_unregistered(const Json& entry) {
  const Json* cls = entry.find("class_name");
  if (!cls || cls->type() != Json::Type::kString) return;
  const std::string& name = cls->as_string();
  if (name == "Sequential" || name == "Functional") {
    for (const Json& l : entry.at("config").at("layers").items()) warn_unregistered(l);
  } else if (!saving::is_layer_registered(name)) {
    TFCC_LOG(WARNING) << "Model.save: class '" << name
                      << "' is not registered; load_model will need "
                         "keras::saving::register_layer(\""
                      << name << "\", factory) first";
  }
}

std::string crc_of(const std::string& text) {
  return std::to_string(crc32c::mask(crc32c::value(text)));
}

}  // namespace

Json model_config(const Model& model) {
  Json out = Json::object();
  if (const auto* seq = dynamic_cast<const Sequential*>(&model)) {
    Json layers = Json::array();
    if (seq->is_graph_network() && !seq->inputs().empty()) {
      layers.push(serialize_layer(*seq->inputs()[0].node()->layer));
    }
    for (const auto& l : seq->layers()) layers.push(serialize_layer(*l));
    Json config = Json::object();
    config.set("name", Json(model.name()));
    config.set("layers", layers);
    out.set("class_name", Json("Sequential"));
    out.set("config", config);
  } else if (model.is_graph_network()) {
    out.set("class_name", Json("Functional"));
    out.set("config", functional_config(model));
  } else {
    out.set("class_name", Json(model.class_name()));
    out.set("config", saving::layer_config(model));
  }
  return out;
}

std::shared_ptr<Model> model_from_config(const Json& config) {
  const std::string& cls = config.at("class_name", "model config").as_string("class_name");
  const Json& c = config.at("config", "model config");
  if (cls == "Sequential") {
    const Json* name = c.find("name");
    auto seq = std::make_shared<Sequential>(std::vector<LayerPtr>{},
                                            ModelArgs{.name = name ? name->as_string("name") : ""});
    for (const Json& l : c.at("layers", "Sequential config").items("layers")) {
      seq->add(deserialize_layer(l));
    }
    return seq;
  }
  if (cls == "Functional" || cls == "Model") return functional_from_config(c);
  std::shared_ptr<Layer> layer = saving::layer_from_config(cls, c);
  auto model = std::dynamic_pointer_cast<Model>(layer);
  TFCC_CHECK_ARG(model != nullptr, "The config of class '", cls, "' does not make a Model");
  return model;
}

std::string model_to_json(const Model& model) {
  Json j = model_config(model);
  j.set("keras_version", Json("2.15.0"));
  j.set("backend", Json("tensorflow"));
  return j.dump();
}

std::shared_ptr<Model> model_from_json(const std::string& json) {
  return model_from_config(Json::parse(json, "model JSON"));
}

std::shared_ptr<Model> load_model(const std::string& path, LoadModelOptions options) {
  const std::string filepath = committed_directory(path);  // see save_model
  const std::string config_path = (fs::path(filepath) / kConfigFile).string();
  const std::string metadata_path = (fs::path(filepath) / kMetadataFile).string();
  TFCC_REQUIRE(NotFoundError, file_exists(config_path) && file_exists(metadata_path),
               "No file or directory found at ", filepath,
               " (expected a directory written by "
               "Model.save, with config.json and metadata.json)");
  const std::string text = read_file(config_path);
  Json metadata = Json::parse(read_file(metadata_path), metadata_path);
  const Json* crc = metadata.find("config_crc32c");
  TFCC_REQUIRE(DataLossError, crc && crc->type() == Json::Type::kString, metadata_path,
               ": missing config_crc32c");
  TFCC_REQUIRE(DataLossError, crc->as_string() == crc_of(text), config_path,
               ": checksum mismatch (the file is damaged or was changed after saving)");
  Json saved = Json::parse(text, config_path);
  std::shared_ptr<Model> model = model_from_config(saved);
  if (const Json* cc = saved.find("compile_config"); options.compile && cc && !cc->is_null()) {
    compile_from_config(*model, *cc);
  }
  model->load_weights(variables_prefix(filepath));
  return model;
}

void save_model(const Model& model, const std::string& filepath) {
  TFCC_CHECK_ARG(!filepath.empty(), "Model.save: the file path is empty");
  Json saved = model_config(model);
  saved.set("keras_version", Json("2.15.0"));
  saved.set("backend", Json("tensorflow"));
  saved.set("compile_config",
            model.compiled() && model.optimizer() ? compile_config(model) : Json());
  const std::string text = saved.dump();
  warn_unregistered(saved);
  // Written into a fresh directory beside the old one, then swapped in as a whole: a crash at
  // any instant leaves the complete old model or the complete new one.
  DirectoryCommit commit(filepath, {kConfigFile, kMetadataFile, "variables"});
  const std::string dir = commit.path();
  make_dirs((fs::path(dir) / "variables").string());
  model.save_weights(variables_prefix(dir));
  write_file_atomic((fs::path(dir) / kConfigFile).string(), text);
  Json metadata = Json::object();
  metadata.set("keras_version", Json("2.15.0"));
  metadata.set("date_saved", Json(std::to_string(std::time(nullptr))));
  metadata.set("config_crc32c", Json(crc_of(text)));
  write_file_atomic((fs::path(dir) / kMetadataFile).string(), metadata.dump());
  commit.commit();
}

}  // namespace tfcc::keras::models

namespace tfcc::keras {

void Model::save(const std::string& filepath) const { models::save_model(*this, filepath); }

}  // namespace tfcc::keras
