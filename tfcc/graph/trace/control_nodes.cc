#include "tfcc/graph/trace/control_nodes.h"

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/graph/trace/inline.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"

namespace tfcc::graph {
namespace {

bool is_float(DType t) { return t == float32 || t == float64 || t == bfloat16; }

TraceContext& require_trace(const char* what) {
  TraceContext* ctx = TraceContext::current();
  if (!ctx) throw InternalError(internal::str_cat(what, " needs a trace"));
  return *ctx;
}

// The gradient of a branch / body replay: d(outs)/d(sources) with `out_grads`, zeros where
// unconnected.
std::vector<Tensor> replay_gradient(const Graph& g, std::span<const Tensor> args,
                                    const std::vector<size_t>& out_index,
                                    const std::vector<Tensor>& out_grads,
                                    const std::vector<Tensor>& sources) {
  GradientTape tape({.persistent = false, .watch_accessed_variables = false});
  tape.watch(sources);
  std::vector<Tensor> outs = call_inline(g, args);
  std::vector<Tensor> targets;
  for (size_t k : out_index) targets.push_back(outs[k]);
  if (sources.empty()) return {};
  if (targets.empty()) {
    std::vector<Tensor> z;
    for (const Tensor& s : sources) z.push_back(zeros_like(s));
    return z;
  }
  GradientOptions o;
  o.output_gradients = out_grads;
  o.unconnected_gradients = UnconnectedGradients::kZero;
  return tape.gradient(targets, sources, o);
}

GradFn if_gradient(std::shared_ptr<const Graph> then_g, std::shared_ptr<const Graph> else_g,
                   int split, std::source_location loc) {
  return [=](const GradContext& c) {
    std::vector<Tensor> inputs(c.inputs.begin(), c.inputs.end());
    std::vector<size_t> out_index;
    std::vector<Tensor> out_grads;
    for (size_t k = 0; k < c.outputs.size(); ++k) {
      if (!is_float(c.outputs[k].dtype())) continue;
      out_index.push_back(k);
      out_grads.push_back(c.grads[k].defined() ? c.grads[k] : zeros_like(c.outputs[k]));
    }
    std::vector<size_t> float_inputs;
    for (size_t i = 1; i < inputs.size(); ++i) {
      if (is_float(inputs[i].dtype())) float_inputs.push_back(i);
    }
    auto branch = [&](bool then_branch) {
      return [&, then_branch](std::span<const Tensor>) {
        size_t lo = then_branch ? 1 : 1 + static_cast<size_t>(split);
        size_t hi = then_branch ? 1 + static_cast<size_t>(split) : inputs.size();
        std::vector<Tensor> own(inputs.begin() + static_cast<long>(lo),
                                inputs.begin() + static_cast<long>(hi));
        std::vector<Tensor> sources;
        for (size_t i : float_inputs) {
          if (i >= lo && i < hi) sources.push_back(inputs[i]);
        }
        std::vector<Tensor> g =
            replay_gradient(then_branch ? *then_g : *else_g, own, out_index, out_grads, sources);
        std::vector<Tensor> result;
        size_t next = 0;
        for (size_t i : float_inputs) {
          result.push_back(i >= lo && i < hi ? g[next++] : zeros_like(inputs[i]));
        }
        return result;
      };
    };
    std::vector<Tensor> grads(inputs.size());
    if (float_inputs.empty()) return grads;
    Subgraph t = trace_subgraph("cond_grad_true", {}, {}, branch(true));
    Subgraph e = trace_subgraph("cond_grad_false", {}, {}, branch(false));
    std::vector<Tensor> out = add_if(inputs[0], t, e, loc);
    for (size_t j = 0; j < float_inputs.size(); ++j) grads[float_inputs[j]] = out[j];
    return grads;
  };
}

GradFn while_gradient(std::shared_ptr<const Graph> body_g, int nv, int nc,
                      std::vector<PartialShape> invariants, std::source_location loc) {
  return [=](const GradContext& c) {
    const size_t n = static_cast<size_t>(nv);
    std::vector<Tensor> inputs(c.inputs.begin(), c.inputs.end());
    std::vector<Tensor> body_caps(inputs.begin() + nv + nc, inputs.end());
    std::vector<Tensor> hist(c.outputs.begin() + nv, c.outputs.begin() + 2 * nv);
    Tensor count = c.outputs[2 * n];
    std::vector<size_t> fv, fc;
    for (size_t k = 0; k < n; ++k) {
      if (is_float(inputs[k].dtype())) fv.push_back(k);
    }
    for (size_t k = 0; k < body_caps.size(); ++k) {
      if (is_float(body_caps[k].dtype())) fc.push_back(k);
    }
    std::vector<Tensor> grads(inputs.size());
    if (fv.empty() && fc.empty()) return grads;
    // Backward loop variables: j, d(vars), d(captures).
    std::vector<Tensor> init = {subtract(count, Tensor::scalar<int32_t>(1))};
    std::vector<PartialShape> inv = {PartialShape({})};
    for (size_t k : fv) {
      init.push_back(c.grads[k].defined() ? c.grads[k] : zeros_like(c.outputs[k]));
      inv.push_back(invariants[k]);
    }
    for (size_t k : fc) {
      init.push_back(zeros_like(body_caps[k]));
      inv.push_back(body_caps[k].partial_shape());
    }
    std::vector<DType> dtypes;
    for (const Tensor& t : init) dtypes.push_back(t.dtype());
    Subgraph cond = trace_subgraph("while_grad_cond", dtypes, inv, [](std::span<const Tensor> a) {
      return std::vector<Tensor>{greater_equal(a[0], Tensor::scalar<int32_t>(0))};
    });
    Subgraph body = trace_subgraph("while_grad_body", dtypes, inv, [&](std::span<const Tensor> a) {
      std::vector<Tensor> x;
      for (size_t k = 0; k < n; ++k) x.push_back(gather(hist[k], a[0]));
      std::vector<Tensor> args = x;
      args.insert(args.end(), body_caps.begin(), body_caps.end());
      std::vector<Tensor> sources, gv(a.begin() + 1, a.begin() + 1 + static_cast<long>(fv.size()));
      for (size_t k : fv) sources.push_back(x[k]);
      for (size_t k : fc) sources.push_back(body_caps[k]);
      std::vector<Tensor> g = replay_gradient(*body_g, args, fv, gv, sources);
      std::vector<Tensor> next = {subtract(a[0], Tensor::scalar<int32_t>(1))};
      for (size_t j = 0; j < fv.size(); ++j) next.push_back(g[j]);
      for (size_t j = 0; j < fc.size(); ++j) {
        next.push_back(add(a[1 + fv.size() + j], g[fv.size() + j]));
      }
      return next;
    });
    std::vector<Tensor> out = add_while(init, inv, cond, body, -1, loc);
    for (size_t j = 0; j < fv.size(); ++j) grads[fv[j]] = out[1 + j];
    for (size_t j = 0; j < fc.size(); ++j) {
      grads[n + static_cast<size_t>(nc) + fc[j]] = out[1 + fv.size() + j];
    }
    return grads;
  };
}

}  // namespace

PartialShape most_specific_common_shape(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known() || !b.rank_known() || a.rank() != b.rank()) {
    return PartialShape::unknown_rank();
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < a.rank(); ++i) dims.push_back(a.dim(i) == b.dim(i) ? a.dim(i) : -1);
  return PartialShape(dims);
}

