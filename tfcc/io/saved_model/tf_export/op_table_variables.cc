// Rules for the variable ops. In tfcc a variable is an attribute ("resource") of the ops that use
// it; in TensorFlow it is a DT_RESOURCE input, which the function receives as an argument.
// tfcc's assignments return the new value; TensorFlow's return nothing, so the value is read
// back after the write.
#include "tfcc/io/saved_model/tf_export/op_rules.h"

namespace tfcc::saved_model::tf_export::rules {
namespace {

OpRule assign(std::string tf_op) {
  return [tf_op](OpContext& c) {
    const DType dt = attr<DType>(c, "dtype");
    tensorflow::NodeDef& w = emit(c, tf_op, {c.resource("resource"), c.inputs[0]});
    FunctionBuilder::set_type(w, "dtype", dt);
    c.order(w, "resource", true);
    tensorflow::NodeDef& r =
        c.fb.add_node("ReadVariableOp", c.node.name + "/Read", {c.resource("resource")});
    FunctionBuilder::set_type(r, "dtype", dt);
    c.order(r, "resource", false);
    return outputs(r, "value");
  };
}

}  // namespace

void add_variable_rules(RuleMap& r) {
  r["ReadVariableOp"] = [](OpContext& c) {
    tensorflow::NodeDef& n = emit(c, "ReadVariableOp", {c.resource("resource")});
    FunctionBuilder::set_type(n, "dtype", c.node.dtypes.at(0));
    c.order(n, "resource", false);
    return outputs(n, "value");
  };
  r["AssignVariableOp"] = assign("AssignVariableOp");
  r["AssignAddVariableOp"] = assign("AssignAddVariableOp");
  r["AssignSubVariableOp"] = assign("AssignSubVariableOp");
}

}  // namespace tfcc::saved_model::tf_export::rules
