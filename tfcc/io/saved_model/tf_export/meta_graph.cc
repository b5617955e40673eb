// build_tf_export: signatures -> FunctionDefs, top-level graph, saver, signature_defs, objects.
#include <set>

#include "tfcc/io/saved_model/tf_export/graph_to_function.h"
#include "tfcc/io/saved_model/tf_export/object_graph.h"
#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/io/saved_model/tf_export/tf_saved_model.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {

using ::tfcc::internal::str_cat;

namespace {

// GraphDef version written: a TF 2.x producer; every op used is older than it.
constexpr int kProducer = 1286;
constexpr int kMinConsumer = 12;

std::string unique(std::string base, std::set<std::string>& taken) {
  std::string name = base;
  for (int i = 1; taken.count(name); ++i) name = str_cat(base, "_", i);
  taken.insert(name);
  return name;
}

// The top-level GraphDef, where tensors are "node:index".
class TopLevel {
 public:
  explicit TopLevel(tensorflow::GraphDef* g) : g_(g) {}

  tensorflow::NodeDef& add(const std::string& op, const std::string& base,
                           std::vector<std::string> inputs) {
    tensorflow::NodeDef* n = g_->add_node();
    n->set_name(unique(node_name(base), names_));
    n->set_op(op);
    for (auto& in : inputs) n->add_input(std::move(in));
    return *n;
  }

  std::string string_const(const std::string& base, const std::vector<std::string>& values) {
    tensorflow::NodeDef& c = add("Const", base, {});
    const int64_t n = static_cast<int64_t>(values.size());
    set_string_tensor(values, std::span<const int64_t>(&n, 1),
                      (*c.mutable_attr())["value"].mutable_tensor());
    (*c.mutable_attr())["dtype"].set_type(tensorflow::DT_STRING);
    return c.name() + ":0";
  }

 private:
  tensorflow::GraphDef* g_;
  std::set<std::string> names_;
};

void set_types(tensorflow::AttrValue* v, const std::vector<tensorflow::DataType>& types) {
  auto* list = v->mutable_list();
  for (auto t : types) list->add_type(t);
}

// Signature input keys: the traced input names, made unique.
std::vector<TensorSpec> input_specs(const ConcreteFunction& fn) {
  std::vector<TensorSpec> out;
  std::set<std::string> taken;
  const graph::Graph& g = fn.graph();
  for (size_t i = 0; i < g.args().size(); ++i) {
    const graph::Node& arg = g.node(g.args()[i]);
    std::string base = arg.name;
    if (i < fn.input_specs().size() && !fn.input_specs()[i].name.empty()) {
      base = fn.input_specs()[i].name;
    }
    out.push_back(
        {arg.shapes.at(0), arg.dtypes.at(0), unique(base.empty() ? "input" : base, taken)});
  }
  return out;
}

}  // namespace

