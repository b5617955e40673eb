// The graph optimiser: a fixed pipeline of graph-to-graph passes run once on every concrete
// function after tracing (a traced training step already holds its gradient nodes, so they are
// optimised too). The traced graph itself is kept for inlining and tapes; the optimised copy is
// what the executor runs.
//
//   tfcc::graph::PassOptions opts;
//   opts.disabled = {"elementwise_fusion"};          // switch passes off by name
//   tfcc::graph::Graph fast = tfcc::graph::optimize(traced, opts);
//
//   auto f = tfcc::function(step, {.passes = {.disabled = {"constant_folding"}}});
//
// The pipeline, in order (pass_names()): batch_norm_folding, constant_folding,
// arithmetic_simplification, common_subexpression_elimination, contraction_fusion,
// max_pool_grad_relu_fusion, elementwise_fusion, dead_code_elimination. Every pass preserves the
// values of the graph's outputs and every side effect (variable writes, prints, random ops,
// anything the registry marks stateful).
//
// Environment: TFCC_DISABLE_PASSES=a,b switches passes off (added to the options' list; "all"
// switches every pass off); TFCC_DUMP_GRAPHS=<dir> writes the text graph (Graph::to_string())
// before and after each pass to <dir>/<function>.<serial>.<step>.<before|after>.<pass>.txt.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::graph {

/// What the optimiser does; a member of tfcc::FunctionOptions.
struct PassOptions {
  /// False: no pass runs (the executor runs the traced graph as is).
  bool enabled = true;
  /// Names of passes not to run (see pass_names()); unknown names are an InvalidArgumentError.
  std::vector<std::string> disabled;
  /// Writes each graph before and after each pass here (empty: TFCC_DUMP_GRAPHS, if set).
  std::string dump_dir;
  /// Constant folding leaves results larger than this many bytes as ops (so big constants are
  /// not materialised in the graph).
  int64_t max_constant_bytes = int64_t{1} << 20;
};

/// The passes of the pipeline, in the order they run.
const std::vector<std::string>& pass_names();

/// Runs every enabled pass on `graph` (and on the subgraphs of its If / While nodes) and returns
/// the optimised graph. A pass that fails (an internal error or a malformed result) is skipped
/// with a warning: optimisation never changes whether a function runs.
Graph optimize(const Graph& graph, const PassOptions& options = {});

/// Runs one named pass (tests and tools); InvalidArgumentError for an unknown name.
Graph run_pass(const std::string& name, const Graph& graph, const PassOptions& options = {});

}  // namespace tfcc::graph
#pragma GCC visibility pop