Subgraph trace_subgraph(const std::string& name, std::span<const DType> dtypes,
                        std::span<const PartialShape> shapes, const GraphFn& fn) {
  TraceContext sub(name, TraceContext::current());
  std::vector<Tensor> args;
  for (size_t i = 0; i < dtypes.size(); ++i) args.push_back(sub.add_arg(dtypes[i], shapes[i]));
  {
    ExecutionContextScope scope(&sub);
    std::vector<Tensor> outs = fn(args);
    sub.finish(outs);
  }
  return {sub.shared_graph(), sub.captures()};
}

std::vector<Tensor> add_if(const Tensor& pred, const Subgraph& then_g, const Subgraph& else_g,
                           std::source_location loc) {
  TraceContext& ctx = require_trace("add_if");
  const Graph& t = *then_g.graph;
  const Graph& e = *else_g.graph;
  if (pred.dtype() != bool_ || !pred.partial_shape().is_compatible_with(PartialShape({}))) {
    throw InvalidArgumentError(internal::str_cat(
        "The predicate of tfcc::cond at ", location_string(loc), " must be a bool scalar, got ",
        dtype_name(pred.dtype()), " ", pred.partial_shape().to_string()));
  }
  if (t.outputs().size() != e.outputs().size()) {
    throw InvalidArgumentError(
        internal::str_cat("true_fn and false_fn of tfcc::cond at ", location_string(loc),
                          " must return the same structure: true_fn returns ", t.outputs().size(),
                          " tensors, false_fn returns ", e.outputs().size()));
  }
  Node n;
  n.kind = NodeKind::kIf;
  n.location = loc;
  n.subgraphs = {then_g.graph, else_g.graph};
  n.split = static_cast<int>(then_g.captures.size());
  for (size_t k = 0; k < t.outputs().size(); ++k) {
    DType a = t.dtype(t.outputs()[k]), b = e.dtype(e.outputs()[k]);
    if (a != b) {
      throw InvalidArgumentError(
          internal::str_cat("true_fn and false_fn of tfcc::cond at ", location_string(loc),
                            " must return the same dtypes: output ", k, " is ", dtype_name(a),
                            " in true_fn and ", dtype_name(b), " in false_fn"));
    }
    n.dtypes.push_back(a);
    n.shapes.push_back(
        most_specific_common_shape(t.shape(t.outputs()[k]), e.shape(e.outputs()[k])));
  }
  std::vector<Tensor> inputs = {pred};
  inputs.insert(inputs.end(), then_g.captures.begin(), then_g.captures.end());
  inputs.insert(inputs.end(), else_g.captures.begin(), else_g.captures.end());
  int split = n.split;
  std::vector<Tensor> out = ctx.add_node(std::move(n), inputs);
  if (has_op_observers()) {
    record_custom_gradient(inputs, out, if_gradient(then_g.graph, else_g.graph, split, loc));
  }
  return out;
}

