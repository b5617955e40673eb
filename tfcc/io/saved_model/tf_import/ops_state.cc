// Import rows for constants, placeholders, resource variables, NoOp and TensorLists. TensorLists
// (DT_VARIANT) are held densely: the stack of their elements as one tensor [n, element...], which
// is what Keras' RNN loops read and write (one element per time step).
#include "tfcc/io/saved_model/tf_import/interpreter.h"
#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/io/saved_model/tf_import/variables.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

std::vector<Value> one(Tensor t) { return {Value::of(std::move(t))}; }

std::vector<Value> konst(NodeContext& c) {
  const auto& a = c.attr("value");
  if (!a.has_tensor()) throw InvalidArgumentError("attr 'value' must be a tensor");
  return one(tensor_from_proto(a.tensor(), &c.state.tensor_budget, "attr 'value'"));
}

std::vector<Value> var_handle(NodeContext& c) {
  if (!c.state.variables) c.unsupported("a variable outside a SavedModel");
  Variable v = c.state.variables->handle(c.node, str_cat(c.state.path, ": ", c.where));
  return {Value{{}, v, false}};
}

// A TensorFlow 1 reference variable: both its value (what its consumers read) and the variable
// (what Assign writes).
std::vector<Value> ref_variable(NodeContext& c) {
  if (!c.state.variables) c.unsupported("a variable outside a SavedModel");
  Variable v = c.state.variables->handle(c.node, str_cat(c.state.path, ": ", c.where));
  return {Value{v.read_value(), v, false}};
}

std::vector<Value> assign(NodeContext& c, const char* how) {
  const Variable& v = c.var(0);
  const Tensor& x = c.in(1);
  if (std::string(how) == "add") {
    v.assign_add(x);
  } else if (std::string(how) == "sub") {
    v.assign_sub(x);
  } else {
    v.assign(x);
  }
  return {};
}

std::vector<Value> list_reserve(NodeContext& c) {
  std::vector<int64_t> shape = c.ints(0);
  const int64_t n = c.int_scalar(1);
  if (n < 0) c.unsupported("a TensorList reserved with an unknown size");
  // A scalar -1 means "unknown rank"; a -1 entry an unknown dimension: the first
  // TensorListSetItem decides.
  bool known = c.in(0).partial_shape().rank() != 0;
  for (int64_t d : shape) known = known && d >= 0;
  if (!known) {
    Value v;
    v.is_list = true;
    v.lazy_length = n;
    v.lazy_dtype = c.type("element_dtype");
    return {v};
  }
  shape.insert(shape.begin(), n);
  c.charge(shape, c.type("element_dtype"));
  Tensor zero = c.run1("Cast", {Tensor::scalar<float>(0.f)}, {{"DstT", c.type("element_dtype")}});
  return {Value::list(c.run1("BroadcastTo", {zero}, {{"shape", shape}}))};
}

std::vector<Value> list_set(NodeContext& c) {
  if (c.inputs.at(0).is_lazy_list()) {
    const PartialShape ps = c.in(2).partial_shape();
    if (!ps.rank_known() || !ps.is_fully_defined()) {
      c.unsupported("a TensorList whose element shape is not static");
    }
    std::vector<int64_t> shape = ps.dims();
    shape.insert(shape.begin(), c.inputs[0].lazy_length);
    c.charge(shape, c.inputs[0].lazy_dtype);
    Tensor zero = c.run1("Cast", {Tensor::scalar<float>(0.f)}, {{"DstT", c.inputs[0].lazy_dtype}});
    c.inputs[0] = Value::list(c.run1("BroadcastTo", {zero}, {{"shape", shape}}));
  }
  Tensor index = c.run1("Reshape", {c.in(1)}, {{"shape", std::vector<int64_t>{1, 1}}});
  Tensor item = c.run1("ExpandDims", {c.in(2)}, {{"axis", int64_t{0}}});
  return {Value::list(c.run1("TensorScatterUpdate", {c.in(0), index, item}))};
}

}  // namespace

