// Builds small TensorFlow SavedModels in C++ with the generated protobuf classes, laid out as
// TensorFlow 2 writes them: Placeholders and VarHandleOps at top level, the forward pass in a
// FunctionDef called by StatefulPartitionedCall (`node:out_arg:index` references inside),
// the object graph binding the call's resource inputs, and the variables in a checkpoint with
// _CHECKPOINTABLE_OBJECT_GRAPH.
#pragma once

#include <unistd.h>

#include <string>
#include <vector>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/io/proto/trackable_object_graph.pb.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model::tf_testing {

using tensorflow::AttrValue;
using tensorflow::NodeDef;

inline std::string temp_dir(const std::string& name) {
  std::string dir = ::tfcc::internal::str_cat(::testing::TempDir(), "tfcc_tf_import_test_",
                                              ::getpid(), "/", name);
  make_dirs(dir);
  return dir;
}

inline AttrValue type_attr(tensorflow::DataType t) {
  AttrValue a;
  a.set_type(t);
  return a;
}

inline AttrValue func_attr(const std::string& f) {
  AttrValue a;
  a.mutable_func()->set_name(f);
  return a;
}

inline AttrValue ints_attr(std::vector<int64_t> v) {
  AttrValue a;
  for (int64_t x : v) a.mutable_list()->add_i(x);
  return a;
}

inline AttrValue types_attr(std::vector<tensorflow::DataType> v) {
  AttrValue a;
  for (auto x : v) a.mutable_list()->add_type(x);
  return a;
}

/// A float32 tensor attribute.
inline AttrValue tensor_attr(const std::vector<float>& values, const std::vector<int64_t>& dims) {
  AttrValue a;
  auto* t = a.mutable_tensor();
  t->set_dtype(tensorflow::DT_FLOAT);
  for (int64_t d : dims) t->mutable_tensor_shape()->add_dim()->set_size(d);
  for (float v : values) t->add_float_val(v);
  return a;
}

inline AttrValue int_tensor_attr(const std::vector<int32_t>& values,
                                 const std::vector<int64_t>& dims) {
  AttrValue a;
  auto* t = a.mutable_tensor();
  t->set_dtype(tensorflow::DT_INT32);
  for (int64_t d : dims) t->mutable_tensor_shape()->add_dim()->set_size(d);
  for (int32_t v : values) t->add_int_val(v);
  return a;
}

/// Adds a node to a repeated NodeDef field.
template <typename Nodes>
NodeDef* add_node(Nodes* nodes, const std::string& name, const std::string& op,
                  std::vector<std::string> inputs, std::map<std::string, AttrValue> attrs = {}) {
  NodeDef* n = nodes->Add();
  n->set_name(name);
  n->set_op(op);
  for (auto& i : inputs) n->add_input(i);
  for (auto& [k, v] : attrs) (*n->mutable_attr())[k] = v;
  return n;
}

inline void add_arg(tensorflow::OpDef* sig, const std::string& name, tensorflow::DataType t,
                    bool output = false) {
  auto* a = output ? sig->add_output_arg() : sig->add_input_arg();
  a->set_name(name);
  a->set_type(t);
}

/// A SavedModel under construction: one meta graph tagged "serve".
struct Builder {
  tensorflow::SavedModel sm;
  tensorflow::MetaGraphDef* mg;
  std::vector<std::pair<std::string, Tensor>> variables;  // checkpoint key, value

  Builder() {
    sm.set_saved_model_schema_version(1);
    mg = sm.add_meta_graphs();
    mg->mutable_meta_info_def()->add_tags("serve");
    mg->mutable_meta_info_def()->set_tensorflow_version("2.21.0");
  }

  tensorflow::GraphDef* graph() { return mg->mutable_graph_def(); }
  tensorflow::FunctionDef* function(const std::string& name) {
    auto* f = graph()->mutable_library()->add_function();
    f->mutable_signature()->set_name(name);
    return f;
  }

