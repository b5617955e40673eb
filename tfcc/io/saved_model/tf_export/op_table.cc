#include "tfcc/io/saved_model/tf_export/op_table.h"

#include "tfcc/io/saved_model/tf_export/op_rules.h"
#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {
namespace rules {

tensorflow::NodeDef& emit(OpContext& c, const std::string& tf_op, std::vector<std::string> inputs) {
  return c.fb.add_node(tf_op, c.node.name, std::move(inputs));
}

void copy_attr(OpContext& c, tensorflow::NodeDef& n, const char* from, const char* name) {
  set_attr_value(*c.node.attrs.find(from), &(*n.mutable_attr())[name],
                 ::tfcc::internal::str_cat("node ", c.node.name, " attribute ", from));
}

void copy_attrs(OpContext& c, tensorflow::NodeDef& n,
                std::initializer_list<std::pair<const char*, const char*>> renames,
                std::initializer_list<const char*> skip) {
  for (const auto& [key, value] : c.node.attrs.items()) {
    bool skipped = false;
    for (const char* s : skip) skipped = skipped || key == s;
    if (skipped) continue;
    std::string name = key;
    for (const auto& [from, to] : renames) {
      if (key == from) name = to;
    }
    set_attr_value(value, &(*n.mutable_attr())[name],
                   ::tfcc::internal::str_cat("node ", c.node.name, " attribute ", key));
  }
}

std::vector<std::string> outputs(const tensorflow::NodeDef& n, const std::string& out_arg,
                                 int count) {
  std::vector<std::string> refs;
  for (int i = 0; i < count; ++i) refs.push_back(FunctionBuilder::ref(n, out_arg, i));
  return refs;
}

OpRule same(std::vector<std::string> out_args, std::string tf_op) {
  return [out_args = std::move(out_args), tf_op = std::move(tf_op)](OpContext& c) {
    tensorflow::NodeDef& n = emit(c, tf_op.empty() ? c.node.op->name() : tf_op, c.inputs);
    copy_attrs(c, n);
    std::vector<std::string> refs;
    for (const std::string& out : out_args) refs.push_back(FunctionBuilder::ref(n, out));
    return refs;
  };
}

}  // namespace rules

namespace {

using namespace rules;

RuleMap make_rules() {
  RuleMap r;
  for (const char* op :
       {"Abs",   "Ceil",     "Cos",       "Erf",        "Exp",   "Expm1", "Floor",
        "Log",   "Log1p",    "Neg",       "Reciprocal", "Round", "Rsqrt", "Sigmoid",
        "Sign",  "Sin",      "Sqrt",      "Square",     "Tan",   "Tanh",  "IsFinite",
        "IsNan", "OnesLike", "ZerosLike", "LogicalNot"}) {
    r[op] = same({"y"});
  }
  for (const char* op : {"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Maximum",
                         "Minimum", "Pow", "SquaredDifference", "Greater", "GreaterEqual", "Less",
                         "LessEqual", "Equal", "NotEqual", "LogicalAnd", "LogicalOr"}) {
    r[op] = same({"z"});
  }
  for (const char* op : {"BiasAdd", "BatchMatMulV2", "Conv2D", "DepthwiseConv2dNative", "MaxPool",
                         "AvgPool", "Identity", "StopGradient", "Squeeze", "SelectV2", "Shape",
                         "Size", "Rank", "TensorScatterUpdate"}) {
    r[op] = same({"output"});
  }
  r["AddN"] = same({"sum"});
  r["MatMul"] = same({"product"});
  r["Relu"] = same({"activations"});
  r["Relu6"] = same({"activations"});
  for (const char* op :
       {"Asin", "Acos", "Atan", "Sinh", "Cosh", "Lgamma", "Digamma", "Erfc", "Invert"}) {
    r[op] = same({"y"});
  }
  for (const char* op : {"Atan2", "Xlogy", "TruncateDiv", "TruncateMod", "Polygamma", "BitwiseAnd",
                         "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"}) {
    r[op] = same({"z"});
  }
  r["Cast"] = same({"y"});
  r["Where"] = same({"index"});
  r["SoftmaxCrossEntropyWithLogits"] = same({"loss", "backprop"});
  r["SparseSoftmaxCrossEntropyWithLogits"] = same({"loss", "backprop"});
  r["GatherNd"] = [](OpContext& c) {
    tensorflow::NodeDef& n = emit(c, "GatherNd", c.inputs);
    copy_attrs(c, n, {{"T", "Tparams"}});
    return outputs(n, "output");
  };
  // TensorFlow types the statistics separately (U); tfcc keeps them in the input's dtype.
  r["FusedBatchNormV3"] = [](OpContext& c) {
    tensorflow::NodeDef& n = emit(c, "FusedBatchNormV3", c.inputs);
    copy_attrs(c, n);
    copy_attr(c, n, "T", "U");
    std::vector<std::string> refs;
    for (const char* out : {"y", "batch_mean", "batch_variance", "reserve_space_1",
                            "reserve_space_2", "reserve_space_3"}) {
      refs.push_back(FunctionBuilder::ref(n, out));
    }
    return refs;
  };
  r["Unpack"] = [](OpContext& c) {
    tensorflow::NodeDef& n = emit(c, "Unpack", c.inputs);
    copy_attrs(c, n);
    return outputs(n, "output", c.node.num_outputs());
  };
  add_input_rules(r);
  add_variable_rules(r);
  add_attention_rules(r);
  return r;
}

const RuleMap& table() {
  static const RuleMap* rules = new RuleMap(make_rules());
  return *rules;
}

}  // namespace

const OpRule* find_op_rule(std::string_view op) {
  auto it = table().find(op);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> exportable_ops() {
  std::vector<std::string> names;
  for (const auto& [name, rule] : table()) names.push_back(name);
  return names;
}

}  // namespace tfcc::saved_model::tf_export