TfExport build_tf_export(const Module& module,
                         const std::map<std::string, ConcreteFunction>& signatures) {
  TFCC_CHECK_ARG(!signatures.empty(), "saved_model::save needs at least one signature");
  TfExport out;
  tensorflow::MetaGraphDef* mg = out.saved_model.add_meta_graphs();
  out.saved_model.set_saved_model_schema_version(1);
  mg->mutable_meta_info_def()->add_tags("serve");
  tensorflow::GraphDef* gd = mg->mutable_graph_def();
  gd->mutable_versions()->set_producer(kProducer);
  gd->mutable_versions()->set_min_consumer(kMinConsumer);

  // 1. One FunctionDef per signature; the variables they use, in first-use order.
  std::vector<ExportVariable> variables;
  std::vector<ExportSignature> sigs;
  int counter = 0;
  for (const auto& [key, fn] : signatures) {
    TFCC_CHECK_ARG(!key.empty(), "saved_model::save: a signature has an empty name");
    TFCC_CHECK_ARG(fn.defined(), "saved_model::save: signature '", key,
                   "' is an undefined ConcreteFunction");
    ExportSignature s;
    s.key = key;
    s.function = str_cat("__inference_", arg_name(key), "_", ++counter);
    s.inputs = input_specs(fn);
    const graph::Graph& g = fn.graph();
    std::vector<std::string> in_names, out_names;
    for (const TensorSpec& in : s.inputs) in_names.push_back(in.name);
    std::map<std::string, int> by_name;  // TensorFlow flattens outputs in sorted key order
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      out_names.push_back(str_cat("output_", i));
      by_name[out_names.back()] = static_cast<int>(i);
    }
    std::vector<int> order;
    for (const auto& [name, i] : by_name) {
      order.push_back(i);
      s.outputs.push_back({g.shape(g.outputs()[static_cast<size_t>(i)]),
                           g.dtype(g.outputs()[static_cast<size_t>(i)]), name});
    }
    ConvertedFunction cf = convert_graph(g, s.function, in_names, out_names, order);
    for (const auto& state : cf.variables) {
      int index = -1;
      for (size_t i = 0; i < variables.size(); ++i) {
        if (variables[i].state == state) index = static_cast<int>(i);
      }
      if (index < 0) {
        index = static_cast<int>(variables.size());
        variables.push_back({"", state});
      }
      s.bound_variables.push_back(index);
    }
    for (tensorflow::FunctionDef& f : cf.library)
      *gd->mutable_library()->add_function() = std::move(f);
    *gd->mutable_library()->add_function() = std::move(cf.def);
    sigs.push_back(std::move(s));
  }

  // 2. Variable paths in the module (the keys tfcc's checkpoints use), then the objects.
  std::vector<std::pair<std::string, Variable>> named = module.named_variables();
  for (size_t i = 0; i < variables.size(); ++i) {
    variables[i].path = str_cat("_captured/", i);
    for (const auto& [p, v] : named) {
      if (v.state_ptr() == variables[i].state) {
        variables[i].path = p;
        break;
      }
    }
  }
  ObjectGraphs objects = build_object_graphs(variables, sigs);
  out.keys = objects.checkpoint_keys;
  for (const ExportVariable& v : variables) {
    std::lock_guard<std::mutex> lock(v.state->mu);
    out.values.push_back(v.state->value);
  }
  out.object_graph = objects.trackable.SerializeAsString();
  *mg->mutable_object_graph_def() = std::move(objects.saved);

  // 3. Top level: a handle per variable, and per signature its placeholders and call.
  TopLevel top(gd);
  std::vector<std::string> handles;
  for (size_t i = 0; i < variables.size(); ++i) {
    tensorflow::NodeDef& h = top.add("VarHandleOp", variables[i].path, {});
    auto& attrs = *h.mutable_attr();
    attrs["dtype"].set_type(tf_dtype(out.values[i].dtype()));
    set_shape(out.values[i].shape(), attrs["shape"].mutable_shape());
    attrs["shared_name"].set_s(h.name());
    attrs["container"].set_s("");
    handles.push_back(h.name());
  }
  for (const ExportSignature& s : sigs) {
    tensorflow::SignatureDef& def = (*mg->mutable_signature_def())[s.key];
    def.set_method_name("tensorflow/serving/predict");
    std::vector<std::string> call_inputs;
    std::vector<tensorflow::DataType> tin, tout;
    for (const TensorSpec& in : s.inputs) {
      tensorflow::NodeDef& p = top.add("Placeholder", str_cat(s.key, "_", in.name), {});
      (*p.mutable_attr())["dtype"].set_type(tf_dtype(in.dtype));
      set_shape(in.shape, (*p.mutable_attr())["shape"].mutable_shape());
      tensorflow::TensorInfo& info = (*def.mutable_inputs())[in.name];
      info.set_name(p.name() + ":0");
      info.set_dtype(tf_dtype(in.dtype));
      set_shape(in.shape, info.mutable_tensor_shape());
      call_inputs.push_back(p.name());
      tin.push_back(tf_dtype(in.dtype));
    }
    for (int v : s.bound_variables) {
      call_inputs.push_back(handles.at(static_cast<size_t>(v)));
      tin.push_back(tensorflow::DT_RESOURCE);
    }
    for (const TensorSpec& o : s.outputs) tout.push_back(tf_dtype(o.dtype));
    tensorflow::NodeDef& call =
        top.add("StatefulPartitionedCall", "StatefulPartitionedCall", std::move(call_inputs));
    auto& attrs = *call.mutable_attr();
    attrs["f"].mutable_func()->set_name(s.function);
    set_types(&attrs["Tin"], tin);
    set_types(&attrs["Tout"], tout);
    for (const char* empty : {"config", "config_proto", "executor_type"}) attrs[empty].set_s("");
    for (size_t k = 0; k < s.outputs.size(); ++k) {
      tensorflow::TensorInfo& info = (*def.mutable_outputs())[s.outputs[k].name];
      info.set_name(str_cat(call.name(), ":", k));
      info.set_dtype(tf_dtype(s.outputs[k].dtype));
      set_shape(s.outputs[k].shape, info.mutable_tensor_shape());
    }
  }

  // 4. The saver TensorFlow 1-style loaders run: restore reads every key into its handle.
  // RestoreV2 / SaveV2 need at least one tensor; without variables there is nothing to restore.
  if (variables.empty()) return out;
  tensorflow::NodeDef& filename = top.add("Placeholder", "saver_filename", {});
  (*filename.mutable_attr())["dtype"].set_type(tensorflow::DT_STRING);
  (*filename.mutable_attr())["shape"].mutable_shape();
  const std::string prefix = filename.name() + ":0";
  std::vector<tensorflow::DataType> dtypes;
  for (const Tensor& v : out.values) dtypes.push_back(tf_dtype(v.dtype()));
  const std::vector<std::string> slices(variables.size(), "");

  tensorflow::NodeDef& restore =
      top.add("RestoreV2", "RestoreV2",
              {prefix, top.string_const("RestoreV2/tensor_names", out.keys),
               top.string_const("RestoreV2/shape_and_slices", slices)});
  restore.set_device("/device:CPU:0");
  set_types(&(*restore.mutable_attr())["dtypes"], dtypes);
  const std::string restore_name = restore.name();
  std::vector<std::string> assigned;
  for (size_t i = 0; i < variables.size(); ++i) {
    tensorflow::NodeDef& a =
        top.add("AssignVariableOp", "Assign", {handles[i], str_cat(restore_name, ":", i)});
    (*a.mutable_attr())["dtype"].set_type(dtypes[i]);
    assigned.push_back("^" + a.name());
  }
  tensorflow::NodeDef& restore_all = top.add("NoOp", "restore_all", std::move(assigned));

  std::vector<std::string> save_inputs = {prefix, top.string_const("SaveV2/tensor_names", out.keys),
                                          top.string_const("SaveV2/shape_and_slices", slices)};
  for (size_t i = 0; i < variables.size(); ++i) {
    tensorflow::NodeDef& r = top.add("ReadVariableOp", handles[i] + "/Read", {handles[i]});
    (*r.mutable_attr())["dtype"].set_type(dtypes[i]);
    save_inputs.push_back(r.name() + ":0");
  }
  tensorflow::NodeDef& save = top.add("SaveV2", "SaveV2", std::move(save_inputs));
  save.set_device("/device:CPU:0");
  set_types(&(*save.mutable_attr())["dtypes"], dtypes);
  tensorflow::NodeDef& saved = top.add("Identity", "saver_save", {prefix, "^" + save.name()});
  (*saved.mutable_attr())["T"].set_type(tensorflow::DT_STRING);

  tensorflow::SaverDef* saver = mg->mutable_saver_def();
  saver->set_filename_tensor_name(prefix);
  saver->set_save_tensor_name(saved.name() + ":0");
  saver->set_restore_op_name(restore_all.name());
  saver->set_version(tensorflow::SaverDef::V2);
  return out;
}

}  // namespace tfcc::saved_model::tf_export