  /// A signature: inputs key -> Placeholder node, outputs key -> tensor name.
  void signature(const std::string& key,
                 const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>>>& in,
                 const std::vector<std::pair<std::string, std::string>>& out,
                 tensorflow::DataType in_type = tensorflow::DT_FLOAT) {
    auto& sd = (*mg->mutable_signature_def())[key];
    sd.set_method_name("tensorflow/serving/predict");
    for (const auto& [k, node, dims] : in) {
      auto& ti = (*sd.mutable_inputs())[k];
      ti.set_name(node + ":0");
      ti.set_dtype(in_type);
      for (int64_t d : dims) ti.mutable_tensor_shape()->add_dim()->set_size(d);
      if (!graph_has(node)) {
        AttrValue shape;
        for (int64_t d : dims) shape.mutable_shape()->add_dim()->set_size(d);
        add_node(graph()->mutable_node(), node, "Placeholder", {},
                 {{"dtype", type_attr(in_type)}, {"shape", shape}});
      }
    }
    for (const auto& [k, tensor] : out) {
      auto& ti = (*sd.mutable_outputs())[k];
      ti.set_name(tensor);
      ti.set_dtype(tensorflow::DT_FLOAT);
    }
  }

  bool graph_has(const std::string& node) {
    for (const auto& n : graph()->node()) {
      if (n.name() == node) return true;
    }
    return false;
  }

  /// A float variable: object-graph node (child of the root named `name`), top-level
  /// VarHandleOp `name`, checkpoint key `name/.ATTRIBUTES/VARIABLE_VALUE`. Returns its node id.
  int variable(const std::string& name, const Tensor& value) {
    auto* og = mg->mutable_object_graph_def();
    if (og->nodes_size() == 0)
      og->add_nodes()->mutable_user_object()->set_identifier("_generic_user_object");
    const int id = og->nodes_size();
    auto* child = og->mutable_nodes(0)->add_children();
    child->set_node_id(id);
    child->set_local_name(name);
    auto* v = og->add_nodes()->mutable_variable();
    v->set_dtype(tensorflow::DT_FLOAT);
    v->set_name(name);
    v->set_trainable(true);
    for (int64_t d : value.shape().dims()) v->mutable_shape()->add_dim()->set_size(d);
    AttrValue shape;
    for (int64_t d : value.shape().dims()) shape.mutable_shape()->add_dim()->set_size(d);
    add_node(graph()->mutable_node(), name, "VarHandleOp", {},
             {{"dtype", type_attr(tensorflow::DT_FLOAT)}, {"shape", shape}});
    variables.push_back({name + "/.ATTRIBUTES/VARIABLE_VALUE", value});
    return id;
  }

  /// Binds the resource inputs of calls to `function` to object-graph nodes `ids`.
  void bind(const std::string& function, const std::vector<int>& ids) {
    auto& cf = (*mg->mutable_object_graph_def()->mutable_concrete_functions())[function];
    for (int id : ids) cf.add_bound_inputs(id);
  }

  /// Writes DIR/saved_model.pb and, with variables, DIR/variables/.
  void write(const std::string& dir) {
    make_dirs(dir);
    write_file_atomic(dir + "/saved_model.pb", sm.SerializeAsString());
    if (variables.empty()) return;
    make_dirs(dir + "/variables");
    tensorflow::TrackableObjectGraph tog;
    const auto& og = mg->object_graph_def();
    for (int i = 0; i < og.nodes_size(); ++i) {
      auto* n = tog.add_nodes();
      *n->mutable_children() = og.nodes(i).children();
      if (og.nodes(i).has_variable()) {
        auto* a = n->add_attributes();
        a->set_name("VARIABLE_VALUE");
        a->set_full_name(og.nodes(i).variable().name());
        a->set_checkpoint_key(og.nodes(i).variable().name() + "/.ATTRIBUTES/VARIABLE_VALUE");
      }
    }
    checkpoint::BundleWriter w(dir + "/variables/variables");
    for (const auto& [k, v] : variables) w.add(k, v);
    w.add_strings("_CHECKPOINTABLE_OBJECT_GRAPH", {}, {tog.SerializeAsString()});
    w.finish();
  }
};

}  // namespace tfcc::saved_model::tf_testing
