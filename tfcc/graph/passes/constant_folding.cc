// Constant folding: a pure op whose inputs are all constants runs once, now, with the same CPU
// kernel the executor would use (so the folded value is bit for bit what it would compute), and
// becomes a Const node. Shape, Size and Rank of a value whose static shape is known fold without
// reading the value. Results above options.max_constant_bytes stay ops, so a graph does not
// carry large materialised tensors; an op that raises an error stays too, so the error still
// surfaces when (and if) it runs.
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"
#include "tfcc/ops/dispatch.h"

namespace tfcc::graph::passes {
namespace {

// The static size in bytes of a node's outputs, or -1 when a shape is not fully known.
int64_t static_bytes(const Node& n) {
  int64_t total = 0;
  for (int k = 0; k < n.num_outputs(); ++k) {
    const PartialShape& s = n.shapes[static_cast<size_t>(k)];
    if (!s.is_fully_defined()) return -1;
    int64_t elems = 1;
    for (int64_t d : s.dims()) elems = checked_mul(elems, d);
    total += checked_mul(elems, static_cast<int64_t>(dtype_size(n.dtypes[static_cast<size_t>(k)])));
  }
  return total;
}

// Shape / Size / Rank of a statically known shape, or an undefined tensor.
Tensor shape_value(const Graph& g, const Node& n) {
  const PartialShape& s = g.shape(n.inputs[0]);
  if (is_op(n, "Rank")) {
    return s.rank_known() ? Tensor::scalar<int32_t>(s.rank()) : Tensor();
  }
  if (!s.is_fully_defined()) return Tensor();
  DType out = n.attrs.get<DType>("out_type");
  if (is_op(n, "Size")) {
    int64_t elems = 1;
    for (int64_t d : s.dims()) elems = checked_mul(elems, d);
    if (out == int32) {
      if (elems > std::numeric_limits<int32_t>::max()) return Tensor();
      return Tensor::scalar<int32_t>(static_cast<int32_t>(elems));
    }
    return Tensor::scalar<int64_t>(elems);
  }
  const int64_t r = s.rank();
  if (out == int32) {
    std::vector<int32_t> dims;
    for (int64_t d : s.dims()) {
      if (d > std::numeric_limits<int32_t>::max()) return Tensor();
      dims.push_back(static_cast<int32_t>(d));
    }
    return Tensor::from_vector(dims, Shape{r});
  }
  return Tensor::from_vector(s.dims(), Shape{r});
}

}  // namespace

bool constant_folding(Graph& g, const PassOptions& options) {
  GraphRewriter rw(g);
  bool changed = false;
  ObserverPause pause;  // folding is not something a tape should see
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& n = g.node(id);
    if (!is_pure(n) || n.num_outputs() == 0) {
      rw.copy(id);
      continue;
    }
    if ((is_op(n, "Shape") || is_op(n, "Size") || is_op(n, "Rank")) &&
        !const_value(g, n.inputs[0])) {
      Tensor v = shape_value(g, n);
      if (v.defined() && v.dtype() == n.dtypes[0]) {
        rw.replace(id, {rw.add_const(std::move(v), n.location)});
        changed = true;
      } else {
        rw.copy(id);
      }
      continue;
    }
    std::vector<Tensor> inputs;
    bool all_const = true;
    for (ValueRef v : n.inputs) {
      const Tensor* t = const_value(rw.dst(), rw.map(v));
      if (!t) {
        all_const = false;
        break;
      }
      inputs.push_back(*t);
    }
    const int64_t bytes = static_bytes(n);
    if (!all_const || bytes > options.max_constant_bytes) {
      rw.copy(id);
      continue;
    }
    std::vector<Tensor> outs;
    try {
      OpCall call{*n.op, inputs, n.attrs, n.location};
      outs = execute_eager(call);
    } catch (const Error&) {
      rw.copy(id);  // the error belongs to run time
      continue;
    }
    size_t total = 0;
    bool ok = static_cast<int>(outs.size()) == n.num_outputs();
    for (size_t k = 0; ok && k < outs.size(); ++k) {
      total += outs[k].nbytes();
      ok = outs[k].defined() && outs[k].dtype() == n.dtypes[k] &&
           n.shapes[k].is_compatible_with(outs[k].partial_shape());
    }
    if (!ok || total > static_cast<size_t>(options.max_constant_bytes)) {
      rw.copy(id);
      continue;
    }
    std::vector<ValueRef> refs;
    for (Tensor& t : outs) refs.push_back(rw.add_const(std::move(t), n.location));
    rw.replace(id, std::move(refs));
    changed = true;
  }
  if (changed) g = rw.finish();
  return changed;
}

}  // namespace tfcc::graph::passes
