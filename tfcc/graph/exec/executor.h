// The executor: runs a finished graph with concrete arguments, node by node, with the same CPU
// kernels eager mode uses (execute_eager), so traced and eager results agree bit for bit.
//
//   std::vector<tfcc::Tensor> out = tfcc::graph::run_graph(graph, {x, y});
//
// Shapes unknown at trace time are found at run time: every kernel infers its output shapes from
// the concrete inputs. An error raised by a node keeps its type and gains a line naming the node
// and the user's source line that created it:
//
//   InvalidArgumentError: Matrix size-incompatible: In[0]: [2,3], In[1]: [4,5] [Op:MatMul]
//       [[node MatMul_1 (MatMul) defined at model.cc:42 in function 'f']]
//
// If and While nodes run their subgraphs recursively; host calls (tfcc::print) run their C++
// callback at every execution.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <span>
#include <vector>

#include "tfcc/graph/ir/graph.h"
#include "tfcc/ops/dispatch.h"

namespace tfcc::graph {

/// Runs `graph` on `args` (one concrete tensor per argument) and returns its outputs. Ops run
/// eagerly and unobserved: a GradientTape does not see inside (callers that need that replay
/// the graph through dispatch instead, see trace/inline.h).
std::vector<Tensor> run_graph(const Graph& graph, std::span<const Tensor> args);

/// An execution context that runs every op eagerly (pushed to leave a trace for a while).
class EagerContext : public ExecutionContext {
 public:
  std::vector<Tensor> execute(const OpCall& call) override { return execute_eager(call); }
};

/// The note the executor appends to a node's error.
std::string node_error_note(const Graph& graph, const Node& node);

}  // namespace tfcc::graph
#pragma GCC visibility pop
