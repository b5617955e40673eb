// Loading a TensorFlow SavedModel into signatures tfcc runs (tf_import.h).
#include <algorithm>
#include <mutex>

#include "tfcc/graph/passes/pass_manager.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/io/saved_model/tf_import/interpreter.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/io/saved_model/tf_import/variables.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

// One signature's inputs (Placeholder node names) and outputs (tensor names), by key order.
struct SignatureSpec {
  std::string name;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<std::string> feeds, fetches;
};

// What every trace of the model shares; kept alive by the signatures.
struct Model {
  std::string dir, path;
  LoadOptions options;
  tensorflow::SavedModel saved_model;
  const tensorflow::MetaGraphDef* meta_graph = nullptr;
  std::unique_ptr<Library> library;
  int64_t variable_budget = 0;
  std::unique_ptr<VariableStore> variables;
  std::mutex mu;  // traces one at a time (the variable store fills on first use)
};

const tensorflow::MetaGraphDef& pick_meta_graph(const tensorflow::SavedModel& sm,
                                                const std::string& path) {
  if (sm.meta_graphs_size() == 0) throw InvalidArgumentError(str_cat(path, ": no meta graph"));
  std::string tags;
  for (const auto& mg : sm.meta_graphs()) {
    const auto& t = mg.meta_info_def().tags();
    if (std::find(t.begin(), t.end(), "serve") != t.end()) return mg;
    tags += str_cat(tags.empty() ? "" : "; ", "[", t.size() ? t[0] : "", "]");
  }
  if (sm.meta_graphs_size() == 1) return sm.meta_graphs(0);
  throw NotFoundError(str_cat(path, ": no meta graph tagged 'serve' (tag sets: ", tags, ")"));
}

TensorSpec spec_of(const std::string& key, const tensorflow::TensorInfo& info,
                   const std::string& what, std::string& tensor_name) {
  if (info.encoding_case() != tensorflow::TensorInfo::kName) {
    throw UnimplementedError(str_cat(what, " '", key, "' is not a dense tensor"));
  }
  tensor_name = info.name();
  return {shape_from_proto(info.tensor_shape(), what), require_dtype(info.dtype(), what), key};
}

std::vector<SignatureSpec> signature_specs(const Model& m) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : m.meta_graph->signature_def()) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  std::vector<SignatureSpec> out;
  for (const std::string& k : keys) {
    if (k.rfind("__", 0) == 0) continue;  // __saved_model_init_op: the init op, no computation
    const tensorflow::SignatureDef& sd = m.meta_graph->signature_def().at(k);
    SignatureSpec s{k, {}, {}, {}, {}};
    const std::string what = str_cat(m.path, ": signature '", k, "'");
    std::vector<std::string> in_keys, out_keys;
    for (const auto& [ik, v] : sd.inputs()) in_keys.push_back(ik);
    for (const auto& [ok, v] : sd.outputs()) out_keys.push_back(ok);
    std::sort(in_keys.begin(), in_keys.end());
    std::sort(out_keys.begin(), out_keys.end());
    for (const std::string& ik : in_keys) {
      std::string name;
      s.inputs.push_back(spec_of(ik, sd.inputs().at(ik), what + " input", name));
      const size_t colon = name.find(':');
      if (colon != std::string::npos && name.substr(colon) != ":0") {
        throw InvalidArgumentError(str_cat(what, ": input '", ik, "' is '", name,
                                           "', not the first output of a Placeholder"));
      }
      s.feeds.push_back(name.substr(0, colon));
    }
    for (const std::string& ok : out_keys) {
      std::string name;
      s.outputs.push_back(spec_of(ok, sd.outputs().at(ok), what + " output", name));
      s.fetches.push_back(name);
    }
    if (s.outputs.empty()) continue;
    out.push_back(std::move(s));
  }
  return out;
}

// Traces signature `s` for inputs of `shapes` into a ConcreteFunction (graph passes applied).
ConcreteFunction trace(Model& m, const SignatureSpec& s, const std::vector<PartialShape>& shapes) {
  graph::TraceContext ctx(s.name);
  std::map<std::string, Value> feeds;
  std::vector<TensorSpec> specs;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    specs.push_back({shapes[i], s.inputs[i].dtype, s.inputs[i].name});
    feeds[s.feeds[i]] = Value::of(ctx.add_arg(s.inputs[i].dtype, shapes[i], s.inputs[i].name));
  }
  ImportState state{*m.library, m.variables.get(), m.options, m.path, m.options.max_tensor_bytes};
  {
    ExecutionContextScope scope(&ctx);
    std::vector<Value> values = run_graph(state, m.meta_graph->graph_def(), feeds, s.fetches);
    std::vector<Tensor> outs;
    for (size_t i = 0; i < values.size(); ++i) {
      const Tensor& t = values[i].tensor;
      if (!t.defined() || t.dtype() != s.outputs[i].dtype) {
        throw InvalidArgumentError(str_cat(m.path, ": signature '", s.name, "' output '",
                                           s.outputs[i].name, "' (", s.fetches[i], ") is not a ",
                                           dtype_name(s.outputs[i].dtype), " tensor"));
      }
      outs.push_back(t);
    }
    ctx.finish(outs);
  }
  auto optimized = std::make_shared<const graph::Graph>(graph::optimize(ctx.graph()));
  return ConcreteFunction(ctx.shared_graph(), std::move(optimized), specs);
}

