// The rule of tfcc's fused ScaledDotProductAttention, which TensorFlow has no op for: it is
// written as the TensorFlow ops Keras' dot_product_attention emits (BatchMatMulV2, Mul, AddV2,
// SelectV2 with a large negative score where the mask or the causal band excludes a key, Softmax,
// BatchMatMulV2), with the same masking; the logsumexp output as Max + Log(Sum(Exp(s - max))).

#include "tfcc/io/saved_model/tf_export/op_rules.h"
#include "tfcc/io/saved_model/tf_export/proto_util.h"

namespace tfcc::saved_model::tf_export::rules {
namespace {

using ::tfcc::internal::str_cat;

std::vector<std::string> attention(OpContext& c) {
  const DType t = c.node.attrs.get<DType>("T");
  const std::string& base = c.node.name;
  auto node = [&](const char* op, const std::string& suffix, std::vector<std::string> in,
                  bool typed = true) -> tensorflow::NodeDef& {
    tensorflow::NodeDef& n = c.fb.add_node(op, str_cat(base, "/", suffix), std::move(in));
    if (typed) FunctionBuilder::set_type(n, "T", t);
    return n;
  };
  tensorflow::NodeDef& qk = node("BatchMatMulV2", "scores", {c.inputs[0], c.inputs[1]});
  (*qk.mutable_attr())["adj_x"].set_b(false);
  (*qk.mutable_attr())["adj_y"].set_b(true);
  const std::string scale =
      c.fb.add_scalar_const(t, c.node.attrs.get<double>("scale"), base + "/scale");
  tensorflow::NodeDef& scaled = node("Mul", "scaled", {FunctionBuilder::ref(qk, "output"), scale});
  tensorflow::NodeDef& biased =
      node("AddV2", "biased", {FunctionBuilder::ref(scaled, "z"), c.inputs[3]});
  std::string s = FunctionBuilder::ref(biased, "z");
  std::string keep = c.inputs[4];
  if (c.node.attrs.get<bool>("causal")) {
    // The band j <= i of a matrix of ones shaped like the scores.
    tensorflow::NodeDef& ones = node("OnesLike", "ones", {s});
    const std::string lower = c.fb.add_scalar_const(int64, -1, base + "/num_lower");
    const std::string upper = c.fb.add_scalar_const(int64, 0, base + "/num_upper");
    tensorflow::NodeDef& band =
        node("MatrixBandPart", "band", {FunctionBuilder::ref(ones, "y"), lower, upper});
    FunctionBuilder::set_type(band, "Tindex", int64);
    const std::string zero = c.fb.add_scalar_const(t, 0, base + "/zero");
    tensorflow::NodeDef& causal =
        node("Greater", "causal", {FunctionBuilder::ref(band, "band"), zero});
    tensorflow::NodeDef& both =
        node("LogicalAnd", "keep", {keep, FunctionBuilder::ref(causal, "z")}, false);
    keep = FunctionBuilder::ref(both, "z");
  }
  const std::string negative = c.fb.add_scalar_const(t, -0.7 * 3.38953e38, base + "/negative");
  tensorflow::NodeDef& masked = node("SelectV2", "masked", {keep, s, negative});
  s = FunctionBuilder::ref(masked, "output");
  tensorflow::NodeDef& p = node("Softmax", "weights", {s});
  tensorflow::NodeDef& out =
      node("BatchMatMulV2", "output", {FunctionBuilder::ref(p, "softmax"), c.inputs[2]});
  (*out.mutable_attr())["adj_x"].set_b(false);
  (*out.mutable_attr())["adj_y"].set_b(false);
  // logsumexp = max + log(sum(exp(s - max))) over the keys.
  const std::string axis = c.fb.add_scalar_const(int32, -1, base + "/axis");
  auto reduce = [&](const char* op, const std::string& suffix, const std::string& x,
                    bool keep_dims) -> tensorflow::NodeDef& {
    tensorflow::NodeDef& n = node(op, suffix, {x, axis});
    FunctionBuilder::set_type(n, "Tidx", int32);
    (*n.mutable_attr())["keep_dims"].set_b(keep_dims);
    return n;
  };
  tensorflow::NodeDef& mx = reduce("Max", "max", s, true);
  tensorflow::NodeDef& shifted = node("Sub", "shifted", {s, FunctionBuilder::ref(mx, "output")});
  tensorflow::NodeDef& e = node("Exp", "exp", {FunctionBuilder::ref(shifted, "z")});
  tensorflow::NodeDef& sum = reduce("Sum", "sum", FunctionBuilder::ref(e, "y"), false);
  tensorflow::NodeDef& log = node("Log", "log", {FunctionBuilder::ref(sum, "output")});
  tensorflow::NodeDef& mx1 = reduce("Max", "max_row", s, false);
  tensorflow::NodeDef& lse = node(
      "AddV2", "logsumexp", {FunctionBuilder::ref(mx1, "output"), FunctionBuilder::ref(log, "y")});
  return {FunctionBuilder::ref(out, "output"), FunctionBuilder::ref(lse, "z")};
}

}  // namespace

void add_attention_rules(RuleMap& r) { r["ScaledDotProductAttention"] = attention; }

}  // namespace tfcc::saved_model::tf_export::rules
