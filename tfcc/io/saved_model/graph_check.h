// Checks a graph read from a file before anything runs it: attributes against the op
// definitions, and a type check that replays shape inference over every node, so the executor
// only ever meets what a fresh trace could have produced.
//
//   tfcc::graph::Node n = ...;                    // decoded, n.op resolved
//   tfcc::saved_model::complete_op_attrs(n, "f.tfcc, function 'f'");
//   ...
//   tfcc::saved_model::check_graph(g, "f.tfcc");  // after g.problems() came back empty
//
// Both raise InvalidArgumentError naming the function, the node and what is wrong.
#pragma once

#include <string>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::saved_model {

/// Checks a decoded op node's attributes against its OpDef (every attribute declared and of its
/// declared type, dtypes allowed) and fills defaults for absent ones, as dispatch() does.
void complete_op_attrs(graph::Node& node, const std::string& context);

/// Type-checks a structurally valid graph (Graph::problems() empty; subgraphs already checked):
/// op inputs' dtypes against the op's constraints, output dtypes and shapes against shape
/// inference, If / While branch and body signatures against the node.
void check_graph(const graph::Graph& g, const std::string& context);

}  // namespace tfcc::saved_model