// The signature's function for concrete inputs, traced on first use of their shapes.
class Specializations {
 public:
  Specializations(std::shared_ptr<Model> m, SignatureSpec s) : m_(std::move(m)), s_(std::move(s)) {}

  static std::string key_of(const std::vector<PartialShape>& shapes) {
    std::string key;
    for (const PartialShape& s : shapes) key += s.to_string();
    return key;
  }

  /// Keeps a trace made for `shapes` (the load-time one).
  void seed(const std::vector<PartialShape>& shapes, ConcreteFunction f) {
    std::lock_guard<std::mutex> lock(m_->mu);
    cache_.emplace(key_of(shapes), std::move(f));
  }

  ConcreteFunction get(std::span<const Tensor> inputs) {
    std::vector<PartialShape> shapes;
    for (const Tensor& t : inputs) shapes.emplace_back(t.shape());
    const std::string key = key_of(shapes);
    std::lock_guard<std::mutex> lock(m_->mu);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kMaxTraces) cache_.clear();  // bounded: many batch sizes retrace
    ConcreteFunction f = trace(*m_, s_, shapes);
    cache_.emplace(key, f);
    return f;
  }

 private:
  static constexpr size_t kMaxTraces = 32;
  std::shared_ptr<Model> m_;
  SignatureSpec s_;
  std::map<std::string, ConcreteFunction> cache_;
};

}  // namespace

bool is_tensorflow_saved_model(const std::string& dir) {
  return file_exists(str_cat(dir, "/", kSavedModelFilename));
}

LoadedModel load(const std::string& dir, const LoadOptions& options) {
  const std::string path = str_cat(dir, "/", kSavedModelFilename);
  return load_from_bytes(read_saved_model_bytes(path, options), dir, path, options);
}

LoadedModel load_from_bytes(const std::string& bytes, const std::string& dir,
                            const std::string& path, const LoadOptions& options) {
  auto m = std::make_shared<Model>();
  m->dir = dir;
  m->path = path;
  m->options = options;
  m->saved_model = parse_saved_model(bytes, path);
  m->meta_graph = &pick_meta_graph(m->saved_model, path);
  m->library = std::make_unique<Library>(m->meta_graph->graph_def().library(), path);
  m->variable_budget = options.max_tensor_bytes;
  m->variables =
      std::make_unique<VariableStore>(dir, *m->meta_graph, m->options, &m->variable_budget, path);
  std::vector<SignatureSpec> specs = signature_specs(*m);
  if (specs.empty()) throw InvalidArgumentError(str_cat(path, ": no signature computes anything"));

  // Every op without a mapping, in one error, before anything runs.
  std::map<std::string, std::set<std::string>> missing;
  ImportState scan{*m->library, nullptr, m->options, path, 0};
  for (const SignatureSpec& s : specs) {
    missing_ops(scan, m->meta_graph->graph_def(), s.fetches, missing);
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& [op, nodes] : missing) {
      std::string users;
      int shown = 0;
      for (const std::string& n : nodes) {
        if (shown++ == 5) {
          users += str_cat(", ... ", nodes.size() - 5, " more");
          break;
        }
        users += (users.empty() ? "" : ", ") + n;
      }
      list += str_cat(list.empty() ? "" : ", ", op, " (", users, ")");
    }
    throw UnimplementedError(str_cat(path, ": the model uses ", missing.size(),
                                     " TensorFlow op(s) tfcc cannot import: ", list,
                                     ". Supported ops: docs/tf_ops.md"));
  }

  LoadedModel out;
  const auto& info = m->meta_graph->meta_info_def();
  out.producer = info.tensorflow_version().empty()
                     ? std::string("TensorFlow")
                     : str_cat("TensorFlow ", info.tensorflow_version());
  out.format_version = static_cast<uint32_t>(m->saved_model.saved_model_schema_version());
  for (const SignatureSpec& s : specs) {
    // The load-time trace: unknown dimensions as 1. It checks the whole signature converts.
    std::vector<PartialShape> shapes;
    for (const TensorSpec& t : s.inputs) {
      if (!t.shape.rank_known()) {
        throw UnimplementedError(
            str_cat(path, ": signature '", s.name, "' input '", t.name, "' has unknown rank"));
      }
      std::vector<int64_t> d = t.shape.dims();
      for (int64_t& x : d) x = x < 0 ? 1 : x;
      shapes.emplace_back(d);
    }
    ConcreteFunction example = trace(*m, s, shapes);
    out.functions.push_back(example.shared_graph());
    auto cache = std::make_shared<Specializations>(m, s);
    cache->seed(shapes, example);
    out.signatures.emplace(
        s.name, Signature(s.name, example, s.inputs, s.outputs,
                          [cache](std::span<const Tensor> in) { return cache->get(in); }));
  }
  for (const VariableStore::Restored& r : m->variables->restored()) {
    out.variables.push_back(r.variable);
    out.variable_keys.push_back(r.key);
  }
  return out;
}

std::string supported_ops_markdown() { return ops_markdown(); }

}  // namespace tfcc::saved_model::tf_import
