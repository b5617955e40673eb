// Element-wise fusion: a connected set of float element-wise ops (see
// fused_elementwise::fusable_ops()) that all produce the same fully known shape S becomes one
// _FusedElementwise node. Its inputs (the set's leaves) have shape S or one element, so the
// kernel makes one blocked pass over memory instead of one pass per op. A member other than the
// root must be read only by members (an intermediate used elsewhere stays materialised and ends
// the set there). Sets are grown from the last node backwards, so each node joins at most one.
#include <array>
#include <functional>
#include <map>
#include <set>

#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"
#include "tfcc/ops/registry.h"

namespace tfcc::graph::passes {
namespace {

bool one_element(const PartialShape& s) {
  if (!s.is_fully_defined()) return false;
  for (int64_t d : s.dims()) {
    if (d != 1) return false;
  }
  return true;
}

// True if node n may join a set of shape `shape`: a fusable float op producing exactly that
// shape from inputs of that shape or of one element.
bool fusable(const Graph& g, const Node& n, const PartialShape& shape) {
  if (n.kind != NodeKind::kOp || !n.op || n.num_outputs() != 1) return false;
  if (fused_elementwise::opcode(n.op->name()) < 0) return false;
  if (n.dtypes[0] != float32 && n.dtypes[0] != float64) return false;
  if (!n.shapes[0].is_fully_defined() || !(n.shapes[0] == shape)) return false;
  for (ValueRef v : n.inputs) {
    const PartialShape& s = g.shape(v);
    if (g.dtype(v) != n.dtypes[0]) return false;
    if (!(s == shape) && !(one_element(s) && s.rank() <= shape.rank())) return false;
  }
  return true;
}

}  // namespace

bool elementwise_fusion(Graph& g, const PassOptions&) {
  const int num = g.num_nodes();
  const auto users = consumers(g);
  const auto outputs = is_graph_output(g);
  std::vector<int> group_of(static_cast<size_t>(num), -1);
  std::vector<std::vector<int>> groups;  // members in increasing id order; the root last
  for (int root = num - 1; root >= 0; --root) {
    const Node& r = g.node(root);
    if (group_of[static_cast<size_t>(root)] >= 0 || !r.shapes.size() ||
        !fusable(g, r, r.shapes[0])) {
      continue;
    }
    const PartialShape shape = r.shapes[0];
    const int gid = static_cast<int>(groups.size());
    std::set<int> members = {root};
    group_of[static_cast<size_t>(root)] = gid;
    // Candidates, latest first: every consumer of a candidate that could join was decided
    // before it.
    std::set<int, std::greater<int>> frontier;
    for (ValueRef v : r.inputs) frontier.insert(v.node);
    while (!frontier.empty()) {
      const int id = *frontier.begin();
      frontier.erase(frontier.begin());
      const Node& n = g.node(id);
      if (group_of[static_cast<size_t>(id)] >= 0 || outputs[static_cast<size_t>(id)] ||
          !fusable(g, n, shape)) {
        continue;
      }
      bool only_members = true;
      for (int u : users[static_cast<size_t>(id)]) only_members = only_members && members.count(u);
      if (!only_members) continue;
      members.insert(id);
      group_of[static_cast<size_t>(id)] = gid;
      for (ValueRef v : n.inputs) frontier.insert(v.node);
    }
    if (members.size() < 2) {
      group_of[static_cast<size_t>(root)] = -1;
      continue;
    }
    groups.emplace_back(members.begin(), members.end());
  }
  if (groups.empty()) return false;

  const OpDef& fused_op = op_def("_FusedElementwise");
  GraphRewriter rw(g);
  for (int id = 0; id < num; ++id) {
    const int gid = group_of[static_cast<size_t>(id)];
    if (gid < 0) {
      rw.copy(id);
      continue;
    }
    const std::vector<int>& members = groups[static_cast<size_t>(gid)];
    if (id != members.back()) {
      rw.drop(id);  // read only inside its set
      continue;
    }
    // Leaves first (value numbers 0..N-1, in order of first use), then one value per member.
    std::vector<ValueRef> leaves;
    std::map<int, int64_t> member_value;
    auto leaf_index = [&](ValueRef v) {
      for (size_t i = 0; i < leaves.size(); ++i) {
        if (leaves[i] == v) return static_cast<int64_t>(i);
      }
      leaves.push_back(v);
      return static_cast<int64_t>(leaves.size() - 1);
    };
    std::vector<std::array<int64_t, 3>> code;
    for (int m : members) {
      const Node& n = g.node(m);
      std::array<int64_t, 3> ins = {fused_elementwise::opcode(n.op->name()), -1, -1};
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        auto it = member_value.find(n.inputs[k].node);
        // Member values are numbered after the leaves: patched below once N is known.
        ins[k + 1] = it != member_value.end() ? -2 - it->second : leaf_index(n.inputs[k]);
      }
      member_value[m] = static_cast<int64_t>(code.size());
      code.push_back(ins);
    }
    const int64_t nleaves = static_cast<int64_t>(leaves.size());
    std::vector<int64_t> program;
    for (const auto& ins : code) {
      program.push_back(ins[0]);
      for (int k = 1; k < 3; ++k) {
        const int64_t v = ins[static_cast<size_t>(k)];
        program.push_back(v <= -2 ? nleaves + (-2 - v) : v);
      }
    }
    const Node& root = g.node(id);
    Node fused;
    fused.kind = NodeKind::kOp;
    fused.name = "FusedElementwise";
    fused.op = &fused_op;
    for (ValueRef v : leaves) fused.inputs.push_back(rw.map(v));
    fused.attrs.set("T", root.dtypes[0]);
    fused.attrs.set("N", nleaves);
    fused.attrs.set("program", program);
    fused.attrs.set("expression", fused_elementwise::describe(program, static_cast<int>(nleaves)));
    fused.dtypes = root.dtypes;
    fused.shapes = root.shapes;
    fused.location = root.location;
    rw.replace(id, {{rw.add(std::move(fused)), 0}});
  }
  g = rw.finish();
  return true;
}

}  // namespace tfcc::graph::passes
