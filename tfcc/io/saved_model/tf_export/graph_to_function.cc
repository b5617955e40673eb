#include "tfcc/io/saved_model/tf_export/graph_to_function.h"

#include <algorithm>
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

using VariablePtr = std::shared_ptr<VariableState>;

// Per variable: its resource argument and the accesses later ones must follow.
struct VariableAccess {
  std::string arg;
  std::string last_write;
  std::vector<std::string> reads_since_write;
};

// What nested conversions share: the FunctionDefs of If / While branches and bodies, and the
// ops found without a TensorFlow form (reported together at the end).
struct Library {
  std::vector<tensorflow::FunctionDef> functions;
  std::map<std::string, std::vector<std::string>> unsupported;
  std::string prefix;
  int counter = 0;
};

// The variables a graph and its subgraphs use, in first-use order, appended to `out`.
void collect_variables(const graph::Graph& g, std::vector<VariablePtr>& out) {
  for (const Node& n : g.nodes()) {
    for (const auto& [key, value] : n.attrs.items()) {
      const auto* v = std::get_if<VariablePtr>(&value);
      if (v && *v && std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
    }
    for (const auto& sub : n.subgraphs) collect_variables(*sub, out);
  }
}

class Converter {
 public:
  Converter(const graph::Graph& g, const std::string& name, Library& lib)
      : g_(g), fb_(name), lib_(lib) {
    refs_.resize(static_cast<size_t>(g_.num_nodes()));
    graph_args_.resize(g_.args().size());
  }

  // Arguments, in the FunctionDef's order: graph argument i, an argument the graph does not use,
  // or the resources of `variables` (which the conversion then uses instead of adding its own).
  std::string add_graph_arg(size_t i, std::string_view name) {
    const Node& a = g_.node(g_.args().at(i));
    graph_args_[i] = fb_.add_arg(name.empty() ? std::string_view(a.name) : name,
                                 tf_dtype(a.dtypes.at(0)), a.shapes.at(0));
    return graph_args_[i];
  }
  std::string add_unused_arg(tensorflow::DataType dtype, const PartialShape& shape) {
    return fb_.add_arg("unused", dtype, shape);
  }
  std::vector<std::string> add_resources(const std::vector<VariablePtr>& variables) {
    std::vector<std::string> refs;
    for (const VariablePtr& v : variables) refs.push_back(add_resource(v).arg);
    return refs;
  }

  void convert_nodes() {
    for (int id = 0; id < g_.num_nodes(); ++id) convert(id);
  }
  std::string output(size_t k) const { return ref(g_.outputs().at(k)); }
  FunctionBuilder& fb() { return fb_; }
  const std::vector<VariablePtr>& variables() const { return variables_; }

  ConvertedFunction finish() {
    if (!variables_.empty()) fb_.set_stateful();
    return {fb_.finish(), std::move(variables_), {}};
  }

 private:
  std::string ref(graph::ValueRef v) const {
    return refs_.at(static_cast<size_t>(v.node)).at(static_cast<size_t>(v.index));
  }

  void convert(int id) {
    const Node& n = g_.node(id);
    auto& out = refs_[static_cast<size_t>(id)];
    out.assign(static_cast<size_t>(n.num_outputs()), "");
    std::vector<std::string> inputs;
    for (graph::ValueRef v : n.inputs) inputs.push_back(ref(v));
    switch (n.kind) {
      case NodeKind::kArg:
        out = {graph_args_.at(static_cast<size_t>(n.arg_index))};
        return;
      case NodeKind::kConst:
        out = {fb_.add_const(n.value, n.name)};
        return;
      case NodeKind::kHostCall:
        throw InvalidArgumentError(
            str_cat("Function '", g_.name(), "' cannot be exported: node ", n.name, " (",
                    n.type_name(), ") at ", graph::location_string(n),
                    " runs C++ code (a host callback such as tfcc::print), which an exported model "
                    "cannot hold. Remove it from the function."));
      case NodeKind::kIf:
        out = convert_if(n, inputs);
        return;
      case NodeKind::kWhile:
        if (n.keep_history) {
          lib_.unsupported["While (with gradient history)"].push_back(n.name);
          return;
        }
        out = convert_while(n, inputs);
        return;
      case NodeKind::kOp:
        break;
    }
    const OpRule* rule = n.op ? find_op_rule(n.op->name()) : nullptr;
    if (!rule) {
      lib_.unsupported[n.op ? n.op->name() : n.type_name()].push_back(n.name);
      return;
    }
    OpContext c{fb_, n, std::move(inputs), {}, {}};
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
    TFCC_REQUIRE(InternalError, out.size() == static_cast<size_t>(n.num_outputs()),
                 "export rule for ", n.op->name(), " returned ", out.size(), " outputs, expected ",
                 n.num_outputs());
  }

  std::string sub_name(const Node& n, const char* role) {
    return str_cat(lib_.prefix, "_", arg_name(n.name), "_", role, "_", ++lib_.counter);
  }

  // If(pred, then_inputs + else_inputs + resources): each branch takes every input and uses its
  // own; both take the resources either branch uses.
  std::vector<std::string> convert_if(const Node& n, const std::vector<std::string>& inputs) {
    const graph::Graph& then_g = *n.subgraphs.at(0);
    const graph::Graph& else_g = *n.subgraphs.at(1);
    std::vector<VariablePtr> vars;
    collect_variables(then_g, vars);
    collect_variables(else_g, vars);
    const size_t nt = then_g.args().size(), ne = else_g.args().size();
    std::vector<std::string> names;
    for (const graph::Graph* branch : {&then_g, &else_g}) {
      const std::string name = sub_name(n, branch == &then_g ? "then" : "else");
      Converter c(*branch, name, lib_);
      for (size_t i = 0; i < nt; ++i) {
        const Node& a = then_g.node(then_g.args()[i]);
        if (branch == &then_g) {
          c.add_graph_arg(i, "");
        } else {
          c.add_unused_arg(tf_dtype(a.dtypes[0]), a.shapes[0]);
        }
      }
      for (size_t i = 0; i < ne; ++i) {
        const Node& a = else_g.node(else_g.args()[i]);
        if (branch == &else_g) {
          c.add_graph_arg(i, "");
        } else {
          c.add_unused_arg(tf_dtype(a.dtypes[0]), a.shapes[0]);
        }
      }
      c.add_resources(vars);
      c.convert_nodes();
      for (size_t k = 0; k < branch->outputs().size(); ++k) {
        c.fb().add_ret(str_cat("output_", k), c.output(k),
                       tf_dtype(branch->dtype(branch->outputs()[k])));
      }
      lib_.functions.push_back(c.finish().def);
      names.push_back(name);
    }
    std::vector<std::string> in(inputs.begin(), inputs.end());
    std::vector<tensorflow::DataType> tin;
    for (size_t i = 1; i < n.inputs.size(); ++i) tin.push_back(tf_dtype(g_.dtype(n.inputs[i])));
    for (const VariablePtr& v : vars) {
      in.push_back(add_resource(v).arg);
      tin.push_back(tensorflow::DT_RESOURCE);
    }
    tensorflow::NodeDef& node = fb_.add_node("If", n.name, std::move(in));
    auto& attrs = *node.mutable_attr();
    attrs["Tcond"].set_type(tf_dtype(g_.dtype(n.inputs[0])));
    for (auto t : tin) attrs["Tin"].mutable_list()->add_type(t);
    attrs["Tin"].mutable_list();
    for (DType t : n.dtypes) attrs["Tout"].mutable_list()->add_type(tf_dtype(t));
    attrs["Tout"].mutable_list();
    attrs["then_branch"].mutable_func()->set_name(names[0]);
    attrs["else_branch"].mutable_func()->set_name(names[1]);
    order_all(node, vars);
    std::vector<std::string> out;
    for (int k = 0; k < n.num_outputs(); ++k)
      out.push_back(FunctionBuilder::ref(node, "output", k));
    return out;
  }

  // While over loop_vars + cond captures + body captures + resources (+ an iteration counter for
  // maximum_iterations): cond and body take all of them; body passes the extra ones through.
  std::vector<std::string> convert_while(const Node& n, const std::vector<std::string>& inputs) {
    const graph::Graph& cond_g = *n.subgraphs.at(0);
    const graph::Graph& body_g = *n.subgraphs.at(1);
    std::vector<VariablePtr> vars;
    collect_variables(cond_g, vars);
    collect_variables(body_g, vars);
    const size_t nv = static_cast<size_t>(n.split);
    const size_t nc = static_cast<size_t>(n.cond_captures);
    const bool counted = n.maximum_iterations >= 0;
    std::vector<std::pair<tensorflow::DataType, PartialShape>> types;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      types.emplace_back(tf_dtype(g_.dtype(n.inputs[i])),
                         i < nv ? n.shapes[i] : g_.shape(n.inputs[i]));
    }
    const std::string cond_name = sub_name(n, "cond"), body_name = sub_name(n, "body");
    // Argument i of the TF function -> graph argument of the tfcc subgraph (or none).
    auto declare = [&](Converter& c, bool is_cond) {
      std::vector<std::string> refs;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const bool own = i < nv || (is_cond ? i < nv + nc : i >= nv + nc);
        if (own) {
          refs.push_back(c.add_graph_arg(i < nv ? i : (is_cond ? i : i - nc), ""));
        } else {
          refs.push_back(c.add_unused_arg(types[i].first, types[i].second));
        }
      }
      std::vector<std::string> res = c.add_resources(vars);
      refs.insert(refs.end(), res.begin(), res.end());
      if (counted) refs.push_back(c.add_unused_arg(tensorflow::DT_INT32, PartialShape({})));
      return refs;
    };
    {
      Converter c(cond_g, cond_name, lib_);
      std::vector<std::string> args = declare(c, true);
      c.convert_nodes();
      std::string result = c.output(0);
      if (counted) {
        std::string limit = c.fb().add_scalar_const(
            int32, static_cast<double>(n.maximum_iterations), "maximum_iterations");
        tensorflow::NodeDef& less = c.fb().add_node("Less", "Less", {args.back(), limit});
        FunctionBuilder::set_type(less, "T", int32);
        tensorflow::NodeDef& both =
            c.fb().add_node("LogicalAnd", "LogicalAnd", {FunctionBuilder::ref(less, "z"), result});
        result = FunctionBuilder::ref(both, "z");
      }
      c.fb().add_ret("output", result, tf_dtype(cond_g.dtype(cond_g.outputs()[0])));
      lib_.functions.push_back(c.finish().def);
    }
    {
      Converter c(body_g, body_name, lib_);
      std::vector<std::string> args = declare(c, false);
      c.convert_nodes();
      for (size_t k = 0; k < args.size(); ++k) {
        std::string r;
        tensorflow::DataType t;
        if (k < nv) {
          r = c.output(k);
          t = tf_dtype(body_g.dtype(body_g.outputs()[k]));
        } else if (k < n.inputs.size()) {
          r = args[k];
          t = types[k].first;
        } else if (k < n.inputs.size() + vars.size()) {
          r = args[k];
          t = tensorflow::DT_RESOURCE;
        } else {
          std::string one = c.fb().add_scalar_const(int32, 1, "one");
          tensorflow::NodeDef& next = c.fb().add_node("AddV2", "iteration", {args[k], one});
          FunctionBuilder::set_type(next, "T", int32);
          r = FunctionBuilder::ref(next, "z");
          t = tensorflow::DT_INT32;
        }
        c.fb().add_ret(str_cat("output_", k), r, t);
      }
      lib_.functions.push_back(c.finish().def);
    }
    std::vector<std::string> in(inputs.begin(), inputs.end());
    std::vector<tensorflow::DataType> t;
    for (const auto& [dtype, shape] : types) t.push_back(dtype);
    for (const VariablePtr& v : vars) {
      in.push_back(add_resource(v).arg);
      t.push_back(tensorflow::DT_RESOURCE);
    }
    if (counted) {
      in.push_back(fb_.add_scalar_const(int32, 0, n.name + "/iterations"));
      t.push_back(tensorflow::DT_INT32);
    }
    tensorflow::NodeDef& node = fb_.add_node("While", n.name, std::move(in));
    auto& attrs = *node.mutable_attr();
    for (auto type : t) attrs["T"].mutable_list()->add_type(type);
    attrs["cond"].mutable_func()->set_name(cond_name);
    attrs["body"].mutable_func()->set_name(body_name);
    attrs["parallel_iterations"].set_i(10);
    order_all(node, vars);
    std::vector<std::string> out;
    for (size_t k = 0; k < nv; ++k)
      out.push_back(FunctionBuilder::ref(node, "output", static_cast<int>(k)));
    return out;
  }

  // A node that may read or write any of `vars` follows (and precedes) every access to them.
  void order_all(tensorflow::NodeDef& node, const std::vector<VariablePtr>& vars) {
    for (const VariablePtr& v : vars) {
      VariableAccess& a = add_resource(v);
      if (!a.last_write.empty()) node.add_input("^" + a.last_write);
      for (const std::string& r : a.reads_since_write) node.add_input("^" + r);
      a.last_write = node.name();
      a.reads_since_write.clear();
    }
  }

  VariableAccess& add_resource(const VariablePtr& state) {
    for (size_t i = 0; i < variables_.size(); ++i) {
      if (variables_[i] == state) return accesses_[i];
    }
    variables_.push_back(state);
    std::string base = state->name.empty() ? "resource" : state->name + "_resource";
    accesses_.push_back({fb_.add_arg(base, tensorflow::DT_RESOURCE, PartialShape({})), "", {}});
    return accesses_.back();
  }

  VariableAccess& access(const Node& n, const std::string& attr) {
    const AttrValue* v = n.attrs.find(attr);
    const auto* state = v ? std::get_if<VariablePtr>(v) : nullptr;
    TFCC_CHECK_ARG(state && *state, "SavedModel export: node ", n.name, " (", n.type_name(),
                   ") has no variable in attribute '", attr, "'");
    return add_resource(*state);
  }

  const graph::Graph& g_;
  FunctionBuilder fb_;
  Library& lib_;
  std::vector<std::vector<std::string>> refs_;
  std::vector<std::string> graph_args_;
  std::vector<VariablePtr> variables_;
  std::deque<VariableAccess> accesses_;
};

}  // namespace

