// Batch-norm folding for inference graphs: FusedBatchNormV3 with is_training=false computes
// y = (x - mean) * scale / sqrt(variance + epsilon) + offset per output channel. When x is a
// Conv2D (NHWC) read by nothing else, that is a convolution with the filter's output channels
// scaled by inv = scale * rsqrt(variance + epsilon), plus the bias offset - mean * inv:
//
//   Conv2D(x, w) -> FusedBatchNormV3        becomes        Conv2D(x, w * inv) -> BiasAdd(b)
//
// and contraction_fusion then makes it one _FusedConv2D. The new small ops on the filter and
// the statistics run once per call (constant folding removes them when those are constants).
// Results agree with the unfolded graph to rounding (the filter is scaled before the sum).
#include "tfcc/graph/passes/passes.h"
#include "tfcc/graph/passes/rewrite.h"
#include "tfcc/ops/registry.h"

namespace tfcc::graph::passes {
namespace {

bool nhwc(const Node& n) {
  const AttrValue* f = n.attrs.find("data_format");
  return !f || std::get<std::string>(*f) == "NHWC";
}

// Appends op `name` with `inputs` (new refs), dtype `t` and static `shape`.
ValueRef add_op(GraphRewriter& rw, const char* name, std::vector<ValueRef> inputs, DType t,
                PartialShape shape, const std::source_location& loc, Attrs attrs = {}) {
  Node n;
  n.kind = NodeKind::kOp;
  n.op = &op_def(name);
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  n.attrs.set("T", t);
  n.dtypes = {t};
  n.shapes = {std::move(shape)};
  n.location = loc;
  return {rw.add(std::move(n)), 0};
}

}  // namespace

bool batch_norm_folding(Graph& g, const PassOptions&) {
  const auto uses = use_counts(g);
  const auto users = consumers(g);
  const auto outputs = is_graph_output(g);
  std::vector<int> folded_conv(static_cast<size_t>(g.num_nodes()), -1);  // BN id -> conv id
  std::vector<bool> absorbed(static_cast<size_t>(g.num_nodes()), false);
  bool any = false;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const Node& bn = g.node(id);
    if (!is_op(bn, "FusedBatchNormV3") || bn.attrs.get<bool>("is_training") || !nhwc(bn)) {
      continue;
    }
    bool extra_outputs_used = false;
    for (int k = 1; k < bn.num_outputs(); ++k) {
      extra_outputs_used =
          extra_outputs_used || uses[static_cast<size_t>(id)][static_cast<size_t>(k)];
    }
    const int c = bn.inputs[0].node;
    const Node& conv = g.node(c);
    if (extra_outputs_used || !is_op(conv, "Conv2D") || !nhwc(conv) ||
        outputs[static_cast<size_t>(c)] || users[static_cast<size_t>(c)].size() != 1 ||
        absorbed[static_cast<size_t>(c)]) {
      continue;
    }
    folded_conv[static_cast<size_t>(id)] = c;
    absorbed[static_cast<size_t>(c)] = true;
    any = true;
  }
  if (!any) return false;
  GraphRewriter rw(g);
  for (int id = 0; id < g.num_nodes(); ++id) {
    if (absorbed[static_cast<size_t>(id)]) {
      rw.drop(id);  // rebuilt at its batch norm
      continue;
    }
    const int c = folded_conv[static_cast<size_t>(id)];
    if (c < 0) {
      rw.copy(id);
      continue;
    }
    const Node& bn = g.node(id);
    const Node& conv = g.node(c);
    const DType t = bn.dtypes[0];
    const auto& loc = bn.location;
    const ValueRef scale = rw.map(bn.inputs[1]), offset = rw.map(bn.inputs[2]);
    const ValueRef mean = rw.map(bn.inputs[3]), var = rw.map(bn.inputs[4]);
    const PartialShape cshape = g.shape(bn.inputs[1]);
    Tensor eps = t == float32
                     ? Tensor::scalar<float>(static_cast<float>(bn.attrs.get<double>("epsilon")))
                     : Tensor::scalar<double>(bn.attrs.get<double>("epsilon"));
    ValueRef e = rw.add_const(std::move(eps), loc);
    ValueRef inv =
        add_op(rw, "Rsqrt", {add_op(rw, "AddV2", {var, e}, t, cshape, loc)}, t, cshape, loc);
    inv = add_op(rw, "Mul", {inv, scale}, t, cshape, loc);
    const ValueRef filter = rw.map(conv.inputs[1]);
    ValueRef scaled = add_op(rw, "Mul", {filter, inv}, t, g.shape(conv.inputs[1]), loc);
    ValueRef bias =
        add_op(rw, "Sub", {offset, add_op(rw, "Mul", {mean, inv}, t, cshape, loc)}, t, cshape, loc);
    Node new_conv = conv;
    new_conv.name.clear();
    new_conv.inputs = {rw.map(conv.inputs[0]), scaled};
    ValueRef y{rw.add(std::move(new_conv)), 0};
    Attrs ba;
    ba.set("data_format", std::string("NHWC"));
    y = add_op(rw, "BiasAdd", {y, bias}, t, bn.shapes[0], loc, std::move(ba));
    // Outputs 1.. are unread (checked above); they map to y only to keep the rewriter whole.
    rw.replace(id, std::vector<ValueRef>(static_cast<size_t>(bn.num_outputs()), y));
  }
  g = rw.finish();
  return true;
}

}  // namespace tfcc::graph::passes
