// Common-subexpression elimination: two pure nodes with the same op, the same inputs (after
// earlier merges) and equal attributes compute the same value, so the later one is replaced by
// the earlier. Constants with equal dtype, shape and bytes merge too. Stateful ops (random
// numbers, variable reads and writes) and control flow never merge.
#include <functional>
#include <unordered_map>

#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"

namespace tfcc::graph::passes {
namespace {

// A cheap hash of a node's identity; candidates with equal hashes are compared exactly.
size_t node_hash(const Node& n, const std::vector<ValueRef>& inputs) {
  size_t h = std::hash<int>()(static_cast<int>(n.kind));
  auto mix = [&](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  if (n.kind == NodeKind::kOp) mix(std::hash<const void*>()(n.op));
  for (ValueRef v : inputs) {
    mix(std::hash<int>()(v.node));
    mix(std::hash<int>()(v.index));
  }
  if (n.kind == NodeKind::kConst) {
    mix(std::hash<int>()(static_cast<int>(n.value.dtype())));
    mix(std::hash<int64_t>()(n.value.num_elements()));
    const auto* bytes = static_cast<const unsigned char*>(n.value.raw_data());
    for (size_t i = 0; i < std::min<size_t>(n.value.nbytes(), 64); ++i) mix(bytes[i]);
  }
  for (const auto& [k, v] : n.attrs.items()) mix(std::hash<std::string>()(k));
  return h;
}

}  // namespace

bool common_subexpression_elimination(Graph& g, const PassOptions&) {
  GraphRewriter rw(g);
  bool changed = false;
  // hash -> new ids of candidate nodes already emitted
  std::unordered_multimap<size_t, int> seen;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& n = g.node(id);
    const bool mergeable =
        (is_pure(n) && n.num_outputs() > 0) || (n.kind == NodeKind::kConst && n.value.defined());
    if (!mergeable) {
      rw.copy(id);
      continue;
    }
    std::vector<ValueRef> inputs;
    for (ValueRef v : n.inputs) inputs.push_back(rw.map(v));
    size_t h = node_hash(n, inputs);
    int match = -1;
    auto [lo, hi] = seen.equal_range(h);
    for (auto it = lo; it != hi && match < 0; ++it) {
      const Node& m = rw.dst().node(it->second);
      if (m.kind != n.kind || m.op != n.op || m.inputs != inputs) continue;
      if (n.kind == NodeKind::kConst ? same_tensor(m.value, n.value)
                                     : attrs_equal(m.attrs, n.attrs)) {
        match = it->second;
      }
    }
    // Equal static shapes too: consumers were traced against them.
    if (match >= 0 && rw.dst().node(match).shapes == n.shapes) {
      std::vector<ValueRef> outs;
      for (int k = 0; k < n.num_outputs(); ++k) outs.push_back({match, k});
      rw.replace(id, std::move(outs));
      changed = true;
      continue;
    }
    seen.emplace(h, rw.copy(id));
  }
  if (changed) g = rw.finish();
  return changed;
}

}  // namespace tfcc::graph::passes
