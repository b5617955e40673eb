// Small conversions shared by the TensorFlow SavedModel writer: tfcc dtypes, shapes, tensors and
// attributes into TensorFlow's protobuf messages, and names into the forms TensorFlow accepts.
//
//   tensorflow::AttrValue v;
//   tfcc::saved_model::tf_export::set_attr_value(tfcc::AttrValue{int64_t{2}}, &v);   // v.i() == 2
//   tensorflow::DataType t = tfcc::saved_model::tf_export::tf_dtype(tfcc::float32);   // DT_FLOAT
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/io/proto/tensor.pb.h"
#include "tfcc/ops/attrs.h"

namespace tfcc::saved_model::tf_export {

/// TensorFlow's DataType for a tfcc dtype (DT_FLOAT for float32, ...).
tensorflow::DataType tf_dtype(DType dtype);
/// A PartialShape as TensorShapeProto (-1 for an unknown dimension, unknown_rank when unknown).
void set_shape(const PartialShape& shape, tensorflow::TensorShapeProto* out);
/// A concrete tensor as TensorProto (raw little-endian bytes in tensor_content).
void set_tensor(const Tensor& t, tensorflow::TensorProto* out);
/// A DT_STRING tensor of `shape` holding `values`.
void set_string_tensor(std::span<const std::string> values, std::span<const int64_t> shape,
                       tensorflow::TensorProto* out);
/// A tfcc attribute value as AttrValue. InvalidArgumentError for a resource (variables travel as
/// inputs in TensorFlow) or a symbolic tensor; `where` names the node in that message.
void set_attr_value(const AttrValue& value, tensorflow::AttrValue* out, std::string_view where);

/// `name` made a valid FunctionDef argument name (`[a-z][a-z0-9_]*`): lower-cased, other
/// characters replaced by '_', prefixed with "arg_" when it does not start with a letter.
std::string arg_name(std::string_view name);
/// `name` made a valid NodeDef name (`[A-Za-z0-9.][A-Za-z0-9_./-]*`).
std::string node_name(std::string_view name);

}  // namespace tfcc::saved_model::tf_export
