// Restoring an imported SavedModel's variables through the object graph (variables.h).
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

}  // namespace

VariableStore::VariableStore(std::string dir, const tensorflow::MetaGraphDef& meta_graph,
                             const LoadOptions& options, int64_t* tensor_budget, std::string path)
    : dir_(std::move(dir)),
      meta_graph_(meta_graph),
      options_(options),
      budget_(tensor_budget),
      path_(std::move(path)) {
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

void VariableStore::open_checkpoint() {
  if (reader_) return;
  const std::string prefix = str_cat(dir_, "/", kVariablesPrefix);
  if (!file_exists(checkpoint::index_filename(prefix))) {
    throw NotFoundError(str_cat(dir_, ": the model has variables but ",
                                checkpoint::index_filename(prefix), " does not exist"));
  }
  reader_ = std::make_unique<checkpoint::BundleReader>(prefix);
  if (!reader_->contains(kObjectGraphKey)) {
    throw InvalidArgumentError(str_cat(prefix, ": no ", kObjectGraphKey,
                                       " (needed to match variables to checkpoint keys)"));
  }
  std::vector<std::string> s = reader_->read_strings(kObjectGraphKey);
  if (s.size() != 1 || !trackables_.ParseFromString(s[0])) {
    throw DataLossError(str_cat(prefix, ": ", kObjectGraphKey, " is not a TrackableObjectGraph"));
  }
}

Variable VariableStore::handle(const std::string& node, const std::string& context) {
  auto it = handle_objects_.find(node);
  if (it == handle_objects_.end()) {
    throw UnimplementedError(
        str_cat(context, ": VarHandleOp '", node,
                "' is bound by no function of the object graph; only TensorFlow 2 SavedModels "
                "(object_graph_def with bound_inputs) have their variables restored"));
  }
  return read(it->second, context);
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
  open_checkpoint();
  if (id >= trackables_.nodes_size()) {
    throw InvalidArgumentError(
        str_cat(what, ": the checkpoint's object graph has ", trackables_.nodes_size(), " nodes"));
  }
  std::string key;
  for (const auto& a : trackables_.nodes(id).attributes()) {
    if (a.name() == "VARIABLE_VALUE") key = a.checkpoint_key();
  }
  if (key.empty() || !reader_->contains(key)) {
    throw NotFoundError(str_cat(what, ": no value in ", dir_, "/", kVariablesPrefix,
                                key.empty() ? "" : str_cat(" (key '", key, "')")));
  }
  const DType dtype = require_dtype(sv.dtype(), what);
  const PartialShape shape = shape_from_proto(sv.shape(), what);
  // The reader checks the stored size against the data file before allocating.
  Tensor value = reader_->read_tensor(key);
  const auto nbytes = static_cast<int64_t>(value.nbytes());
  if (nbytes > *budget_) {
    throw InvalidArgumentError(str_cat(what, ": exceeds the tensor byte limit ",
                                       options_.max_tensor_bytes,
                                       " (LoadOptions::max_tensor_bytes)"));
  }
  *budget_ -= nbytes;
  if (value.dtype() != dtype || !shape.is_compatible_with(value.shape())) {
    throw InvalidArgumentError(str_cat(
        what, " is ", dtype_name(value.dtype()), value.shape().to_string(), " in the checkpoint, ",
        dtype_name(dtype), shape.to_string(), " in the object graph"));
  }
  Variable v(value, {.name = sv.name(), .trainable = sv.trainable()});
  variables_.emplace(id, v);
  keys_.emplace(id, key);
  return v;
}

}  // namespace tfcc::saved_model::tf_import
