// What the passes share: a rewriter that rebuilds a graph node by node (copying, dropping or
// replacing nodes while keeping names unique and execution order), use counts, and the node
// predicates every pass asks (pure? side-effecting? a constant? which op?).
//
//   GraphRewriter rw(g);
//   for (int id = 0; id < g.num_nodes(); ++id) {
//     if (is_op(g.node(id), "Identity")) rw.replace(id, {rw.map(g.node(id).inputs[0])});
//     else rw.copy(id);
//   }
//   g = rw.finish();
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/graph/ir/graph.h"

namespace tfcc::graph::passes {

/// Builds a new graph from `src`, old node by old node, in order.
class GraphRewriter {
 public:
  explicit GraphRewriter(const Graph& src);

  const Graph& src() const { return src_; }
  Graph& dst() { return dst_; }
  /// The new value standing for old value `v` (its node must have been copied or replaced).
  ValueRef map(ValueRef v) const;
  /// Copies old node `id` with its inputs mapped; returns its new id.
  int copy(int id);
  /// Drops old node `id`; its outputs become `values` (new refs, one per output).
  void replace(int id, std::vector<ValueRef> values);
  /// Drops old node `id`, which must be unused.
  void drop(int id);
  /// Appends a new node (inputs are new refs) under a fresh unique name; returns its id.
  int add(Node node);
  /// Appends a Const node holding `value`.
  ValueRef add_const(Tensor value, const std::source_location& loc);
  /// Sets the mapped outputs and returns the new graph.
  Graph finish();

 private:
  const Graph& src_;
  Graph dst_;
  std::vector<std::vector<ValueRef>> map_;
  std::set<std::string> used_names_;
};

/// How many times each output is used (by node inputs and graph outputs): uses[node][index].
std::vector<std::vector<int>> use_counts(const Graph& g);
/// The nodes that read each node's outputs (a node appears once per use).
std::vector<std::vector<int>> consumers(const Graph& g);
/// True for every output that is a graph output.
std::vector<bool> is_graph_output(const Graph& g);

/// A registry op named `name`.
bool is_op(const Node& n, std::string_view name);
/// A registry op the registry does not mark stateful (its result depends on inputs and
/// attributes alone).
bool is_pure(const Node& n);
/// A node a pass must keep and keep in order: a stateful op, a host call, or control flow
/// containing one.
bool has_side_effects(const Node& n);
/// The constant held by value `v`'s node, or nullptr.
const Tensor* const_value(const Graph& g, ValueRef v);
/// True if every element of constant `t` equals `value` (float or integer dtypes); with
/// `negative_zero`, a floating zero must also carry the sign bit.
bool all_equal(const Tensor& t, double value, bool negative_zero = false);
/// True if a and b are the same attribute values (tensors compared by content).
bool attrs_equal(const Attrs& a, const Attrs& b);
/// True if two concrete tensors have the same dtype, shape and bytes.
bool same_tensor(const Tensor& a, const Tensor& b);

}  // namespace tfcc::graph::passes
