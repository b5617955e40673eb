// TensorFlow protobuf messages to tfcc values (proto_io.h).
#include "tfcc/io/saved_model/tf_import/proto_io.h"

#include <sys/stat.h>

#include <cstring>
#include <vector>

#include "tfcc/io/proto/message_io.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

tensorflow::SavedModel parse_saved_model(const std::string& bytes, const std::string& context) {
  tensorflow::SavedModel sm;
  io::proto::parse(sm, bytes, context);  // nesting- and size-limited; DataLossError naming context
  return sm;
}

std::string read_saved_model_bytes(const std::string& path, const LoadOptions& options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw NotFoundError(str_cat(path, ": not found"));
  // The graph holds constants (counted against max_tensor_bytes) plus nodes of bounded size.
  const int64_t limit = options.max_tensor_bytes + options.max_nodes * 4096;
  if (st.st_size > limit) {
    throw InvalidArgumentError(str_cat(path, ": ", st.st_size, " bytes exceed the limit of ", limit,
                                       " (LoadOptions::max_tensor_bytes and max_nodes)"));
  }
  return read_file(path);
}

std::optional<DType> dtype_from_tf(int tf_dtype) {
  switch (tf_dtype) {
    case tensorflow::DT_FLOAT:
      return float32;
    case tensorflow::DT_DOUBLE:
      return float64;
    case tensorflow::DT_INT32:
      return int32;
    case tensorflow::DT_INT64:
      return int64;
    case tensorflow::DT_UINT8:
      return uint8;
    case tensorflow::DT_BOOL:
      return bool_;
    case tensorflow::DT_BFLOAT16:
      return bfloat16;
    default:
      return std::nullopt;
  }
}

std::string tf_dtype_name(int tf_dtype) {
  if (tensorflow::DataType_IsValid(tf_dtype)) {
    return tensorflow::DataType_Name(static_cast<tensorflow::DataType>(tf_dtype));
  }
  return str_cat("DataType ", tf_dtype);
}

DType require_dtype(int tf_dtype, const std::string& context) {
  std::optional<DType> d = dtype_from_tf(tf_dtype);
  if (!d) {
    throw InvalidArgumentError(
        str_cat(context, ": dtype ", tf_dtype_name(tf_dtype), " is not supported by tfcc"));
  }
  return *d;
}

PartialShape shape_from_proto(const tensorflow::TensorShapeProto& s, const std::string& context) {
  if (s.unknown_rank()) return PartialShape::unknown_rank();
  if (s.dim_size() > 64) {
    throw InvalidArgumentError(str_cat(context, ": rank ", s.dim_size(), " exceeds 64"));
  }
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) {
    if (d.size() < -1) {
      throw InvalidArgumentError(str_cat(context, ": dimension ", d.size(), " is negative"));
    }
    dims.push_back(d.size());
  }
  return PartialShape(dims);
}

namespace {

// Fills `n` elements of `out` from typed values: none -> zeros, fewer -> the last one repeats.
template <typename T, typename Field>
void fill_typed(T* out, int64_t n, const Field& values, const std::string& context) {
  const int64_t count = values.size();
  if (count > n) {
    throw InvalidArgumentError(
        str_cat(context, ": tensor holds ", count, " values for ", n, " elements"));
  }
  for (int64_t i = 0; i < n; ++i) {
    out[i] =
        count == 0 ? T{} : static_cast<T>(values.Get(static_cast<int>(std::min(i, count - 1))));
  }
}

}  // namespace

Tensor tensor_from_proto(const tensorflow::TensorProto& t, int64_t* budget,
                         const std::string& context) {
  const DType dtype = require_dtype(t.dtype(), context);
  PartialShape ps = shape_from_proto(t.tensor_shape(), context);
  if (!ps.rank_known()) throw InvalidArgumentError(str_cat(context, ": tensor of unknown rank"));
  std::vector<int64_t> dims = ps.dims();
  for (int64_t d : dims) {
    if (d < 0) throw InvalidArgumentError(str_cat(context, ": tensor with an unknown dimension"));
  }
  int64_t n = 1;
  for (int64_t d : dims) n = checked_mul(n, d);
  const int64_t bytes = checked_mul(n, static_cast<int64_t>(dtype_size(dtype)));
  if (bytes > *budget) {
    throw InvalidArgumentError(str_cat(context, ": a ", bytes,
                                       "-byte tensor exceeds what is left of the tensor byte "
                                       "limit (LoadOptions::max_tensor_bytes)"));
  }
  *budget -= bytes;
  const Shape shape(dims);
  if (dtype == string) {  // string_val: one per element, or one repeated
    const int64_t count = t.string_val_size();
    if (count > n || (count == 0 && n > 0)) {
      throw InvalidArgumentError(
          str_cat(context, ": tensor holds ", count, " strings for ", n, " elements"));
    }
    std::vector<std::string> values;
    for (int64_t i = 0; i < n; ++i) {
      values.push_back(t.string_val(static_cast<int>(std::min(i, count - 1))));
    }
    return Tensor::from_strings(values, shape);
  }
  if (!t.tensor_content().empty()) {
    if (static_cast<int64_t>(t.tensor_content().size()) != bytes) {
      throw InvalidArgumentError(str_cat(context, ": tensor_content has ",
                                         t.tensor_content().size(), " bytes, ", dtype_name(dtype),
                                         shape.to_string(), " needs ", bytes));
    }
    return Tensor::from_bytes(dtype, shape, t.tensor_content().data(), t.tensor_content().size());
  }
  Tensor out = Tensor::empty(dtype, shape);
  void* p = out.mutable_raw_data();
  switch (dtype) {
    case float32:
      fill_typed(static_cast<float*>(p), n, t.float_val(), context);
      break;
    case float64:
      fill_typed(static_cast<double*>(p), n, t.double_val(), context);
      break;
    case int32:
      fill_typed(static_cast<int32_t*>(p), n, t.int_val(), context);
      break;
    case uint8:
      fill_typed(static_cast<uint8_t*>(p), n, t.int_val(), context);
      break;
    case int64:
      fill_typed(static_cast<int64_t*>(p), n, t.int64_val(), context);
      break;
    case bool_:
      fill_typed(static_cast<bool*>(p), n, t.bool_val(), context);
      break;
    case bfloat16:
      fill_typed(static_cast<uint16_t*>(p), n, t.half_val(), context);
      break;
    case string:
      break;  // handled above
  }
  return out;
}

}  // namespace tfcc::saved_model::tf_import
