// Reading TensorFlow's protobuf messages into tfcc values, treating every byte as untrusted:
// the SavedModel file itself (size limit, parse), TensorProto constants, dtypes and shapes.
//
//   tensorflow::SavedModel sm = tfcc::saved_model::tf_import::parse_saved_model(
//       read_saved_model_bytes("/models/cnn/saved_model.pb", options), "saved_model.pb");
//   int64_t budget = options.max_tensor_bytes;
//   tfcc::Tensor t = tf_import::tensor_from_proto(node.attr().at("value").tensor(), &budget, ctx);
//
// A file that is not a SavedModel message is DataLossError; a well-formed message that breaks a
// rule (a dtype tfcc does not hold, a negative dimension, too many bytes) is
// InvalidArgumentError; both name `context`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tfcc/core/tensor.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::saved_model::tf_import {

/// TensorFlow's DataType numbers that tfcc does not hold as tensors but meets in graphs.
inline constexpr int kTfResource = tensorflow::DT_RESOURCE;
inline constexpr int kTfVariant = tensorflow::DT_VARIANT;

/// Reads DIR/saved_model.pb: NotFoundError if absent, InvalidArgumentError if it exceeds the
/// limits.
std::string read_saved_model_bytes(const std::string& path, const LoadOptions& options);

/// Parses SavedModel bytes; DataLossError if they are not a SavedModel message.
tensorflow::SavedModel parse_saved_model(const std::string& bytes, const std::string& context);

/// The tfcc dtype of a TensorFlow DataType, or nullopt (resource, variant, string, ...).
std::optional<DType> dtype_from_tf(int tf_dtype);
/// Like dtype_from_tf but InvalidArgumentError naming `context` when tfcc has no such dtype.
DType require_dtype(int tf_dtype, const std::string& context);
/// TensorFlow's enum name ("DT_FLOAT"), for messages and `saved-model show`.
std::string tf_dtype_name(int tf_dtype);

/// A TensorShapeProto as a PartialShape (-1: unknown; unknown_rank honoured).
PartialShape shape_from_proto(const tensorflow::TensorShapeProto& s, const std::string& context);

/// A TensorProto as a concrete tensor; its bytes are taken from `*budget`
/// (InvalidArgumentError when it runs out).
Tensor tensor_from_proto(const tensorflow::TensorProto& t, int64_t* budget,
                         const std::string& context);

}  // namespace tfcc::saved_model::tf_import
