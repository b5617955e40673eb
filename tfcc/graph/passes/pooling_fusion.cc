// max_pool_grad_relu_fusion: in a traced training step, the gradient of ReLU (or of a conv fused
// with one) followed by a max pool is ReluGrad(MaxPoolGrad(x, y, g), x), two passes over a
// tensor of the pool's input size. The kernel that routes g to each window's maximum knows
// the maximum's value, which is x there, so it can apply ReLU's mask as it writes:
//
//   %m = MaxPoolGrad(%x, %y, %g)                 %r = _MaxPoolGradReluGrad(%x, %y, %g)
//   %r = ReluGrad(%m, %x)               ->
//
// when %m is read by that ReluGrad alone. The result is bitwise the same.
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"
#include "tfcc/ops/registry.h"

namespace tfcc::graph::passes {

bool max_pool_grad_relu_fusion(Graph& g, const PassOptions&) {
  const auto uses = use_counts(g);
  const auto outputs = is_graph_output(g);
  std::vector<int> fused_pool(static_cast<size_t>(g.num_nodes()), -1);  // ReluGrad -> pool grad
  std::vector<bool> absorbed(static_cast<size_t>(g.num_nodes()), false);
  bool any = false;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& r = g.node(id);
    if (!is_op(r, "ReluGrad") || r.inputs.size() != 2 || r.inputs[0].index != 0) continue;
    const int m = r.inputs[0].node;
    const Node& pool = g.node(m);
    if (!is_op(pool, "MaxPoolGrad") || pool.inputs.size() != 3 ||
        !(pool.inputs[0] == r.inputs[1]) || uses[static_cast<size_t>(m)][0] != 1 ||
        outputs[static_cast<size_t>(m)] || absorbed[static_cast<size_t>(m)]) {
      continue;
    }
    fused_pool[static_cast<size_t>(id)] = m;
    absorbed[static_cast<size_t>(m)] = true;
    any = true;
  }
  if (!any) return false;
  GraphRewriter rw(g);
  for (int id = 0; id < g.num_nodes(); ++id) {
    if (absorbed[static_cast<size_t>(id)]) {
      rw.drop(id);  // rebuilt at its ReluGrad
      continue;
    }
    const int m = fused_pool[static_cast<size_t>(id)];
    if (m < 0) {
      rw.copy(id);
      continue;
    }
    const Node& r = g.node(id);
    Node fused = g.node(m);
    fused.name.clear();
    fused.op = &op_def("_MaxPoolGradReluGrad");
    fused.inputs = {rw.map(fused.inputs[0]), rw.map(fused.inputs[1]), rw.map(fused.inputs[2])};
    fused.dtypes = r.dtypes;
    fused.shapes = r.shapes;
    fused.location = r.location;
    rw.replace(id, {ValueRef{rw.add(std::move(fused)), 0}});
  }
  g = rw.finish();
  return true;
}

}  // namespace tfcc::graph::passes