std::vector<Tensor> add_while(std::span<const Tensor> loop_vars,
                              std::span<const PartialShape> invariants, const Subgraph& cond,
                              const Subgraph& body, int64_t maximum_iterations,
                              std::source_location loc, bool force_history) {
  TraceContext& ctx = require_trace("add_while");
  const Graph& b = *body.graph;
  const size_t nv = loop_vars.size();
  if (b.outputs().size() != nv) {
    throw InvalidArgumentError(internal::str_cat(
        "The body of tfcc::while_loop at ", location_string(loc), " returns ", b.outputs().size(),
        " tensors for ", nv, " loop variables; it must return the same structure"));
  }
  Node n;
  n.kind = NodeKind::kWhile;
  n.location = loc;
  n.subgraphs = {cond.graph, body.graph};
  n.split = static_cast<int>(nv);
  n.cond_captures = static_cast<int>(cond.captures.size());
  n.maximum_iterations = maximum_iterations;
  for (size_t k = 0; k < nv; ++k) {
    DType want = loop_vars[k].dtype(), got = b.dtype(b.outputs()[k]);
    if (want != got) {
      throw InvalidArgumentError(internal::str_cat(
          "Loop variable ", k, " of tfcc::while_loop at ", location_string(loc),
          " enters the loop ", "as ", dtype_name(want), " but the body returns ", dtype_name(got)));
    }
    const PartialShape& after = b.shape(b.outputs()[k]);
    if (!invariants[k].is_compatible_with(after) ||
        (invariants[k].rank_known() && !after.rank_known())) {
      throw InvalidArgumentError(
          internal::str_cat("Loop variable ", k, " of tfcc::while_loop at ", location_string(loc),
                            " enters the loop with shape ", invariants[k].to_string(),
                            ", but has shape ", after.to_string(),
                            " after one iteration. To allow the shape to vary across iterations, "
                            "use the shape_invariants option to specify a less-specific shape"));
    }
    n.dtypes.push_back(want);
    n.shapes.push_back(invariants[k]);
  }
  const Graph& cg = *cond.graph;
  if (cg.outputs().size() != 1 || cg.dtype(cg.outputs()[0]) != bool_) {
    throw InvalidArgumentError(internal::str_cat(
        "The cond of tfcc::while_loop at ", location_string(loc), " must return one bool tensor"));
  }
  const bool history = force_history || has_op_observers();
  n.keep_history = history;
  if (history) {
    for (size_t k = 0; k < nv; ++k) {
      n.dtypes.push_back(loop_vars[k].dtype());
      if (invariants[k].rank_known()) {
        std::vector<int64_t> dims = {-1};
        for (int64_t d : invariants[k].dims()) dims.push_back(d);
        n.shapes.push_back(PartialShape(dims));
      } else {
        n.shapes.push_back(PartialShape::unknown_rank());
      }
    }
    n.dtypes.push_back(int32);
    n.shapes.push_back(PartialShape({}));
  }
  std::vector<Tensor> inputs(loop_vars.begin(), loop_vars.end());
  inputs.insert(inputs.end(), cond.captures.begin(), cond.captures.end());
  inputs.insert(inputs.end(), body.captures.begin(), body.captures.end());
  std::vector<Tensor> out = ctx.add_node(std::move(n), inputs);
  if (history) {
    std::vector<PartialShape> inv(invariants.begin(), invariants.end());
    record_custom_gradient(inputs, out,
                           while_gradient(body.graph, static_cast<int>(nv),
                                          static_cast<int>(cond.captures.size()), inv, loc));
  }
  return out;
}

}  // namespace tfcc::graph
