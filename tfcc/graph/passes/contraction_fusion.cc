// Contraction fusion: MatMul or Conv2D, then BiasAdd, then optionally Relu / Tanh / Sigmoid,
// become one _FusedMatMul / _FusedConv2D node, whose bias and activation run as oneDNN post-ops
// on the product while it is still in cache. The product and the biased value must have no
// other reader (an intermediate used elsewhere is kept as it is). Float32 / float64, NHWC.
//
// Numerics: the bias is added once to each finished product, as the separate ops do, but the
// fused kernel may sum the product in another order than the plain MatMul / Conv2D kernel and
// computes float32 activations in double, so results agree to rounding, not bit for bit (as
// with TensorFlow's remapper).
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"
#include "tfcc/ops/registry.h"

namespace tfcc::graph::passes {
namespace {

bool only_reader(const std::vector<std::vector<int>>& users, const std::vector<bool>& outputs,
                 int producer, int reader) {
  const auto& u = users[static_cast<size_t>(producer)];
  return !outputs[static_cast<size_t>(producer)] && u.size() == 1 && u[0] == reader;
}

bool nhwc(const Node& n) {
  const AttrValue* f = n.attrs.find("data_format");
  return !f || std::get<std::string>(*f) == "NHWC";
}

}  // namespace

bool contraction_fusion(Graph& g, const PassOptions&) {
  const auto users = consumers(g);
  const auto outputs = is_graph_output(g);
  // For each fused chain: the contraction, the BiasAdd, the activation (-1: none); keyed by the
  // last node of the chain, which the fused node replaces.
  struct Chain {
    int contraction, bias, act;
  };
  std::vector<int> role(static_cast<size_t>(g.num_nodes()), -1);  // chain index
  std::vector<Chain> chains;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& b = g.node(id);
    if (!is_op(b, "BiasAdd") || !nhwc(b)) continue;
    if (b.dtypes[0] != float32 && b.dtypes[0] != float64) continue;
    const int c = b.inputs[0].node;
    const Node& cn = g.node(c);
    const bool matmul =
        is_op(cn, "MatMul") && cn.shapes[0].rank_known() && cn.shapes[0].rank() == 2;
    const bool conv = is_op(cn, "Conv2D") && nhwc(cn);
    if ((!matmul && !conv) || role[static_cast<size_t>(c)] >= 0 ||
        !only_reader(users, outputs, c, id)) {
      continue;
    }
    int act = -1;
    const auto& bu = users[static_cast<size_t>(id)];
    if (bu.size() == 1 && !outputs[static_cast<size_t>(id)]) {
      const Node& an = g.node(bu[0]);
      if (is_op(an, "Relu") || is_op(an, "Tanh") || is_op(an, "Sigmoid")) act = bu[0];
    }
    const int chain = static_cast<int>(chains.size());
    chains.push_back({c, id, act});
    role[static_cast<size_t>(c)] = chain;
    role[static_cast<size_t>(id)] = chain;
    if (act >= 0) role[static_cast<size_t>(act)] = chain;
  }
  if (chains.empty()) return false;
  GraphRewriter rw(g);
  for (int id = 0; id < g.num_nodes(); ++id) {
    const int k = role[static_cast<size_t>(id)];
    if (k < 0) {
      rw.copy(id);
      continue;
    }
    const Chain& ch = chains[static_cast<size_t>(k)];
    const int last = ch.act >= 0 ? ch.act : ch.bias;
    if (id != last) {
      rw.drop(id);  // read only by the next node of its chain
      continue;
    }
    const Node& c = g.node(ch.contraction);
    const Node& b = g.node(ch.bias);
    Node fused = c;
    fused.name.clear();
    fused.op = &op_def(is_op(c, "MatMul") ? "_FusedMatMul" : "_FusedConv2D");
    fused.inputs = {rw.map(c.inputs[0]), rw.map(c.inputs[1]), rw.map(b.inputs[1])};
    fused.attrs.set("activation", ch.act >= 0 ? g.node(ch.act).op->name() : std::string());
    fused.attrs.set("leakyrelu_alpha", 0.2);
    fused.dtypes = g.node(last).dtypes;
    fused.shapes = g.node(last).shapes;
    fused.location = g.node(last).location;
    rw.replace(id, {{rw.add(std::move(fused)), 0}});
  }
  g = rw.finish();
  return true;
}

}  // namespace tfcc::graph::passes
