// The execution plan: what the executor needs to know about a graph's memory, computed once per
// graph. For every value (one output of one node) it records the last node that reads it, so the
// executor drops each intermediate right after that node instead of at the end of the call; and
// for every node, which inputs die with it and may lend their buffer to an output written in
// place (tfcc/ops/in_place.h).
//
//   auto plan = tfcc::graph::ExecutionPlan::get(optimized_graph);   // cached per graph
//   std::vector<tfcc::Tensor> out = tfcc::graph::run_plan(*plan, {x});
//   std::cout << plan->to_string();                                 // the last-use table
//
// A freed buffer goes back to the CPU allocator's size-class cache (tfcc/core/allocator.h),
// which is the free list later outputs are served from: the next allocation of that size class
// on this thread reuses the block that was just released, still hot in cache.
//
// What may be written in place, decided here: input j of an op node, when the op declares an
// output may reuse input j, the value is produced by an op node (arguments belong to the caller,
// constants to the graph), is not returned by the graph, is read by no If, While or host-call
// node (their outputs may be that very tensor), is read by this node once and never after it,
// and its dtype and static shape match that output's. At run time the kernel still checks that
// no other tensor shares the buffer (a reshape view, a variable's value) before writing into it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::graph {

/// Liveness and in-place decisions for one graph (and, recursively, its If / While subgraphs).
class ExecutionPlan {
 public:
  /// last_use() of a value that nothing reads (dropped as soon as its node has run).
  static constexpr int kUnused = -1;
  /// last_use() of a value the graph returns (kept to the end of the call).
  static constexpr int kGraphOutput = -2;

  /// Plans `graph`, which must outlive the plan.
  explicit ExecutionPlan(const Graph& graph);

  /// The plan of `graph`, computed on first use and cached while the graph lives (the cache
  /// holds the graph weakly; the caller keeps it alive while it uses the plan).
  static std::shared_ptr<const ExecutionPlan> get(const std::shared_ptr<const Graph>& graph);

  const Graph& graph() const { return *graph_; }

  /// The id of the last node that reads `v`, or kUnused / kGraphOutput.
  int last_use(ValueRef v) const;
  /// Values to drop once node `node` has run: inputs it reads last, and its own unread outputs.
  const std::vector<ValueRef>& released_after(int node) const;
  /// Bit j set: input j of `node` dies with it and is lent to its kernel for an in-place output.
  uint64_t donated_inputs(int node) const;
  /// The plans of node `node`'s subgraphs (If: then, else; While: cond, body); empty otherwise.
  const std::vector<std::shared_ptr<const ExecutionPlan>>& subplans(int node) const;

  /// The table, one node a line: "  3 Relu_1 (Relu): frees Mul_0:0; in place: input 0".
  std::string to_string() const;

 private:
  const Graph* graph_;
  std::vector<std::vector<int>> last_use_;
  std::vector<std::vector<ValueRef>> released_;
  std::vector<uint64_t> donated_;
  std::vector<std::vector<std::shared_ptr<const ExecutionPlan>>> subplans_;
};

/// What one run did with memory (tests and benchmarks read it; subgraph runs included).
struct RunStats {
  int64_t kernels = 0;           ///< op nodes run
  int64_t in_place_outputs = 0;  ///< outputs written into a lent input's buffer
  /// The nodes that wrote an output in place, in execution order.
  std::vector<std::string> in_place_nodes;
};

/// Runs `plan`'s graph on `args` (one tensor per argument), releasing intermediates after their
/// last use and writing in place where the plan allows; same results and errors as run_graph().
/// Fills `stats` when given.
std::vector<Tensor> run_plan(const ExecutionPlan& plan, std::span<const Tensor> args,
                             RunStats* stats = nullptr);

}  // namespace tfcc::graph
