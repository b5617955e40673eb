#include "tfcc/io/summary/graph_export.h"

#include <set>

#include "tfcc/io/checkpoint/bundle_proto.h"
#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/summary_writer.h"

namespace tfcc::summary {
namespace {

ShapeAttr shape_attr(const PartialShape& s) {
  ShapeAttr out;
  if (!s.rank_known()) {
    out.unknown_rank = true;
  } else {
    out.dims = s.dims();
  }
  return out;
}

// Registry attributes in TensorFlow's AttrValue form. Tensors are shown by their shape;
// variables (resources) by their name.
bool convert_attr(const tfcc::AttrValue& value, AttrValue& out) {
  if (auto* i = std::get_if<int64_t>(&value)) {
    out = AttrValue::integer(*i);
  } else if (auto* d = std::get_if<double>(&value)) {
    out = AttrValue::floating(static_cast<float>(*d));
  } else if (auto* b = std::get_if<bool>(&value)) {
    out = AttrValue::boolean(*b);
  } else if (auto* s = std::get_if<std::string>(&value)) {
    out = AttrValue::string(*s);
  } else if (auto* t = std::get_if<DType>(&value)) {
    out = AttrValue::type_of(checkpoint::tf_datatype(*t));
  } else if (auto* is = std::get_if<std::vector<int64_t>>(&value)) {
    out = AttrValue::int_list(*is);
  } else if (auto* ds = std::get_if<std::vector<double>>(&value)) {
    out = AttrValue::float_list(std::vector<float>(ds->begin(), ds->end()));
  } else if (auto* tensor = std::get_if<Tensor>(&value)) {
    if (!tensor->defined()) return false;
    out = AttrValue::shape_of(shape_attr(tensor->partial_shape()));
  } else if (auto* var = std::get_if<std::shared_ptr<VariableState>>(&value)) {
    if (!*var) return false;
    out = AttrValue::string((*var)->name);
  } else {
    return false;
  }
  return true;
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
      NodeDef def;
      def.name = prefix + n.name;
      used_.insert(def.name);
      switch (n.kind) {
        case graph::NodeKind::kArg:
          def.op = "Placeholder";
          break;
        case graph::NodeKind::kConst:
          def.op = "Const";
          break;
        default:
          def.op = n.type_name();
      }
      for (const auto& in : n.inputs) def.input.push_back(ref(in));
      for (const auto& [key, value] : n.attrs.items()) {
        AttrValue a;
        if (convert_attr(value, a)) def.attr[key] = std::move(a);
      }
      if (n.num_outputs() == 1 &&
          (n.kind == graph::NodeKind::kArg || n.kind == graph::NodeKind::kConst)) {
        def.attr["dtype"] = AttrValue::type_of(checkpoint::tf_datatype(n.dtypes[0]));
      } else if (n.num_outputs() > 0 && !def.attr.count("T")) {
        def.attr["T"] = AttrValue::type_of(checkpoint::tf_datatype(n.dtypes[0]));
      }
      if (n.num_outputs() > 0) {
        std::vector<ShapeAttr> shapes;
        for (const auto& s : n.shapes) shapes.push_back(shape_attr(s));
        def.attr["_output_shapes"] = AttrValue::shape_list(std::move(shapes));
      }
      out_.node.push_back(std::move(def));
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
      NodeDef id;
      id.name = unique(i == 0 ? "Identity" : "Identity_" + std::to_string(i));
      id.op = "Identity";
      id.input.push_back(ref(v));
      id.attr["T"] = AttrValue::type_of(checkpoint::tf_datatype(g.dtype(v)));
      id.attr["_output_shapes"] = AttrValue::shape_list({shape_attr(g.shape(v))});
      out_.node.push_back(std::move(id));
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
