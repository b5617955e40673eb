// Restoring an imported SavedModel's variables: TensorFlow 2's object graph, TensorFlow 1's Saver
// (variables.h).
#include "tfcc/io/saved_model/tf_import/variables.h"

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

constexpr const char* kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

std::string node_of(const std::string& input) { return input.substr(0, input.find(':')); }

// "node:k" -> k ("node" -> 0); -1 for a control input or a malformed index.
int output_of(const std::string& input) {
  if (!input.empty() && input[0] == '^') return -1;
  const size_t colon = input.find(':');
  if (colon == std::string::npos) return 0;
  int k = 0;
  for (size_t i = colon + 1; i < input.size(); ++i) {
    if (input[i] < '0' || input[i] > '9' || k > 1'000'000) return -1;
    k = k * 10 + (input[i] - '0');
  }
  return colon + 1 == input.size() ? -1 : k;
}

}  // namespace

VariableStore::VariableStore(std::string dir, const tensorflow::MetaGraphDef& meta_graph,
                             const LoadOptions& options, int64_t* tensor_budget, std::string path)
    : dir_(std::move(dir)),
      meta_graph_(meta_graph),
      options_(options),
      budget_(tensor_budget),
      path_(std::move(path)) {
  index_saver();
  if (!meta_graph.has_object_graph_def()) return;
  const auto& concrete = meta_graph.object_graph_def().concrete_functions();
  std::map<std::string, const tensorflow::FunctionDef*> functions;
  for (const auto& f : meta_graph.graph_def().library().function()) {
    functions[f.signature().name()] = &f;
  }
  // Each top-level call of a saved concrete function binds its resource inputs, in order, to
  // the object-graph nodes listed in bound_inputs.
  for (const tensorflow::NodeDef& n : meta_graph.graph_def().node()) {
    if (n.op() != "StatefulPartitionedCall" && n.op() != "PartitionedCall") continue;
    auto fa = n.attr().find("f");
    if (fa == n.attr().end() || !fa->second.has_func()) continue;
    const std::string& fname = fa->second.func().name();
    auto cf = concrete.find(fname);
    auto fd = functions.find(fname);
    if (cf == concrete.end() || fd == functions.end()) continue;
    const auto& args = fd->second->signature().input_arg();
    int k = 0, data = 0;
    for (const std::string& in : n.input()) {
      if (!in.empty() && in[0] == '^') continue;
      if (data >= args.size()) break;
      if (args[data++].type() != tensorflow::DT_RESOURCE) continue;
      if (k >= cf->second.bound_inputs_size()) {
        throw InvalidArgumentError(str_cat(path_, ": call '", n.name(), "' of '", fname,
                                           "' has more resource inputs than bound_inputs"));
      }
      const int id = cf->second.bound_inputs(k++);
      auto [it, inserted] = handle_objects_.emplace(node_of(in), id);
      if (!inserted && it->second != id) {
        throw InvalidArgumentError(str_cat(path_, ": VarHandleOp '", it->first,
                                           "' is bound to object-graph nodes ", it->second, " and ",
                                           id));
      }
    }
  }
}

VariableStore::~VariableStore() = default;

