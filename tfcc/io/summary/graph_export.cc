#include "tfcc/io/summary/graph_export.h"

#include <set>

#include "tfcc/io/checkpoint/bundle_proto.h"
#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/summary_writer.h"

namespace tfcc::summary {
namespace {

tensorflow::DataType tf_type(DType dtype) {
  return static_cast<tensorflow::DataType>(checkpoint::tf_datatype(dtype));
}

void set_shape(const PartialShape& s, tensorflow::TensorShapeProto& out) {
  if (!s.rank_known()) {
    out.set_unknown_rank(true);
    return;
  }
  for (int64_t d : s.dims()) out.add_dim()->set_size(d);
}

// Registry attributes in TensorFlow's AttrValue form. Tensors are shown by their shape;
// variables (resources) by their name.
bool convert_attr(const tfcc::AttrValue& value, tensorflow::AttrValue& out) {
  if (auto* i = std::get_if<int64_t>(&value)) {
    out.set_i(*i);
  } else if (auto* d = std::get_if<double>(&value)) {
    out.set_f(static_cast<float>(*d));
  } else if (auto* b = std::get_if<bool>(&value)) {
    out.set_b(*b);
  } else if (auto* s = std::get_if<std::string>(&value)) {
    out.set_s(*s);
  } else if (auto* t = std::get_if<DType>(&value)) {
    out.set_type(tf_type(*t));
  } else if (auto* is = std::get_if<std::vector<int64_t>>(&value)) {
    out.mutable_list()->mutable_i()->Add(is->begin(), is->end());
  } else if (auto* ds = std::get_if<std::vector<double>>(&value)) {
    for (double x : *ds) out.mutable_list()->add_f(static_cast<float>(x));
  } else if (auto* tensor = std::get_if<Tensor>(&value)) {
    if (!tensor->defined()) return false;
    set_shape(tensor->partial_shape(), *out.mutable_shape());
  } else if (auto* var = std::get_if<std::shared_ptr<VariableState>>(&value)) {
    if (!*var) return false;
    out.set_s((*var)->name);
  } else {
    return false;
  }
  return true;
}

void set_output_shapes(const std::vector<PartialShape>& shapes, NodeDef& def) {
  tensorflow::AttrValue::ListValue* list = (*def.mutable_attr())["_output_shapes"].mutable_list();
  for (const PartialShape& s : shapes) set_shape(s, *list->add_shape());
}

class Exporter {
 public:
  explicit Exporter(GraphDef& out) : out_(out) {}

  void add(const graph::Graph& g, const std::string& prefix, bool with_outputs) {
    auto ref = [&](graph::ValueRef v) {
      std::string name = prefix + g.node(v.node).name;
      if (v.index != 0) name.append(":").append(std::to_string(v.index));
      return name;
    };
    for (const graph::Node& n : g.nodes()) {
      NodeDef& def = *out_.add_node();
      def.set_name(prefix + n.name);
      used_.insert(def.name());
      switch (n.kind) {
        case graph::NodeKind::kArg:
          def.set_op("Placeholder");
          break;
        case graph::NodeKind::kConst:
          def.set_op("Const");
          break;
        default:
          def.set_op(n.type_name());
      }
      for (const auto& in : n.inputs) def.add_input(ref(in));
      auto& attr = *def.mutable_attr();
      for (const auto& [key, value] : n.attrs.items()) {
        tensorflow::AttrValue a;
        if (convert_attr(value, a)) attr[key] = std::move(a);
      }
      if (n.num_outputs() == 1 &&
          (n.kind == graph::NodeKind::kArg || n.kind == graph::NodeKind::kConst)) {
        attr["dtype"].set_type(tf_type(n.dtypes[0]));
      } else if (n.num_outputs() > 0 && !attr.contains("T")) {
        attr["T"].set_type(tf_type(n.dtypes[0]));
      }
      if (n.num_outputs() > 0) set_output_shapes(n.shapes, def);
      static const char* kIfNames[] = {"then", "else"};
      static const char* kWhileNames[] = {"cond", "body"};
      for (size_t i = 0; i < n.subgraphs.size(); ++i) {
        if (!n.subgraphs[i]) continue;
        std::string scope = prefix + n.name + "/";
        if (n.kind == graph::NodeKind::kIf && i < 2) {
          scope += kIfNames[i];
        } else if (n.kind == graph::NodeKind::kWhile && i < 2) {
          scope += kWhileNames[i];
        } else {
          scope += n.subgraphs[i]->name();
        }
        add(*n.subgraphs[i], scope + "/", false);
      }
    }
    if (!with_outputs) return;
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      graph::ValueRef v = g.outputs()[i];
      NodeDef& id = *out_.add_node();
      id.set_name(unique(i == 0 ? "Identity" : "Identity_" + std::to_string(i)));
      id.set_op("Identity");
      id.add_input(ref(v));
      (*id.mutable_attr())["T"].set_type(tf_type(g.dtype(v)));
      set_output_shapes({g.shape(v)}, id);
    }
  }

 private:
  std::string unique(std::string name) {
    std::string candidate = name;
    for (int k = 1; used_.count(candidate); ++k) candidate = name + "_" + std::to_string(k);
    used_.insert(candidate);
    return candidate;
  }

  GraphDef& out_;
  std::set<std::string> used_;
};

}  // namespace

GraphDef to_graph_def(const graph::Graph& g) {
  GraphDef out;
  Exporter(out).add(g, "", true);
  return out;
}

bool graph(const graph::Graph& g) {
  if (!should_record_summaries()) return false;
  return graph(to_graph_def(g));
}

}  // namespace tfcc::summary
