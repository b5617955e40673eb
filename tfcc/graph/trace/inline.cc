#include "tfcc/graph/trace/inline.h"

#include "tfcc/graph/exec/executor.h"
#include "tfcc/graph/trace/control_nodes.h"
#include "tfcc/graph/trace/errors.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"

namespace tfcc::graph {
namespace {

bool truth(const Tensor& t) {
  TFCC_CHECK_ARG(t.num_elements() == 1, "A control flow predicate must be a scalar, got shape ",
                 t.shape().to_string());
  return t.item<bool>();
}

std::vector<Tensor> replay_while(const Node& n, std::span<const Tensor> in) {
  const size_t nv = static_cast<size_t>(n.split), nc = static_cast<size_t>(n.cond_captures);
  std::vector<Tensor> vars(in.begin(), in.begin() + static_cast<long>(nv));
  std::vector<Tensor> cond_caps(in.begin() + static_cast<long>(nv),
                                in.begin() + static_cast<long>(nv + nc));
  std::vector<Tensor> body_caps(in.begin() + static_cast<long>(nv + nc), in.end());
  if (TraceContext::current()) {
    std::vector<PartialShape> inv(n.shapes.begin(), n.shapes.begin() + static_cast<long>(nv));
    Subgraph cond{n.subgraphs[0], cond_caps}, body{n.subgraphs[1], body_caps};
    std::vector<Tensor> out =
        add_while(vars, inv, cond, body, n.maximum_iterations, n.location, n.keep_history);
    if (!n.keep_history) out.resize(nv);
    return out;
  }
  std::vector<std::vector<Tensor>> history(n.keep_history ? nv : 0);
  int64_t it = 0;
  while (n.maximum_iterations < 0 || it < n.maximum_iterations) {
    std::vector<Tensor> args = vars;
    args.insert(args.end(), cond_caps.begin(), cond_caps.end());
    if (!truth(call_inline(*n.subgraphs[0], args)[0])) break;
    for (size_t k = 0; k < history.size(); ++k) history[k].push_back(vars[k]);
    args.assign(vars.begin(), vars.end());
    args.insert(args.end(), body_caps.begin(), body_caps.end());
    vars = call_inline(*n.subgraphs[1], args);
    ++it;
  }
  std::vector<Tensor> out = vars;
  for (size_t k = 0; k < history.size(); ++k) {
    if (history[k].empty()) {
      std::vector<int64_t> dims = {0};
      for (int64_t d : in[k].shape().dims()) dims.push_back(d);
      out.push_back(zeros(dims, in[k].dtype()));
    } else {
      out.push_back(stack(history[k]));
    }
  }
  if (n.keep_history) out.push_back(Tensor::scalar<int32_t>(static_cast<int32_t>(it)));
  return out;
}

std::vector<Tensor> replay_node(const Graph& g, const Node& n, std::span<const Tensor> in,
                                std::span<const Tensor> args) {
  switch (n.kind) {
    case NodeKind::kArg:
      return {args[static_cast<size_t>(n.arg_index)]};
    case NodeKind::kConst:
      return {n.value};
    case NodeKind::kOp:
      return dispatch(*n.op, in, n.attrs, n.location);
    case NodeKind::kIf: {
      auto then_in = in.subspan(1, static_cast<size_t>(n.split));
      auto else_in = in.subspan(1 + static_cast<size_t>(n.split));
      if (TraceContext::current()) {
        Subgraph t{n.subgraphs[0], {then_in.begin(), then_in.end()}};
        Subgraph e{n.subgraphs[1], {else_in.begin(), else_in.end()}};
        return add_if(in[0], t, e, n.location);
      }
      return truth(in[0]) ? call_inline(*n.subgraphs[0], then_in)
                          : call_inline(*n.subgraphs[1], else_in);
    }
    case NodeKind::kWhile:
      return replay_while(n, in);
    case NodeKind::kHostCall:
      if (TraceContext* ctx = TraceContext::current()) return ctx->add_node(n, in);
      return n.host->fn(in);
  }
  (void)g;
  throw InternalError("unknown node kind");
}

}  // namespace

std::vector<Tensor> call_inline(const Graph& g, std::span<const Tensor> args) {
  if (args.size() != g.args().size()) {
    throw InvalidArgumentError(internal::str_cat("Function '", g.name(), "' takes ",
                                                 g.args().size(), " arguments, got ", args.size()));
  }
  std::vector<std::vector<Tensor>> values(static_cast<size_t>(g.num_nodes()));
  std::vector<Tensor> in;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& n = g.node(id);
    in.clear();
    for (ValueRef v : n.inputs) {
      in.push_back(values[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)]);
    }
    try {
      values[static_cast<size_t>(id)] = replay_node(g, n, in, args);
    } catch (const Error& e) {
      if (TraceContext::current()) throw;  // trace-time errors already name the line
      rethrow_with_note(e, node_error_note(g, n));
    }
  }
  std::vector<Tensor> out;
  for (ValueRef v : g.outputs()) {
    out.push_back(values[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)]);
  }
  return out;
}

}  // namespace tfcc::graph
