#include "tfcc/graph/exec/plan.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "tfcc/ops/in_place.h"

namespace tfcc::graph {
namespace {

size_t at(int i) { return static_cast<size_t>(i); }

bool runs_subgraph_or_host(const Node& n) {
  return n.kind == NodeKind::kIf || n.kind == NodeKind::kWhile || n.kind == NodeKind::kHostCall;
}

// Input j of op node `n` may lend its buffer to some output of `n` (dtype and static shape
// permitting; the kernel checks the concrete shape).
bool lendable_to_an_output(const Graph& g, const Node& n, int j) {
  const ValueRef v = n.inputs[at(j)];
  for (int k = 0; k < n.num_outputs(); ++k) {
    if (!may_write_in_place(*n.op, k, j)) continue;
    if (n.dtypes[at(k)] != g.dtype(v)) continue;
    if (!n.shapes[at(k)].is_compatible_with(g.shape(v))) continue;
    return true;
  }
  return false;
}

}  // namespace

ExecutionPlan::ExecutionPlan(const Graph& g) : graph_(&g) {
  const int num_nodes = g.num_nodes();
  last_use_.resize(at(num_nodes));
  released_.resize(at(num_nodes));
  donated_.assign(at(num_nodes), 0);
  subplans_.resize(at(num_nodes));
  // Values some If, While or host call reads: their outputs may be the same tensor, so such a
  // value is never written over, whatever its liveness says.
  std::vector<std::vector<bool>> pinned(at(num_nodes));
  for (int id = 0; id < num_nodes; ++id) {
    const Node& n = g.node(id);
    last_use_[at(id)].assign(at(n.num_outputs()), kUnused);
    pinned[at(id)].assign(at(n.num_outputs()), false);
  }
  for (int id = 0; id < num_nodes; ++id) {  // nodes are in execution order: the last reader wins
    const Node& n = g.node(id);
    for (ValueRef v : n.inputs) {
      last_use_[at(v.node)][at(v.index)] = id;
      if (runs_subgraph_or_host(n)) pinned[at(v.node)][at(v.index)] = true;
    }
  }
  for (ValueRef v : g.outputs()) last_use_[at(v.node)][at(v.index)] = kGraphOutput;

  for (int id = 0; id < num_nodes; ++id) {
    const Node& n = g.node(id);
    const bool can_lend = n.kind == NodeKind::kOp && has_in_place_outputs(*n.op);
    for (size_t j = 0; j < n.inputs.size(); ++j) {
      const ValueRef v = n.inputs[j];
      if (last_use(v) != id) continue;
      const bool first = std::find(n.inputs.begin(), n.inputs.begin() + static_cast<long>(j), v) ==
                         n.inputs.begin() + static_cast<long>(j);
      if (!first) continue;
      const bool once = std::count(n.inputs.begin(), n.inputs.end(), v) == 1;
      if (can_lend && j < 64 && once && g.node(v.node).kind == NodeKind::kOp &&
          !pinned[at(v.node)][at(v.index)] && lendable_to_an_output(g, n, static_cast<int>(j))) {
        donated_[at(id)] |= uint64_t{1} << j;
      } else {
        released_[at(id)].push_back(v);
      }
    }
    for (int k = 0; k < n.num_outputs(); ++k) {
      if (last_use_[at(id)][at(k)] == kUnused) released_[at(id)].push_back({id, k});
    }
    if (n.kind == NodeKind::kIf || n.kind == NodeKind::kWhile) {
      for (const auto& sub : n.subgraphs) {
        subplans_[at(id)].push_back(std::make_shared<const ExecutionPlan>(*sub));
      }
    }
  }
}

std::shared_ptr<const ExecutionPlan> ExecutionPlan::get(const std::shared_ptr<const Graph>& graph) {
  struct Entry {
    std::weak_ptr<const Graph> graph;
    std::shared_ptr<const ExecutionPlan> plan;
  };
  static std::mutex mu;
  static auto* cache = new std::unordered_map<const Graph*, Entry>();  // leaked: used at exit
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache->find(graph.get());
    if (it != cache->end() && it->second.graph.lock() == graph) return it->second.plan;
  }
  auto plan = std::make_shared<const ExecutionPlan>(*graph);
  std::lock_guard<std::mutex> lock(mu);
  std::erase_if(*cache, [](const auto& e) { return e.second.graph.expired(); });
  (*cache)[graph.get()] = Entry{graph, plan};
  return plan;
}

int ExecutionPlan::last_use(ValueRef v) const { return last_use_.at(at(v.node)).at(at(v.index)); }

const std::vector<ValueRef>& ExecutionPlan::released_after(int node) const {
  return released_.at(at(node));
}

uint64_t ExecutionPlan::donated_inputs(int node) const { return donated_.at(at(node)); }

const std::vector<std::shared_ptr<const ExecutionPlan>>& ExecutionPlan::subplans(int node) const {
  return subplans_.at(at(node));
}

std::string ExecutionPlan::to_string() const {
  const Graph& g = *graph_;
  auto value_name = [&](ValueRef v) {
    return internal::str_cat(g.node(v.node).name, ":", v.index);
  };
  std::string out = internal::str_cat("plan of '", g.name(), "'\n");
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& n = g.node(id);
    out.append(internal::str_cat("  ", id, " ", n.name, " (", n.type_name(), "): last read by"));
    for (int k = 0; k < n.num_outputs(); ++k) {
      const int u = last_use({id, k});
      out.append(k == 0 ? " " : ", ");
      out.append(u == kUnused ? "nobody" : u == kGraphOutput ? "the caller" : g.node(u).name);
    }
    if (n.num_outputs() == 0) out.append(" -");
    if (!released_[at(id)].empty()) {
      out.append("; frees");
      for (size_t i = 0; i < released_[at(id)].size(); ++i) {
        out.append(i == 0 ? " " : ", ");
        out.append(value_name(released_[at(id)][i]));
      }
    }
    if (donated_[at(id)] != 0) {
      out.append("; lends");
      bool first = true;
      for (size_t j = 0; j < n.inputs.size() && j < 64; ++j) {
        if (!(donated_[at(id)] & (uint64_t{1} << j))) continue;
        out.append(first ? " " : ", ");
        out.append(value_name(n.inputs[j]));
        first = false;
      }
    }
    out.append("\n");
  }
  return out;
}

}  // namespace tfcc::graph