void VariableStore::index_saver() {
  std::map<std::string, const tensorflow::NodeDef*> nodes;
  for (const tensorflow::NodeDef& n : meta_graph_.graph_def().node()) nodes[n.name()] = &n;
  // The key each RestoreV2 output carries: tensor_names is a string Const.
  std::map<std::string, std::vector<std::string>> restore_names;  // RestoreV2 node -> keys
  for (const tensorflow::NodeDef& n : meta_graph_.graph_def().node()) {
    if (n.op() != "RestoreV2" || n.input_size() < 3) continue;
    auto names = nodes.find(node_of(n.input(1)));
    auto slices = nodes.find(node_of(n.input(2)));
    if (names == nodes.end() || names->second->op() != "Const") continue;
    auto value = names->second->attr().find("value");
    if (value == names->second->attr().end() || !value->second.has_tensor()) continue;
    const auto& t = value->second.tensor();
    if (t.dtype() != tensorflow::DT_STRING) continue;
    std::vector<std::string> keys(t.string_val().begin(), t.string_val().end());
    if (slices != nodes.end()) {
      auto sv = slices->second->attr().find("value");
      if (sv != slices->second->attr().end() && sv->second.has_tensor()) {
        for (const std::string& slice : sv->second.tensor().string_val()) {
          if (!slice.empty()) {
            partitioned_ = str_cat("'", n.name(), "' restores slices ('", slice, "')");
          }
        }
      }
    }
    restore_names.emplace(n.name(), std::move(keys));
  }
  if (restore_names.empty()) return;
  // Assign / AssignVariableOp(variable, value): follow value through Identity to RestoreV2:i.
  for (const tensorflow::NodeDef& n : meta_graph_.graph_def().node()) {
    if ((n.op() != "Assign" && n.op() != "AssignVariableOp") || n.input_size() < 2) continue;
    std::string src = n.input(1);
    for (int hops = 0; hops < 16; ++hops) {
      auto it = nodes.find(node_of(src));
      if (it == nodes.end() || it->second->op() != "Identity" || it->second->input_size() < 1) {
        break;
      }
      src = it->second->input(0);
    }
    auto r = restore_names.find(node_of(src));
    const int k = output_of(src);
    if (r == restore_names.end() || k < 0 || k >= static_cast<int>(r->second.size())) continue;
    saver_keys_.emplace(node_of(n.input(0)), r->second[static_cast<size_t>(k)]);
  }
}

void VariableStore::open_checkpoint() {
  if (reader_) return;
  const std::string prefix = str_cat(dir_, "/", kVariablesPrefix);
  if (!file_exists(checkpoint::index_filename(prefix))) {
    throw NotFoundError(str_cat(dir_, ": the model has variables but ",
                                checkpoint::index_filename(prefix), " does not exist"));
  }
  reader_ = std::make_unique<checkpoint::BundleReader>(prefix);
}

void VariableStore::open_object_graph() {
  open_checkpoint();
  if (object_graph_open_) return;
  const std::string prefix = str_cat(dir_, "/", kVariablesPrefix);
  if (!reader_->contains(kObjectGraphKey)) {
    throw InvalidArgumentError(str_cat(prefix, ": no ", kObjectGraphKey,
                                       " (needed to match variables to checkpoint keys)"));
  }
  std::vector<std::string> s = reader_->read_strings(kObjectGraphKey);
  if (s.size() != 1 || !trackables_.ParseFromString(s[0])) {
    throw DataLossError(str_cat(prefix, ": ", kObjectGraphKey, " is not a TrackableObjectGraph"));
  }
  object_graph_open_ = true;
}

Variable VariableStore::handle(const tensorflow::NodeDef& node, const std::string& context) {
  auto it = handle_objects_.find(node.name());
  if (it != handle_objects_.end()) return read(it->second, context);
  if (meta_graph_.has_object_graph_def() && saver_keys_.empty()) {
    throw UnimplementedError(
        str_cat(context, ": ", node.op(), " '", node.name(),
                "' is bound by no function of the object graph and restored by no Saver op"));
  }
  return read_tf1(node, context);
}

Tensor VariableStore::read_value(const std::string& key, const std::string& what) {
  open_checkpoint();
  if (!reader_->contains(key)) {
    throw NotFoundError(
        str_cat(what, ": no value in ", dir_, "/", kVariablesPrefix, " (key '", key, "')"));
  }
  // The reader checks the stored size against the data file before allocating.
  Tensor value = reader_->read_tensor(key);
  const auto nbytes = static_cast<int64_t>(value.nbytes());
  if (nbytes > *budget_) {
    throw InvalidArgumentError(str_cat(what, ": exceeds the tensor byte limit ",
                                       options_.max_tensor_bytes,
                                       " (LoadOptions::max_tensor_bytes)"));
  }
  *budget_ -= nbytes;
  return value;
}

