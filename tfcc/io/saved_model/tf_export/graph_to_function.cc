#include "tfcc/io/saved_model/tf_export/graph_to_function.h"

#include <deque>
#include <map>

#include "tfcc/io/saved_model/tf_export/function_builder.h"
#include "tfcc/io/saved_model/tf_export/op_table.h"
#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {

using graph::Node;
using graph::NodeKind;
using ::tfcc::internal::str_cat;

namespace {

// Per variable: its resource argument and the accesses later ones must follow.
struct VariableAccess {
  std::string arg;
  std::string last_write;
  std::vector<std::string> reads_since_write;
};

class Converter {
 public:
  Converter(const graph::Graph& g, const std::string& name) : g_(g), fb_(name) {}

  ConvertedFunction run(std::span<const std::string> input_names,
                        std::span<const std::string> output_names,
                        std::span<const int> output_order) {
    refs_.resize(static_cast<size_t>(g_.num_nodes()));
    std::vector<std::string> args;
    for (size_t i = 0; i < g_.args().size(); ++i) {
      const Node& a = g_.node(g_.args()[i]);
      args.push_back(fb_.add_arg(i < input_names.size() ? input_names[i] : a.name,
                                 tf_dtype(a.dtypes.at(0)), a.shapes.at(0)));
    }
    for (int id = 0; id < g_.num_nodes(); ++id) convert(id, args);
    if (!unsupported_.empty()) {
      std::string list;
      for (const auto& [op, nodes] : unsupported_) {
        list += str_cat("\n  ", op, ": ");
        for (size_t i = 0; i < nodes.size() && i < 5; ++i) list += (i ? ", " : "") + nodes[i];
        if (nodes.size() > 5) list += str_cat(", ... (", nodes.size(), " nodes)");
      }
      throw UnimplementedError(str_cat(
          "SavedModel export (TensorFlow format) of function '", g_.name(),
          "': these ops have no TensorFlow form in the exporter's table "
          "(tfcc/io/saved_model/tf_export/op_table.cc):",
          list));
    }
    for (int k : output_order) {
      const graph::ValueRef v = g_.outputs().at(static_cast<size_t>(k));
      fb_.add_ret(output_names[static_cast<size_t>(k)], ref(v), tf_dtype(g_.dtype(v)));
    }
    if (!variables_.empty()) fb_.set_stateful();
    ConvertedFunction out{fb_.finish(), std::move(variables_)};
    return out;
  }

 private:
  std::string ref(graph::ValueRef v) const {
    return refs_.at(static_cast<size_t>(v.node)).at(static_cast<size_t>(v.index));
  }

  void convert(int id, const std::vector<std::string>& args) {
    const Node& n = g_.node(id);
    auto& out = refs_[static_cast<size_t>(id)];
    switch (n.kind) {
      case NodeKind::kArg:
        out = {args.at(static_cast<size_t>(n.arg_index))};
        return;
      case NodeKind::kConst:
        out = {fb_.add_const(n.value, n.name)};
        return;
      case NodeKind::kOp:
        break;
      case NodeKind::kHostCall:
        throw InvalidArgumentError(str_cat(
            "Function '", g_.name(), "' cannot be exported: node ", n.name, " (", n.type_name(),
            ") at ", graph::location_string(n),
            " runs C++ code (a host callback such as tfcc::print), which an exported model "
            "cannot hold. Remove it from the function."));
      default:
        unsupported_[n.type_name()].push_back(n.name);
        out.assign(static_cast<size_t>(n.num_outputs()), "");
        return;
    }
    const OpRule* rule = n.op ? find_op_rule(n.op->name()) : nullptr;
    if (!rule) {
      unsupported_[n.op ? n.op->name() : n.type_name()].push_back(n.name);
      out.assign(static_cast<size_t>(n.num_outputs()), "");
      return;
    }
    OpContext c{fb_, n, {}, {}, {}};
    for (graph::ValueRef v : n.inputs) c.inputs.push_back(ref(v));
    c.resource = [&](const std::string& attr) { return access(n, attr).arg; };
    c.order = [&](tensorflow::NodeDef& node, const std::string& attr, bool write) {
      VariableAccess& a = access(n, attr);
      if (!a.last_write.empty()) node.add_input("^" + a.last_write);
      if (write) {
        for (const std::string& r : a.reads_since_write) node.add_input("^" + r);
        a.last_write = node.name();
        a.reads_since_write.clear();
      } else {
        a.reads_since_write.push_back(node.name());
      }
    };
    out = (*rule)(c);
    TFCC_REQUIRE(InternalError, out.size() == static_cast<size_t>(n.num_outputs()), "export rule for ",
               n.op->name(), " returned ", out.size(), " outputs, expected ", n.num_outputs());
  }

  VariableAccess& access(const Node& n, const std::string& attr) {
    const AttrValue* v = n.attrs.find(attr);
    const auto* state = v ? std::get_if<std::shared_ptr<VariableState>>(v) : nullptr;
    TFCC_CHECK_ARG(state && *state, "SavedModel export: node ", n.name, " (", n.type_name(),
                   ") has no variable in attribute '", attr, "'");
    for (size_t i = 0; i < variables_.size(); ++i) {
      if (variables_[i] == *state) return accesses_[i];
    }
    variables_.push_back(*state);
    std::string base = (*state)->name.empty() ? "resource" : (*state)->name + "_resource";
    accesses_.push_back({fb_.add_arg(base, tensorflow::DT_RESOURCE, PartialShape({})), "", {}});
    return accesses_.back();
  }

  const graph::Graph& g_;
  FunctionBuilder fb_;
  std::vector<std::vector<std::string>> refs_;
  std::vector<std::shared_ptr<VariableState>> variables_;
  std::deque<VariableAccess> accesses_;
  std::map<std::string, std::vector<std::string>> unsupported_;
};

}  // namespace

ConvertedFunction convert_graph(const graph::Graph& g, const std::string& name,
                                std::span<const std::string> input_names,
                                std::span<const std::string> output_names,
                                std::span<const int> output_order) {
  TFCC_CHECK_ARG(output_names.size() == g.outputs().size(), "convert_graph: ",
                 output_names.size(), " output names for ", g.outputs().size(), " outputs");
  return Converter(g, name).run(input_names, output_names, output_order);
}

}  // namespace tfcc::saved_model::tf_export
