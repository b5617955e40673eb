#include "tfcc/graph/passes/rewrite.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <variant>

namespace tfcc::graph::passes {

GraphRewriter::GraphRewriter(const Graph& src)
    : src_(src), dst_(src.name()), map_(static_cast<size_t>(src.num_nodes())) {}

ValueRef GraphRewriter::map(ValueRef v) const {
  const auto& m = map_.at(static_cast<size_t>(v.node));
  if (static_cast<size_t>(v.index) >= m.size()) {
    throw InternalError(internal::str_cat("graph rewrite: value %", v.node, ":", v.index, " of '",
                                          src_.name(), "' used before it was mapped"));
  }
  return m[static_cast<size_t>(v.index)];
}

int GraphRewriter::copy(int id) {
  Node n = src_.node(id);
  for (ValueRef& v : n.inputs) v = map(v);
  int nid;
  if (n.kind == NodeKind::kArg) {
    nid = dst_.add_arg(n.dtypes[0], n.shapes[0], n.name, n.location);
    used_names_.insert(dst_.node(nid).name);
  } else {
    nid = add(std::move(n));
  }
  auto& m = map_[static_cast<size_t>(id)];
  m.clear();
  for (int k = 0; k < dst_.node(nid).num_outputs(); ++k) m.push_back({nid, k});
  return nid;
}

void GraphRewriter::replace(int id, std::vector<ValueRef> values) {
  if (static_cast<int>(values.size()) != src_.node(id).num_outputs()) {
    throw InternalError("graph rewrite: replacement has the wrong number of values");
  }
  map_[static_cast<size_t>(id)] = std::move(values);
}

void GraphRewriter::drop(int id) { map_[static_cast<size_t>(id)].clear(); }

int GraphRewriter::add(Node node) {
  std::string base = node.name.empty() ? node.type_name() : node.name;
  std::string name = base;
  for (int k = 1; used_names_.count(name); ++k) name = internal::str_cat(base, "_", k);
  node.name = name;
  int nid = dst_.add_node(std::move(node));
  used_names_.insert(dst_.node(nid).name);
  return nid;
}

ValueRef GraphRewriter::add_const(Tensor value, const std::source_location& loc) {
  Node n;
  n.kind = NodeKind::kConst;
  n.dtypes = {value.dtype()};
  n.shapes = {PartialShape(value.shape())};
  n.value = std::move(value);
  n.location = loc;
  return {add(std::move(n)), 0};
}

Graph GraphRewriter::finish() {
  std::vector<ValueRef> outs;
  for (ValueRef v : src_.outputs()) outs.push_back(map(v));
  dst_.set_outputs(std::move(outs));
  return std::move(dst_);
}

std::vector<std::vector<int>> use_counts(const Graph& g) {
  std::vector<std::vector<int>> uses(static_cast<size_t>(g.num_nodes()));
  for (int id = 0; id < g.num_nodes(); ++id) {
    uses[static_cast<size_t>(id)].assign(static_cast<size_t>(g.node(id).num_outputs()), 0);
  }
  for (const Node& n : g.nodes()) {
    for (ValueRef v : n.inputs) ++uses[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)];
  }
  for (ValueRef v : g.outputs()) ++uses[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)];
  return uses;
}

std::vector<std::vector<int>> consumers(const Graph& g) {
  std::vector<std::vector<int>> out(static_cast<size_t>(g.num_nodes()));
  for (int id = 0; id < g.num_nodes(); ++id) {
    for (ValueRef v : g.node(id).inputs) out[static_cast<size_t>(v.node)].push_back(id);
  }
  return out;
}

std::vector<bool> is_graph_output(const Graph& g) {
  std::vector<bool> out(static_cast<size_t>(g.num_nodes()), false);
  for (ValueRef v : g.outputs()) out[static_cast<size_t>(v.node)] = true;
  return out;
}

bool is_op(const Node& n, std::string_view name) {
  return n.kind == NodeKind::kOp && n.op && n.op->name() == name;
}

bool is_pure(const Node& n) { return n.kind == NodeKind::kOp && n.op && !n.op->is_stateful(); }

bool has_side_effects(const Node& n) {
  switch (n.kind) {
    case NodeKind::kArg:
    case NodeKind::kConst:
      return false;
    case NodeKind::kOp:
      return !n.op || n.op->is_stateful();
    case NodeKind::kHostCall:
      return true;
    case NodeKind::kIf:
    case NodeKind::kWhile:
      for (const auto& sub : n.subgraphs) {
        for (const Node& s : sub->nodes()) {
          if (has_side_effects(s)) return true;
        }
      }
      return false;
  }
  return true;
}

const Tensor* const_value(const Graph& g, ValueRef v) {
  const Node& n = g.node(v.node);
  return n.kind == NodeKind::kConst ? &n.value : nullptr;
}

bool all_equal(const Tensor& t, double value, bool negative_zero) {
  if (!t.defined() || t.is_symbolic()) return false;
  bool ok = true;
  visit_dtype(t.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      ok = false;
    } else {
      const T* p = t.data<T>();
      for (int64_t i = 0; i < t.num_elements() && ok; ++i) {
        double v;
        if constexpr (std::is_same_v<T, BFloat16>) {
          v = static_cast<double>(static_cast<float>(p[i]));
        } else {
          v = static_cast<double>(p[i]);
        }
        ok = v == value;
        if constexpr (std::is_floating_point_v<T>) {
          if (ok && value == 0) ok = std::signbit(p[i]) == negative_zero;
        }
      }
    }
  });
  return ok;
}

bool same_tensor(const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined() || a.is_symbolic() || b.is_symbolic()) return false;
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  return a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

bool attrs_equal(const Attrs& a, const Attrs& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto& [ka, va] = a.items()[i];
    // Not a structured binding: the lambda below captures vb, which clang 16 rejects under OpenMP.
    const auto& kb = b.items()[i].first;
    const auto& vb = b.items()[i].second;
    if (ka != kb || va.index() != vb.index()) return false;
    bool same = std::visit(
        [&]<typename V>(const V& x) {
          const V& y = std::get<V>(vb);
          if constexpr (std::is_same_v<V, Tensor>) {
            return same_tensor(x, y);
          } else {
            return x == y;
          }
        },
        va);
    if (!same) return false;
  }
  return true;
}

}  // namespace tfcc::graph::passes