Variable VariableStore::read_tf1(const tensorflow::NodeDef& node, const std::string& context) {
  auto done = tf1_variables_.find(node.name());
  if (done != tf1_variables_.end()) return done->second;
  const std::string what = str_cat(context, ": variable '", node.name(), "' (", node.op(), ")");
  if (!partitioned_.empty()) {
    throw UnimplementedError(
        str_cat(what, ": the Saver ", partitioned_, "; partitioned variables are not supported"));
  }
  std::string key = node.name();
  auto saved = saver_keys_.find(node.name());
  if (saved != saver_keys_.end()) {
    key = saved->second;
  } else if (auto sn = node.attr().find("shared_name");
             sn != node.attr().end() && !sn->second.s().empty()) {
    key = sn->second.s();
  }
  auto dt = node.attr().find("dtype");
  auto sh = node.attr().find("shape");
  if (dt == node.attr().end() || sh == node.attr().end() || !sh->second.has_shape()) {
    throw InvalidArgumentError(str_cat(what, ": needs attrs 'dtype' and 'shape'"));
  }
  const DType dtype = require_dtype(dt->second.type(), what);
  const PartialShape shape = shape_from_proto(sh->second.shape(), what);
  Tensor value = read_value(key, what);
  if (value.dtype() != dtype || !shape.is_compatible_with(value.shape())) {
    throw InvalidArgumentError(str_cat(what, " is ", dtype_name(value.dtype()),
                                       value.shape().to_string(), " in the checkpoint (key '", key,
                                       "'), ", dtype_name(dtype), shape.to_string(),
                                       " in the graph"));
  }
  Variable v(value, {.name = node.name(), .trainable = true});
  tf1_variables_.emplace(node.name(), v);
  restored_.push_back({key, v});
  return v;
}

Variable VariableStore::read(int id, const std::string& context) {
  auto done = variables_.find(id);
  if (done != variables_.end()) return done->second;
  const auto& nodes = meta_graph_.object_graph_def().nodes();
  if (id < 0 || id >= nodes.size() || !nodes[id].has_variable()) {
    throw InvalidArgumentError(
        str_cat(path_, ": bound input ", id, " is not a variable node of the object graph"));
  }
  const tensorflow::SavedVariable& sv = nodes[id].variable();
  const std::string what = str_cat(context, ": variable '", sv.name(), "' (object ", id, ")");
  open_object_graph();
  if (id >= trackables_.nodes_size()) {
    throw InvalidArgumentError(
        str_cat(what, ": the checkpoint's object graph has ", trackables_.nodes_size(), " nodes"));
  }
  std::string key;
  for (const auto& a : trackables_.nodes(id).attributes()) {
    if (a.name() == "VARIABLE_VALUE") key = a.checkpoint_key();
  }
  if (key.empty()) {
    throw NotFoundError(str_cat(what, ": no VARIABLE_VALUE in ", dir_, "/", kVariablesPrefix));
  }
  const DType dtype = require_dtype(sv.dtype(), what);
  const PartialShape shape = shape_from_proto(sv.shape(), what);
  Tensor value = read_value(key, what);
  if (value.dtype() != dtype || !shape.is_compatible_with(value.shape())) {
    throw InvalidArgumentError(str_cat(
        what, " is ", dtype_name(value.dtype()), value.shape().to_string(), " in the checkpoint, ",
        dtype_name(dtype), shape.to_string(), " in the object graph"));
  }
  Variable v(value, {.name = sv.name(), .trainable = sv.trainable()});
  variables_.emplace(id, v);
  restored_.push_back({key, v});
  return v;
}

}  // namespace tfcc::saved_model::tf_import
