// The table from tfcc registry ops to TensorFlow ops, used when a traced graph is written as a
// FunctionDef. Most tfcc ops already carry TensorFlow's name and attributes; the rest differ in
// one of three ways, each handled by its rule:
//   - an argument tfcc keeps as an attribute is an input tensor in TensorFlow (Reshape's shape,
//     a reduction's axes, ConcatV2's axis, Pad's paddings, ...): the rule adds a Const;
//   - an attribute is spelled differently (keepdims -> keep_dims, GatherV2's T -> Tparams) or is
//     missing (FusedBatchNormV3's U);
//   - a variable is an attribute in tfcc and a DT_RESOURCE input in TensorFlow.
// Output argument names are TensorFlow's (Relu's "activations", Transpose's "y"), which function
// bodies use in their references. tfcc's internal ops (_FusedConv2D, _FusedMatMul,
// _FusedElementwise, _SumToShape, FusedDropout, ...) have no rule: they only appear in optimised
// or gradient graphs, and the exporter writes the graph as traced.
//
//   const OpRule* rule = find_op_rule("Reshape");
//   std::vector<std::string> outs = (*rule)(ctx);   // one reference per tfcc output
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/graph/ir/graph.h"
#include "tfcc/io/saved_model/tf_export/function_builder.h"

namespace tfcc::saved_model::tf_export {

/// What a rule sees: the node to convert, the references of its inputs, and the function it
/// writes into.
struct OpContext {
  FunctionBuilder& fb;
  const graph::Node& node;
  /// References of the node's inputs, in tfcc's order.
  std::vector<std::string> inputs;
  /// The reference of the DT_RESOURCE argument for the variable in attribute `attr`.
  std::function<std::string(const std::string& attr)> resource;
  /// Orders a node that reads (write=false) or writes the variable in attribute `attr` after the
  /// earlier accesses it must follow (TensorFlow runs a function body by data dependencies only).
  std::function<void(tensorflow::NodeDef&, const std::string& attr, bool write)> order;
};

/// Converts one node; returns one reference per output of the tfcc node.
using OpRule = std::function<std::vector<std::string>(OpContext&)>;

/// The rule for tfcc op `op`, or nullptr when it has no TensorFlow form.
const OpRule* find_op_rule(std::string_view op);
/// Every tfcc op the exporter can write, sorted.
std::vector<std::string> exportable_ops();

}  // namespace tfcc::saved_model::tf_export
