#include "tfcc/io/saved_model/graph_check.h"

#include <algorithm>

#include "tfcc/ops/op_def.h"

namespace tfcc::saved_model {

using graph::Graph;
using graph::Node;
using graph::NodeKind;
using ::tfcc::internal::str_cat;

namespace {

// A placeholder input for shape inference: dtype and static shape, no value.
class Placeholder : public SymbolicValue {
 public:
  explicit Placeholder(PartialShape shape) : shape_(std::move(shape)) {}
  PartialShape shape() const override { return shape_; }

 private:
  PartialShape shape_;
};

[[noreturn]] void fail(const std::string& context, const Graph& g, const Node& n,
                       const std::string& what) {
  throw InvalidArgumentError(str_cat(context, ", function '", g.name(), "', node ", n.name, " (",
                                     n.type_name(), "): ", what));
}

void check_op(const Graph& g, const Node& n, const std::string& context) {
  const OpDef& op = *n.op;
  // Input dtypes against fixed dtypes and bound type attributes.
  size_t i = 0;
  for (const ArgDef& arg : op.inputs()) {
    size_t count = arg.variadic ? static_cast<size_t>(n.attrs.get<int64_t>("N")) : 1;
    for (size_t k = 0; k < count; ++k, ++i) {
      DType got = g.dtype(n.inputs[i]);
      DType want = arg.fixed ? *arg.fixed : n.attrs.get<DType>(arg.type_attr);
      if (got != want) {
        fail(context, g, n,
             str_cat("input ", i, " is ", dtype_name(got), " but the op takes ", dtype_name(want)));
      }
    }
  }
  // Shape inference over placeholders (constants keep their values, as at trace time).
  std::vector<Tensor> inputs;
  for (graph::ValueRef v : n.inputs) {
    const Node& src = g.node(v.node);
    if (src.kind == NodeKind::kConst) {
      inputs.push_back(src.value);
    } else {
      inputs.push_back(Tensor::symbolic(g.dtype(v), std::make_shared<Placeholder>(g.shape(v))));
    }
  }
  std::vector<OutputSpec> specs;
  try {
    OpCall call{op, inputs, n.attrs, {}};
    InferenceContext ic(call);
    specs = op.shape_function()(ic);
  } catch (const Error& e) {
    fail(context, g, n, str_cat("shape inference failed: ", e.what()));
  }
  if (specs.size() != n.dtypes.size()) {
    fail(context, g, n,
         str_cat("declares ", n.dtypes.size(), " outputs, the op has ", specs.size()));
  }
  for (size_t k = 0; k < specs.size(); ++k) {
    if (specs[k].dtype != n.dtypes[k] || !specs[k].shape.is_compatible_with(n.shapes[k])) {
      fail(context, g, n,
           str_cat("output ", k, " is declared ", dtype_name(n.dtypes[k]), n.shapes[k].to_string(),
                   " but the op gives ", dtype_name(specs[k].dtype), specs[k].shape.to_string()));
    }
  }
}

void check_outputs(const Graph& g, const Node& n, const Graph& sub, size_t count,
                   const std::string& context) {
  if (sub.outputs().size() < count) {
    fail(context, g, n, str_cat("subgraph '", sub.name(), "' returns too few values"));
  }
  for (size_t k = 0; k < count; ++k) {
    if (sub.dtype(sub.outputs()[k]) != n.dtypes[k]) {
      fail(context, g, n,
           str_cat("output ", k, " is ", dtype_name(n.dtypes[k]), " but subgraph '", sub.name(),
                   "' returns ", dtype_name(sub.dtype(sub.outputs()[k]))));
    }
  }
}

void check_while(const Graph& g, const Node& n, const std::string& context) {
  const size_t nv = static_cast<size_t>(n.split);
  const size_t expected = n.keep_history ? 2 * nv + 1 : nv;
  if (n.dtypes.size() != expected) {
    fail(context, g, n, str_cat("has ", n.dtypes.size(), " outputs, expected ", expected));
  }
  for (size_t k = 0; k < nv; ++k) {
    if (g.dtype(n.inputs[k]) != n.dtypes[k]) {
      fail(context, g, n, str_cat("loop variable ", k, " changes dtype"));
    }
    if (n.keep_history && n.dtypes[nv + k] != n.dtypes[k]) {
      fail(context, g, n, str_cat("history of loop variable ", k, " has another dtype"));
    }
  }
  if (n.keep_history && n.dtypes[2 * nv] != int32) {
    fail(context, g, n, "the iteration count must be int32");
  }
  check_outputs(g, n, *n.subgraphs[1], nv, context);
  const Graph& cond = *n.subgraphs[0];
  if (cond.dtype(cond.outputs()[0]) != bool_) {
    fail(context, g, n, "the loop condition must return a bool");
  }
}

}  // namespace

void complete_op_attrs(Node& n, const std::string& context) {
  const OpDef& op = *n.op;
  for (const auto& [name, value] : n.attrs.items()) {
    const AttrDef* def = op.find_attr(name);
    // Names starting with '_' are tracing annotations no kernel reads (TF's convention for
    // internal attributes), e.g. "_proxy_arg" on a variable read inside a loop body under a tape.
    if (!def && !name.empty() && name[0] == '_' && attr_type_of(value) == AttrType::kInt) continue;
    if (!def) {
      throw InvalidArgumentError(
          str_cat(context, ", node ", n.name, ": ", op.name(), " has no attribute '", name, "'"));
    }
    if (attr_type_of(value) != def->type) {
      throw InvalidArgumentError(str_cat(context, ", node ", n.name, ": attribute '", name, "' of ",
                                         op.name(), " must be a ", attr_type_name(def->type),
                                         ", got a ", attr_type_name(attr_type_of(value))));
    }
  }
  for (const AttrDef& def : op.attrs()) {
    const AttrValue* v = n.attrs.find(def.name);
    if (!v) {
      if (!def.default_value) {
        throw InvalidArgumentError(str_cat(context, ", node ", n.name, ": ", op.name(),
                                           " is missing its attribute '", def.name, "'"));
      }
      n.attrs.set(def.name, *def.default_value);
      v = n.attrs.find(def.name);
    }
    if (def.type == AttrType::kType && !def.allowed.empty() &&
        std::find(def.allowed.begin(), def.allowed.end(), std::get<DType>(*v)) ==
            def.allowed.end()) {
      throw InvalidArgumentError(str_cat(context, ", node ", n.name, ": ", op.name(), " does not ",
                                         "allow ", def.name, "=", dtype_name(std::get<DType>(*v))));
    }
    if (def.type == AttrType::kResource && !std::get<std::shared_ptr<VariableState>>(*v)) {
      throw InvalidArgumentError(str_cat(context, ", node ", n.name, ": no variable"));
    }
  }
  if (const AttrValue* nv = n.attrs.find("N")) {
    const int64_t* count = std::get_if<int64_t>(nv);
    if (!count || *count < 1 || *count > (int64_t{1} << 24)) {
      throw InvalidArgumentError(str_cat(context, ", node ", n.name, ": bad list length N"));
    }
  }
}

void check_graph(const Graph& g, const std::string& context) {
  for (const Node& n : g.nodes()) {
    switch (n.kind) {
      case NodeKind::kArg:
      case NodeKind::kConst:
        break;
      case NodeKind::kOp:
        check_op(g, n, context);
        break;
      case NodeKind::kIf:
        if (g.dtype(n.inputs[0]) != bool_) fail(context, g, n, "the predicate must be a bool");
        check_outputs(g, n, *n.subgraphs[0], n.dtypes.size(), context);
        check_outputs(g, n, *n.subgraphs[1], n.dtypes.size(), context);
        break;
      case NodeKind::kWhile:
        check_while(g, n, context);
        break;
      case NodeKind::kHostCall:
        fail(context, g, n, "host callbacks cannot be loaded");
    }
  }
}

}  // namespace tfcc::saved_model