ConvertedFunction convert_graph(const graph::Graph& g, const std::string& name,
                                std::span<const std::string> input_names,
                                std::span<const std::string> output_names,
                                std::span<const int> output_order) {
  TFCC_CHECK_ARG(output_names.size() == g.outputs().size(), "convert_graph: ", output_names.size(),
                 " output names for ", g.outputs().size(), " outputs");
  Library lib;
  lib.prefix = name;
  Converter c(g, name, lib);
  for (size_t i = 0; i < g.args().size(); ++i) {
    c.add_graph_arg(i, i < input_names.size() ? input_names[i] : std::string_view());
  }
  c.convert_nodes();
  if (!lib.unsupported.empty()) {
    std::string list;
    for (const auto& [op, nodes] : lib.unsupported) {
      list += str_cat("\n  ", op, ": ");
      for (size_t i = 0; i < nodes.size() && i < 5; ++i) list += (i ? ", " : "") + nodes[i];
      if (nodes.size() > 5) list += str_cat(", ... (", nodes.size(), " nodes)");
    }
    throw UnimplementedError(str_cat("SavedModel export (TensorFlow format) of function '",
                                     g.name(),
                                     "': these ops have no TensorFlow form in the exporter's table "
                                     "(tfcc/io/saved_model/tf_export/op_table.cc):",
                                     list));
  }
  for (int k : output_order) {
    const graph::ValueRef v = g.outputs().at(static_cast<size_t>(k));
    c.fb().add_ret(output_names[static_cast<size_t>(k)], c.output(static_cast<size_t>(k)),
                   tf_dtype(g.dtype(v)));
  }
  ConvertedFunction out = c.finish();
  out.library = std::move(lib.functions);
  return out;
}

}  // namespace tfcc::saved_model::tf_export
