// Builds one TensorFlow FunctionDef node by node, with the naming rules of function bodies:
// an argument is referred to by its bare name, a node's output as "node:out_arg:index", a
// control input as "^node".
//
//   FunctionBuilder fb("__inference_serve_1");
//   std::string x = fb.add_arg("x", tensorflow::DT_FLOAT, PartialShape({-1, 2}));
//   tensorflow::NodeDef& mm = fb.add_node("MatMul", "MatMul", {x, w});
//   fb.set_type(mm, "T", float32);
//   fb.add_ret("output_0", FunctionBuilder::ref(mm, "product"), tensorflow::DT_FLOAT);
//   tensorflow::FunctionDef f = fb.finish();
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/io/proto/graph.pb.h"

namespace tfcc::saved_model::tf_export {

/// Accumulates the signature, nodes and results of one FunctionDef.
class FunctionBuilder {
 public:
  explicit FunctionBuilder(std::string name);

  /// Adds an input argument (its name made valid and unique) and returns the reference to it.
  std::string add_arg(std::string_view name, tensorflow::DataType dtype, const PartialShape& shape);
  /// Adds a node of op `op`, named after `base` (made valid and unique), with `inputs`.
  tensorflow::NodeDef& add_node(const std::string& op, std::string_view base,
                                std::vector<std::string> inputs);
  /// A Const node holding `value`; returns the reference to its output.
  std::string add_const(const Tensor& value, std::string_view base = "Const");
  /// A 1-D int32 Const (int64 when a value does not fit in int32).
  std::string add_index_const(std::span<const int64_t> values, std::string_view base = "Const",
                              DType* dtype_out = nullptr);
  /// A scalar Const of `dtype` with value `v`.
  std::string add_scalar_const(DType dtype, double v, std::string_view base = "Const");
  /// Adds a result `name` (made a valid argument name) returning `ref`.
  void add_ret(std::string_view name, const std::string& ref, tensorflow::DataType dtype);

  /// The reference to output `index` of the output argument `out_arg` of `node`.
  static std::string ref(const tensorflow::NodeDef& node, std::string_view out_arg, int index = 0);
  /// Sets attribute `name` to a type.
  static void set_type(tensorflow::NodeDef& node, const std::string& name, DType dtype);

  /// Marks the function stateful (it reads or writes variables).
  void set_stateful() { fn_.mutable_signature()->set_is_stateful(true); }
  const std::string& name() const { return fn_.signature().name(); }
  /// The finished FunctionDef (with the `_input_shapes` attribute TensorFlow writes).
  tensorflow::FunctionDef finish();

 private:
  std::string unique(std::string base, std::set<std::string>& taken);

  tensorflow::FunctionDef fn_;
  std::set<std::string> node_names_, arg_names_, ret_names_;
  std::vector<PartialShape> input_shapes_;
};

}  // namespace tfcc::saved_model::tf_export
