// Dead-code elimination: a node survives if one of its outputs reaches a graph output, or if it
// has side effects (a variable write, a random op advancing its generator, a print, control flow
// holding one): those run even when nothing reads them, in their traced order. Arguments always
// survive (they are the signature).
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"

namespace tfcc::graph::passes {

bool dead_code_elimination(Graph& g, const PassOptions&) {
  const int n = g.num_nodes();
  std::vector<bool> live(static_cast<size_t>(n), false);
  for (ValueRef v : g.outputs()) live[static_cast<size_t>(v.node)] = true;
  for (int id = n - 1; id >= 0; --id) {
    const Node& node = g.node(id);
    if (node.kind == NodeKind::kArg || has_side_effects(node)) live[static_cast<size_t>(id)] = true;
    if (!live[static_cast<size_t>(id)]) continue;
    for (ValueRef v : node.inputs) live[static_cast<size_t>(v.node)] = true;
  }
  bool changed = false;
  for (bool l : live) changed = changed || !l;
  if (!changed) return false;
  GraphRewriter rw(g);
  for (int id = 0; id < n; ++id) {
    if (live[static_cast<size_t>(id)]) {
      rw.copy(id);
    } else {
      rw.drop(id);
    }
  }
  g = rw.finish();
  return true;
}

}  // namespace tfcc::graph::passes
