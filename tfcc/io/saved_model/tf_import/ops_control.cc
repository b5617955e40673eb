// Import rows for function calls and control flow. Calls are inlined (the callee's nodes are
// converted in place); If / StatelessIf become tfcc If nodes whose branches are the converted
// branch functions, Case a chain of them; While / StatelessWhile become tfcc While nodes over the
// tensor loop variables (resources pass through unchanged, TensorLists ride as dense tensors).
// A condition known when the signature is traced picks its branch at import time.
#include <source_location>

#include "tfcc/graph/trace/control_nodes.h"
#include "tfcc/io/saved_model/tf_import/interpreter.h"
#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

std::string func_attr(const NodeContext& c, const std::string& name) {
  const auto& a = c.attr(name);
  if (!a.has_func()) throw InvalidArgumentError(str_cat("attr '", name, "' must be a function"));
  return a.func().name();
}

std::string caller(const NodeContext& c) { return str_cat(c.state.path, ": ", c.where); }

std::vector<Value> call(NodeContext& c) {
  return call_function(c.state, func_attr(c, "f"), c.inputs, caller(c));
}

// A scalar predicate as a bool tensor (TensorFlow's truth of a number: non-zero).
Tensor truth(const NodeContext& c, const Tensor& p) {
  const PartialShape ps = p.partial_shape();
  if (!ps.rank_known() || ps.rank() != 0) c.unsupported("a non-scalar If / While condition");
  if (p.dtype() == bool_) return p;
  return c.run1("NotEqual", {p, c.run1("ZerosLike", {p})});
}

std::vector<Tensor> tensors_of(const NodeContext& c, const std::vector<Value>& v,
                               const char* what) {
  std::vector<Tensor> out;
  for (const Value& x : v) {
    if (!x.tensor.defined()) c.unsupported(str_cat("a resource returned by ", what));
    out.push_back(x.tensor);
  }
  return out;
}

std::vector<Value> as_values(const std::vector<Tensor>& t) {
  std::vector<Value> v;
  for (const Tensor& x : t) v.push_back(Value::of(x));
  return v;
}

// Branch `k` of `branches` called on `args`, as traced If subgraphs when `index` is symbolic.
std::vector<Tensor> select_branch(NodeContext& c, const std::vector<std::string>& branches,
                                  size_t k, const Tensor& index, const std::vector<Value>& args) {
  auto run_branch = [&](size_t b) {
    return tensors_of(c, call_function(c.state, branches[b], args, caller(c)), "a branch");
  };
  if (k + 1 == branches.size()) return run_branch(k);
  Tensor is_k =
      c.run1("Equal", {index, c.run1("Cast", {Tensor::scalar<int32_t>(static_cast<int32_t>(k))},
                                     {{"DstT", index.dtype()}})});
  graph::Subgraph t = graph::trace_subgraph("case_branch", {}, {},
                                            [&](std::span<const Tensor>) { return run_branch(k); });
  graph::Subgraph e = graph::trace_subgraph("case_rest", {}, {}, [&](std::span<const Tensor>) {
    return select_branch(c, branches, k + 1, index, args);
  });
  return graph::add_if(is_k, t, e, std::source_location::current());
}

std::vector<Value> if_op(NodeContext& c) {
  const Tensor pred = truth(c, c.in(0));
  std::vector<Value> args(c.inputs.begin() + 1, c.inputs.end());
  const std::string then_f = func_attr(c, "then_branch"), else_f = func_attr(c, "else_branch");
  if (!pred.is_symbolic()) {
    return call_function(c.state, pred.item<bool>() ? then_f : else_f, args, caller(c));
  }
  auto branch = [&](const std::string& f) {
    return graph::trace_subgraph(f, {}, {}, [&, f](std::span<const Tensor>) {
      return tensors_of(c, call_function(c.state, f, args, caller(c)), "an If branch");
    });
  };
  graph::Subgraph t = branch(then_f), e = branch(else_f);
  return as_values(graph::add_if(pred, t, e, std::source_location::current()));
}

std::vector<Value> case_op(NodeContext& c) {
  const auto& a = c.attr("branches");
  std::vector<std::string> branches;
  for (const auto& f : a.list().func()) branches.push_back(f.name());
  if (branches.empty()) throw InvalidArgumentError("Case without branches");
  Tensor index = c.in(0);
  std::vector<Value> args(c.inputs.begin() + 1, c.inputs.end());
  if (!index.is_symbolic()) {
    const int64_t i = c.int_scalar(0);
    const size_t k = i < 0 || static_cast<size_t>(i) >= branches.size() ? branches.size() - 1
                                                                        : static_cast<size_t>(i);
    return call_function(c.state, branches[k], args, caller(c));
  }
  return as_values(select_branch(c, branches, 0, index, args));
}

