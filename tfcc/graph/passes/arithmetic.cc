// Arithmetic simplification: removes operations whose result is one of their inputs, exactly
// (bit for bit, -0.0 and NaN included) and with the same dtype and static shape:
//   x * 1, 1 * x, x / 1, x - (+0)         (float and integer)
//   x + 0, 0 + x                          (integers; for floats only with a -0.0 constant,
//                                          since -0.0 + +0.0 is +0.0)
//   Transpose(Transpose(x, p), q)         -> Transpose(x, p∘q), or x when that is the identity
//   Reshape(Reshape(x, a), b)             -> Reshape(x, b); Reshape to x's own static shape -> x
//   Cast(x) to x's dtype, Identity(x), StopGradient(x) (the executor runs no gradients) -> x
// A constant operand must not broadcast x to a larger shape: the result keeps x's static shape.
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"

namespace tfcc::graph::passes {
namespace {

bool is_float(DType d) { return d == float32 || d == float64 || d == bfloat16; }

// True if `x` may stand for node n's output: same dtype, same static shape of known rank, and
// the other operand `c` (a constant) does not raise the rank.
bool can_forward(const Graph& dst, ValueRef x, const Node& n, const Tensor* c) {
  const PartialShape& sx = dst.shape(x);
  if (dst.dtype(x) != n.dtypes[0] || !sx.rank_known() || !(sx == n.shapes[0])) return false;
  return !c || c->rank() <= sx.rank();
}

// For binary x op c: the value that makes it an identity. Returns the surviving input or {-1}.
ValueRef binary_identity(const Graph& dst, const Node& n, ValueRef a, ValueRef b) {
  const Tensor* ca = const_value(dst, a);
  const Tensor* cb = const_value(dst, b);
  const DType t = n.dtypes[0];
  auto forward = [&](ValueRef x, const Tensor* c) {
    return can_forward(dst, x, n, c) ? x : ValueRef{-1, 0};
  };
  if (is_op(n, "Mul")) {
    if (cb && all_equal(*cb, 1.0)) return forward(a, cb);
    if (ca && all_equal(*ca, 1.0)) return forward(b, ca);
  } else if (is_op(n, "RealDiv")) {
    if (cb && all_equal(*cb, 1.0)) return forward(a, cb);
  } else if (is_op(n, "Sub")) {
    if (cb && all_equal(*cb, 0.0, /*negative_zero=*/false)) return forward(a, cb);
  } else if (is_op(n, "AddV2")) {
    const bool neg = is_float(t);  // floats: only -0.0 is an exact additive identity
    if (cb && all_equal(*cb, 0.0, neg)) return forward(a, cb);
    if (ca && all_equal(*ca, 0.0, neg)) return forward(b, ca);
  }
  return {-1, 0};
}

}  // namespace

bool arithmetic_simplification(Graph& g, const PassOptions&) {
  GraphRewriter rw(g);
  bool changed = false;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& n = g.node(id);
    if (n.kind != NodeKind::kOp || !n.op || n.num_outputs() != 1) {
      rw.copy(id);
      continue;
    }
    const Graph& dst = rw.dst();
    ValueRef result{-1, 0};
    if (n.inputs.size() == 2) {
      result = binary_identity(dst, n, rw.map(n.inputs[0]), rw.map(n.inputs[1]));
    } else if (n.inputs.size() == 1) {
      const ValueRef x = rw.map(n.inputs[0]);
      const Node& producer = dst.node(x.node);
      if (is_op(n, "Identity") || is_op(n, "StopGradient") ||
          (is_op(n, "Cast") && dst.dtype(x) == n.dtypes[0])) {
        if (can_forward(dst, x, n, nullptr)) result = x;
      } else if (is_op(n, "Reshape")) {
        if (can_forward(dst, x, n, nullptr) && n.shapes[0].is_fully_defined()) {
          result = x;
        } else if (is_op(producer, "Reshape")) {
          Node merged = n;
          merged.name.clear();
          merged.inputs = {producer.inputs[0]};
          result = {rw.add(std::move(merged)), 0};
        }
      } else if (is_op(n, "Transpose") && is_op(producer, "Transpose")) {
        const auto& p = producer.attrs.get<std::vector<int64_t>>("perm");
        const auto& q = n.attrs.get<std::vector<int64_t>>("perm");
        if (p.size() == q.size()) {
          std::vector<int64_t> composed(q.size());
          bool identity = true, valid = true;
          for (size_t j = 0; j < q.size(); ++j) {
            valid = valid && q[j] >= 0 && static_cast<size_t>(q[j]) < p.size();
            if (!valid) break;
            composed[j] = p[static_cast<size_t>(q[j])];
            identity = identity && composed[j] == static_cast<int64_t>(j);
          }
          const ValueRef src = producer.inputs[0];
          if (valid && identity && can_forward(dst, src, n, nullptr)) {
            result = src;
          } else if (valid && !identity) {
            Node merged = n;
            merged.name.clear();
            merged.inputs = {src};
            merged.attrs.set("perm", composed);
            result = {rw.add(std::move(merged)), 0};
          }
        }
      }
    }
    if (result.node >= 0) {
      rw.replace(id, {result});
      changed = true;
    } else {
      rw.copy(id);
    }
  }
  if (changed) g = rw.finish();
  return changed;
}

}  // namespace tfcc::graph::passes
