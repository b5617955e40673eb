// Replaying a graph through dispatch(): the way a traced function is called from inside another
// trace (its nodes are inlined into the caller's graph) and under a GradientTape (every op is
// seen and recorded by the tape, so the call is differentiable, to any order).
//
//   std::vector<tfcc::Tensor> out = tfcc::graph::call_inline(concrete.graph(), {x});
#pragma once

#include <span>
#include <vector>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::graph {

/// Runs `graph` on `args` op by op through dispatch(): inside a trace it appends the nodes to
/// the current graph (If / While become nodes again), otherwise it runs them eagerly and
/// observers (tapes) record each op.
std::vector<Tensor> call_inline(const Graph& graph, std::span<const Tensor> args);

}  // namespace tfcc::graph
