// Helpers for the graph pass tests: trace a lambda into a Graph, print a graph without source
// locations (golden texts), run a graph.
#pragma once

#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tfcc/graph/passes/passes.h"
#include "tfcc/tfcc.h"

namespace tfcc::graph::testing {

/// Traces `f` over arguments of the given specs into a graph named "f".
inline Graph trace(const std::function<std::vector<Tensor>(const std::vector<Tensor>&)>& f,
                   const std::vector<TensorSpec>& specs) {
  TraceContext ctx("f");
  std::vector<Tensor> args;
  for (const TensorSpec& s : specs) args.push_back(ctx.add_arg(s.dtype, s.shape, "x"));
  {
    ExecutionContextScope scope(&ctx);
    std::vector<Tensor> outs = f(args);
    ctx.finish(outs);
  }
  return ctx.graph();
}

/// Graph::to_string() without the "  # file.cc:42" location comments.
inline std::string golden(const Graph& g) {
  std::istringstream in(g.to_string());
  std::string line, out;
  while (std::getline(in, line)) {
    size_t hash = line.find("  # ");
    if (hash != std::string::npos) line.resize(hash);
    out.append(line).append("\n");
  }
  return out;
}

/// The op names of a graph's nodes, in order (Arg and Const included).
inline std::vector<std::string> node_types(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes()) out.push_back(n.type_name());
  return out;
}

/// True if the tensors have the same dtype, shape and bytes.
inline bool bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  return a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

}  // namespace tfcc::graph::testing
