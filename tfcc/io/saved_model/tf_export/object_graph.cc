#include "tfcc/io/saved_model/tf_export/object_graph.h"

#include <map>

#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {

using ::tfcc::internal::str_cat;

namespace {

// TensorFlow's escaping of one object name inside a checkpoint key.
std::string escape(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '.') {
      out += "..";
    } else if (c == '/') {
      out += ".S";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

class Builder {
 public:
  Builder() { add_user_object("_generic_user_object"); }

  int add_user_object(const std::string& identifier) {
    tensorflow::SavedObject* o = out_.saved.add_nodes();
    o->mutable_user_object()->set_identifier(identifier);
    o->mutable_user_object()->mutable_version()->set_producer(1);
    o->mutable_user_object()->mutable_version()->set_min_consumer(1);
    out_.trackable.add_nodes();
    is_variable_.push_back(false);
    children_.emplace_back();
    return out_.saved.nodes_size() - 1;
  }

  void add_child(int parent, const std::string& name, int child) {
    for (auto* refs : {out_.saved.mutable_nodes(parent)->mutable_children(),
                       out_.trackable.mutable_nodes(parent)->mutable_children()}) {
      auto* ref = refs->Add();
      ref->set_node_id(child);
      ref->set_local_name(name);
    }
    children_[static_cast<size_t>(parent)][name] = child;
  }

  // The node reached from the root by `parts` (all but the last), created as needed; -1 when a
  // variable is in the way or the last part is taken.
  int parent_for(const std::vector<std::string>& parts) {
    int node = 0;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (parts[i].empty()) return -1;
      auto& kids = children_[static_cast<size_t>(node)];
      auto it = kids.find(parts[i]);
      if (it == kids.end()) {
        int child = add_user_object("_generic_user_object");
        add_child(node, parts[i], child);
        node = child;
      } else if (is_variable_[static_cast<size_t>(it->second)]) {
        return -1;
      } else {
        node = it->second;
      }
    }
    if (parts.back().empty() || children_[static_cast<size_t>(node)].count(parts.back())) {
      return -1;
    }
    return node;
  }

  int add_variable(const ExportVariable& v, int index) {
    std::vector<std::string> parts = split_path(v.path);
    int parent = parts.front() == "signatures" ? -1 : parent_for(parts);
    if (parent < 0) {
      parts = {"_variables", str_cat(index)};
      parent = parent_for(parts);
    }
    TFCC_REQUIRE(InternalError, parent >= 0, "object graph: no place for variable ", index);
    tensorflow::SavedObject* o = out_.saved.add_nodes();
    tensorflow::SavedVariable* sv = o->mutable_variable();
    {
      std::lock_guard<std::mutex> lock(v.state->mu);
      sv->set_dtype(tf_dtype(v.state->dtype));
      set_shape(v.state->shape, sv->mutable_shape());
      sv->set_trainable(v.state->trainable);
      sv->set_name(v.state->name);
    }
    const int id = out_.saved.nodes_size() - 1;
    is_variable_.push_back(true);
    children_.emplace_back();
    add_child(parent, parts.back(), id);
    std::string key;
    for (const std::string& p : parts) key += escape(p) + "/";
    key += ".ATTRIBUTES/VARIABLE_VALUE";
    auto* attribute = out_.trackable.add_nodes()->add_attributes();
    attribute->set_name("VARIABLE_VALUE");
    attribute->set_full_name(v.state->name);
    attribute->set_checkpoint_key(key);
    out_.checkpoint_keys.push_back(key);
    return id;
  }

  void add_signatures(const std::vector<ExportSignature>& signatures,
                      const std::vector<int>& variable_nodes) {
    const int map = add_user_object("signature_map");
    add_child(0, "signatures", map);
    for (const ExportSignature& s : signatures) {
      tensorflow::SavedObject* o = out_.saved.add_nodes();
      auto* fn = o->mutable_bare_concrete_function();
      fn->set_concrete_function_name(s.function);
      for (const TensorSpec& in : s.inputs) fn->add_argument_keywords(in.name);
      out_.trackable.add_nodes();
      is_variable_.push_back(false);
      children_.emplace_back();
      add_child(map, s.key, out_.saved.nodes_size() - 1);

      tensorflow::SavedConcreteFunction& cf =
          (*out_.saved.mutable_concrete_functions())[s.function];
      for (int v : s.bound_variables)
        cf.add_bound_inputs(variable_nodes.at(static_cast<size_t>(v)));
      // Signature functions take keyword arguments only: ((), {name: spec}) -> {name: spec}.
      auto* args = cf.mutable_canonicalized_input_signature()->mutable_tuple_value();
      args->add_values()->mutable_tuple_value();
      auto* kwargs = args->add_values()->mutable_dict_value()->mutable_fields();
      for (const TensorSpec& in : s.inputs) set_tensor_spec(in, &(*kwargs)[in.name]);
      auto* outs = cf.mutable_output_signature()->mutable_dict_value()->mutable_fields();
      for (const TensorSpec& o : s.outputs) set_tensor_spec(o, &(*outs)[o.name]);
    }
  }

  ObjectGraphs finish() { return std::move(out_); }

 private:
  ObjectGraphs out_;
  std::vector<bool> is_variable_;
  std::vector<std::map<std::string, int>> children_;
};

}  // namespace

void set_tensor_spec(const TensorSpec& spec, tensorflow::StructuredValue* out) {
  auto* t = out->mutable_tensor_spec_value();
  t->set_name(spec.name);
  set_shape(spec.shape, t->mutable_shape());
  t->set_dtype(tf_dtype(spec.dtype));
}

ObjectGraphs build_object_graphs(const std::vector<ExportVariable>& variables,
                                 const std::vector<ExportSignature>& signatures) {
  Builder b;
  std::vector<int> nodes;
  for (size_t i = 0; i < variables.size(); ++i) {
    nodes.push_back(b.add_variable(variables[i], static_cast<int>(i)));
  }
  b.add_signatures(signatures, nodes);
  return b.finish();
}

}  // namespace tfcc::saved_model::tf_export