// Lists reserved with an unknown element shape (Value::is_lazy_list) get it from a probe trace
// of the body, which sets their first element; they then enter the loop as zeros.
void materialize_lazy_lists(NodeContext& c, const std::string& body_f, std::vector<Value>& init) {
  std::vector<size_t> lazy, pos;
  std::vector<DType> dtypes;
  std::vector<PartialShape> shapes;
  for (size_t i = 0; i < init.size(); ++i) {
    if (init[i].is_lazy_list()) lazy.push_back(i);
    if (!init[i].tensor.defined()) continue;
    pos.push_back(i);
    dtypes.push_back(init[i].tensor.dtype());
    shapes.push_back(init[i].tensor.partial_shape());
  }
  if (lazy.empty()) return;
  std::vector<std::vector<int64_t>> element(init.size());
  graph::trace_subgraph("probe_" + body_f, dtypes, shapes, [&](std::span<const Tensor> args) {
    std::vector<Value> v = init;
    for (size_t k = 0; k < pos.size(); ++k) v[pos[k]].tensor = args[k];
    std::vector<Value> out = call_function(c.state, body_f, v, caller(c));
    for (size_t i : lazy) {
      if (i >= out.size() || !out[i].tensor.defined()) {
        c.unsupported("a TensorList the loop body does not write");
      }
      element[i] = out[i].tensor.partial_shape().dims();
      element[i].erase(element[i].begin());
    }
    return std::vector<Tensor>{};
  });
  for (size_t i : lazy) {
    std::vector<int64_t> shape = element[i];
    shape.insert(shape.begin(), init[i].lazy_length);
    c.charge(shape, init[i].lazy_dtype);
    Tensor zero = c.run1("Cast", {Tensor::scalar<float>(0.f)}, {{"DstT", init[i].lazy_dtype}});
    init[i] = Value::list(c.run1("BroadcastTo", {zero}, {{"shape", shape}}));
  }
}

std::vector<Value> while_op(NodeContext& c) {
  const std::string cond_f = func_attr(c, "cond"), body_f = func_attr(c, "body");
  std::vector<Value> init_values = c.inputs;
  materialize_lazy_lists(c, body_f, init_values);
  const std::vector<Value> init = init_values;
  std::vector<size_t> pos;  // loop variables that are tensors (the rest are resources)
  std::vector<Tensor> loop;
  std::vector<DType> dtypes;
  std::vector<PartialShape> shapes;
  for (size_t i = 0; i < init.size(); ++i) {
    if (!init[i].tensor.defined()) continue;
    pos.push_back(i);
    loop.push_back(init[i].tensor);
    dtypes.push_back(init[i].tensor.dtype());
    shapes.push_back(init[i].tensor.partial_shape());
  }
  auto rebuild = [&](std::span<const Tensor> args) {
    std::vector<Value> v = init;
    for (size_t k = 0; k < pos.size(); ++k) v[pos[k]].tensor = args[k];
    return v;
  };
  graph::Subgraph cg =
      graph::trace_subgraph(cond_f, dtypes, shapes, [&](std::span<const Tensor> args) {
        std::vector<Value> out = call_function(c.state, cond_f, rebuild(args), caller(c));
        if (out.empty() || !out[0].tensor.defined()) {
          throw InvalidArgumentError(str_cat("cond '", cond_f, "' returns no tensor"));
        }
        return std::vector<Tensor>{truth(c, out[0].tensor)};
      });
  graph::Subgraph bg =
      graph::trace_subgraph(body_f, dtypes, shapes, [&](std::span<const Tensor> args) {
        std::vector<Value> out = call_function(c.state, body_f, rebuild(args), caller(c));
        if (out.size() != init.size()) {
          throw InvalidArgumentError(str_cat("body '", body_f, "' returns ", out.size(),
                                             " values for ", init.size(), " loop variables"));
        }
        std::vector<Tensor> next;
        for (size_t k = 0; k < pos.size(); ++k) {
          const Tensor& t = out[pos[k]].tensor;
          if (!t.defined() || t.dtype() != dtypes[k]) {
            throw InvalidArgumentError(
                str_cat("body '", body_f, "' changes the type of loop variable ", pos[k]));
          }
          next.push_back(t);
        }
        return next;
      });
  std::vector<Tensor> out =
      graph::add_while(loop, shapes, cg, bg, -1, std::source_location::current());
  std::vector<Value> result = init;
  for (size_t k = 0; k < pos.size(); ++k) result[pos[k]].tensor = out[k];
  return result;
}

const std::map<std::string, tensorflow::AttrValue> kCallDefaults = {
    {"config", attr_s("")}, {"config_proto", attr_s("")}, {"executor_type", attr_s("")}};

}  // namespace

void add_control_ops(std::vector<OpRow>& rows) {
  for (const char* op : {"PartitionedCall", "StatefulPartitionedCall"}) {
    rows.push_back({op, {"output[]"}, kCallDefaults, "the callee, inlined", call});
  }
  for (const char* op : {"If", "StatelessIf"}) {
    rows.push_back({op,
                    {"output[]"},
                    {},
                    "If (branches converted; a condition known at trace time inlines its branch)",
                    if_op});
  }
  for (const char* op : {"Case", "StatelessCase"}) {
    rows.push_back({op, {"output[]"}, {}, "nested If (a known index inlines its branch)", case_op});
  }
  for (const char* op : {"While", "StatelessWhile"}) {
    rows.push_back({op,
                    {"output[]"},
                    {{"parallel_iterations", attr_i(10)}},
                    "While over the tensor loop variables (resources pass through)",
                    while_op});
  }
}

}  // namespace tfcc::saved_model::tf_import
