// The GraphDef TensorBoard's Graphs tab shows for a traced tfcc function.
//
//   auto f = tfcc::function([&](tfcc::Tensor x) { return tfcc::matmul(x, w) + b; });
//   auto concrete = f.get_concrete_function(tfcc::TensorSpec({-1, 4}, tfcc::float32));
//   tfcc::summary::graph(concrete.graph());         // with a default writer
//
// Each IR node becomes a NodeDef: arguments are "Placeholder"s, captured tensors "Const"s, ops keep
// their registry name (MatMul, AddV2, ...), If/While nodes keep theirs and their branches and
// bodies appear as name scopes under them ("If/then/...", "While/body/..."); every node carries
// its output dtypes and shapes ("_output_shapes", unknown dimensions as -1), and the function's
// results are "Identity" nodes, as in a TensorFlow function graph.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/graph/ir/graph.h"
#include "tfcc/io/summary/graph_def.h"

namespace tfcc::summary {

/// Converts a traced graph to the GraphDef TensorBoard draws.
GraphDef to_graph_def(const graph::Graph& graph);

/// Writes a traced graph to the default writer (tf.summary.graph); false without one.
bool graph(const graph::Graph& graph);

}  // namespace tfcc::summary
#pragma GCC visibility pop
