// The graph side of control flow: If and While nodes with subgraphs, built while tracing, and
// their gradients. tfcc/control_flow (cond, while_loop, TensorArray) is the user API on top;
// these live in the graph layer because inlining a traced function (inline.h) re-emits them.
//
//   auto then_g = trace_subgraph("cond_true", {}, {}, [&](auto) { return std::vector{x * 2}; });
//   auto else_g = trace_subgraph("cond_false", {}, {}, [&](auto) { return std::vector{x}; });
//   std::vector<Tensor> out = add_if(pred, then_g, else_g, loc);
//
// Gradients. A GradientTape recording while an If / While node is added gets a gradient function
// for it (through record_custom_gradient), written with the same machinery, so the backward pass
// is itself made of If / While nodes in the same graph:
//  - If: If(pred, d then_branch, d else_branch); each branch's gradient replays the branch under a
//    tape and differentiates it.
//  - While: the forward loop keeps, per loop variable, the stack of its values at the start of
//    every iteration, and the iteration count (Node::keep_history); the backward While runs the
//    iterations in reverse, replays the body from the kept values under a tape and accumulates
//    the gradients of the loop variables and of the captured tensors. (Values inside one
//    iteration are recomputed from the kept loop variables rather than stored.)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <vector>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::graph {

/// A traced subgraph and the outer tensors it captured (its arguments after the explicit ones).
struct Subgraph {
  std::shared_ptr<const Graph> graph;
  std::vector<Tensor> captures;
};

/// The body of a subgraph: explicit symbolic arguments in, outputs out.
using GraphFn = std::function<std::vector<Tensor>(std::span<const Tensor>)>;

/// Traces `fn` into a subgraph of the current trace (null trace: a top-level graph) with explicit
/// arguments of the given dtypes and shapes.
Subgraph trace_subgraph(const std::string& name, std::span<const DType> dtypes,
                        std::span<const PartialShape> shapes, const GraphFn& fn);

/// The most specific shape compatible with both (unknown where they differ).
PartialShape most_specific_common_shape(const PartialShape& a, const PartialShape& b);

/// Adds If(pred, then, else) to the current trace and returns its outputs. Branch outputs must
/// agree in number and dtype (InvalidArgumentError naming the first difference).
std::vector<Tensor> add_if(const Tensor& pred, const Subgraph& then_g, const Subgraph& else_g,
                           std::source_location loc);

/// Adds a While node to the current trace. `cond` takes loop vars + its captures and returns one
/// bool scalar; `body` takes loop vars + its captures and returns new loop vars. `invariants`
/// give each loop variable's shape across iterations. When a tape is recording (or
/// `force_history`), the node also outputs what the backward loop needs (see Node::keep_history):
/// the result then has 2 * loop_vars.size() + 1 tensors, the loop variables first.
std::vector<Tensor> add_while(std::span<const Tensor> loop_vars,
                              std::span<const PartialShape> invariants, const Subgraph& cond,
                              const Subgraph& body, int64_t maximum_iterations,
                              std::source_location loc, bool force_history = false);

}  // namespace tfcc::graph
#pragma GCC visibility pop