void add_state_ops(std::vector<OpRow>& rows) {
  rows.push_back({"Const", {"output"}, {}, "a constant", konst});
  rows.push_back({"Placeholder",
                  {"output"},
                  {},
                  "a signature input",
                  [](NodeContext& c) -> std::vector<Value> {
                    throw InvalidArgumentError(str_cat("Placeholder '", c.node.name(),
                                                       "' is not an input of the signature"));
                  }});
  rows.push_back(
      {"PlaceholderWithDefault", {"output"}, {}, "its default (when not fed)", [](NodeContext& c) {
         return std::vector<Value>{c.inputs.at(0)};
       }});
  rows.push_back(
      {"NoOp", {}, {}, "nothing (control dependencies order the trace)", [](NodeContext&) {
         return std::vector<Value>{};
       }});
  rows.push_back({"VarHandleOp",
                  {"resource"},
                  {{"container", attr_s("")}, {"shared_name", attr_s("")}},
                  "the restored Variable (object graph -> checkpoint key)",
                  var_handle});
  rows.push_back({"ReadVariableOp", {"value"}, {}, "ReadVariableOp", [](NodeContext& c) {
                    return one(c.var(0).read_value());
                  }});
  rows.push_back({"VarIsInitializedOp",
                  {"is_initialized"},
                  {},
                  "true (variables are restored)",
                  [](NodeContext&) { return one(Tensor::scalar<bool>(true)); }});
  rows.push_back({"AssignVariableOp",
                  {},
                  {{"validate_shape", attr_b(false)}},
                  "AssignVariableOp",
                  [](NodeContext& c) { return assign(c, "set"); }});
  rows.push_back({"AssignAddVariableOp", {}, {}, "AssignAddVariableOp", [](NodeContext& c) {
                    return assign(c, "add");
                  }});
  rows.push_back({"AssignSubVariableOp", {}, {}, "AssignSubVariableOp", [](NodeContext& c) {
                    return assign(c, "sub");
                  }});
  rows.push_back({"VariableV2",
                  {"ref"},
                  {{"container", attr_s("")}, {"shared_name", attr_s("")}},
                  "its restored value (TensorFlow 1 Saver -> checkpoint key)",
                  ref_variable});
  rows.push_back({"Assign",
                  {"output_ref"},
                  {{"validate_shape", attr_b(true)}, {"use_locking", attr_b(true)}},
                  "Variable::assign (a TensorFlow 1 reference variable)",
                  [](NodeContext& c) {
                    assign(c, "set");
                    const Variable& v = c.var(0);
                    return std::vector<Value>{Value{v.read_value(), v, false}};
                  }});
  rows.push_back({"TensorListFromTensor",
                  {"output_handle"},
                  {},
                  "(the tensor, as a dense list)",
                  [](NodeContext& c) { return std::vector<Value>{Value::list(c.in(0))}; }});
  rows.push_back({"TensorListReserve", {"handle"}, {}, "zeros [n, element...]", list_reserve});
  rows.push_back({"TensorListGetItem", {"item"}, {}, "GatherV2(list, index)", [](NodeContext& c) {
                    return one(c.run1("GatherV2", {c.in(0), c.in(1)}, {{"axis", int64_t{0}}}));
                  }});
  rows.push_back({"TensorListSetItem",
                  {"output_handle"},
                  {{"resize_if_index_out_of_bounds", attr_b(false)}},
                  "TensorScatterUpdate(list, [[index]], [item])",
                  list_set});
  rows.push_back({"TensorListStack",
                  {"tensor"},
                  {{"num_elements", attr_i(-1)}},
                  "(the dense list)",
                  [](NodeContext& c) { return one(c.in(0)); }});
  rows.push_back({"TensorListLength", {"length"}, {}, "its first dimension", [](NodeContext& c) {
                    const PartialShape ps = c.in(0).partial_shape();
                    if (!ps.rank_known() || ps.dims().empty() || ps.dims()[0] < 0) {
                      c.unsupported("a TensorList of unknown length");
                    }
                    return one(Tensor::scalar<int32_t>(static_cast<int32_t>(ps.dims()[0])));
                  }});
}

}  // namespace tfcc::saved_model::tf_import
