// The TensorFlow op -> tfcc op table of the SavedModel importer: one row per TensorFlow op, with
// the output argument names that `node:out_arg:index` references resolve against, the defaults
// of attributes TensorFlow strips from NodeDefs (stripped_default_attrs), what the op becomes in
// tfcc, and the converter that emits it.
//
//   const OpRow* row = tfcc::saved_model::tf_import::find_op("MatMul");
//   NodeContext c{node, inputs, *row, state};
//   std::vector<Value> out = row->convert(c);   // dispatches tfcc ops into the current trace
//
// Converters run while a function is being traced: they call tfcc ops through dispatch(), so the
// ops become graph nodes; when every input is a concrete tensor (constants, shapes known at trace
// time) run() computes the result at import time instead. docs/tf_ops.md is generated from this
// table (`tfcc saved-model ops`).
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/ops/attrs.h"

namespace tfcc::saved_model::tf_import {

/// One TensorFlow value while a function is imported.
struct Value {
  /// A tensor; for a TensorList, the dense stack of its elements ([n, element...]).
  Tensor tensor;
  /// A resource (DT_RESOURCE): the variable it stands for.
  Variable variable;
  /// A TensorList (DT_VARIANT) held densely in `tensor`.
  bool is_list = false;
  /// A TensorList reserved with element dimensions unknown when TensorFlow traced it (Keras'
  /// batch size): `tensor` is undefined until the first TensorListSetItem gives the element
  /// shape; `lazy_length` elements of `lazy_dtype`.
  int64_t lazy_length = -1;
  DType lazy_dtype = float32;

  static Value of(Tensor t) { return Value{std::move(t), {}, false}; }
  static Value list(Tensor t) { return Value{std::move(t), {}, true}; }
  bool is_lazy_list() const { return is_list && !tensor.defined(); }
};

struct ImportState;
struct OpRow;

/// What a converter sees: the node, its data inputs, its row and the import state.
struct NodeContext {
  const tensorflow::NodeDef& node;
  std::vector<Value> inputs;
  const OpRow& row;
  ImportState& state;
  /// "function 'f', node 'n' (MatMul)" for messages (the file is prefixed by the caller).
  std::string where;

  int num_inputs() const { return static_cast<int>(inputs.size()); }
  /// Input `i` as a tensor (InvalidArgumentError if it is a resource or missing).
  const Tensor& in(int i) const;
  /// Input `i` as a variable (InvalidArgumentError if it is not a resource).
  const Variable& var(int i) const;
  /// Input `i`'s value as integers: it must be known when the function is traced (a constant
  /// or shape arithmetic on static shapes); UnimplementedError otherwise.
  std::vector<int64_t> ints(int i) const;
  /// Input `i`'s value as one integer (a scalar or one-element tensor known at trace time).
  int64_t int_scalar(int i) const;
  /// Input `i`'s value as a float scalar known at trace time.
  double float_scalar(int i) const;

  /// The attribute, or the row's default when TensorFlow stripped it; InvalidArgumentError if
  /// neither exists or it has another type.
  const tensorflow::AttrValue& attr(const std::string& name) const;
  bool has_attr(const std::string& name) const;
  int64_t i(const std::string& name) const;
  double f(const std::string& name) const;
  bool b(const std::string& name) const;
  std::string s(const std::string& name) const;
  std::vector<int64_t> list_i(const std::string& name) const;
  /// A type attribute as a tfcc dtype (InvalidArgumentError for dtypes tfcc does not hold).
  DType type(const std::string& name) const;

  /// Runs tfcc op `op` on `inputs`: computed now when every input is concrete and the op has no
  /// side effect, otherwise added to the trace.
  std::vector<Tensor> run(const char* op, std::vector<Tensor> inputs, Attrs attrs = {}) const;
  Tensor run1(const char* op, std::vector<Tensor> inputs, Attrs attrs = {}) const;
  /// Counts a tensor of `dims` that an op will create from attributes (Fill, Tile, Range, ...)
  /// against the byte budget: InvalidArgumentError when a file asks for too much.
  void charge(const std::vector<int64_t>& dims, DType dtype) const;
  /// UnimplementedError naming the node: an attribute value or input the importer cannot map.
  [[noreturn]] void unsupported(const std::string& what) const;
};

using Converter = std::function<std::vector<Value>(NodeContext&)>;

/// One TensorFlow op the importer knows.
struct OpRow {
  /// TensorFlow's op name.
  std::string tf_op;
  /// Output argument names in order (TensorFlow's OpDef); a name ending in "[]" is a list,
  /// allowed only last.
  std::vector<std::string> outputs;
  /// Defaults of attributes that may be stripped, as TensorFlow's OpDef declares them.
  std::map<std::string, tensorflow::AttrValue> defaults;
  /// What it becomes in tfcc, for the docs ("MatMul", "Sum(x) * (1 / count)").
  std::string tfcc;
  Converter convert;
};

/// The row for a TensorFlow op, or nullptr.
const OpRow* find_op(const std::string& tf_op);
/// Every row, sorted by TensorFlow op name.
std::vector<const OpRow*> all_ops();
/// The flat output index of `arg:index` for `row` (InvalidArgumentError naming `context` if the
/// argument does not exist).
int output_index(const OpRow& row, const std::string& arg, int index, const std::string& context);
/// The supported-op list as Markdown (docs/tf_ops.md is this text).
std::string ops_markdown();

// Attribute default helpers for the tables.
tensorflow::AttrValue attr_b(bool v);
tensorflow::AttrValue attr_i(int64_t v);
tensorflow::AttrValue attr_f(float v);
tensorflow::AttrValue attr_s(const std::string& v);
tensorflow::AttrValue attr_list_i(std::vector<int64_t> v);
tensorflow::AttrValue attr_type(int tf_dtype);

// The families' rows (op_table.cc gathers them).
void add_math_ops(std::vector<OpRow>& rows);
void add_array_ops(std::vector<OpRow>& rows);
void add_nn_ops(std::vector<OpRow>& rows);
void add_state_ops(std::vector<OpRow>& rows);
void add_control_ops(std::vector<OpRow>& rows);
void add_linalg_ops(std::vector<OpRow>& rows);

}  // namespace tfcc::saved_model::tf_import
