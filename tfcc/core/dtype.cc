#include "tfcc/core/dtype.h"

#include "tfcc/platform/errors.h"

namespace tfcc {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::kFloat32:
      return "float32";
    case DType::kFloat64:
      return "float64";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kUInt8:
      return "uint8";
    case DType::kBool:
      return "bool";
    case DType::kBFloat16:
      return "bfloat16";
    case DType::kString:
      return "string";
  }
  return "invalid";
}

void unsupported_dtype(DType t, std::string_view what) {
  throw InvalidArgumentError(internal::str_cat(what, " does not support dtype ", dtype_name(t)));
}

std::ostream& operator<<(std::ostream& os, DType t) { return os << dtype_name(t); }

}  // namespace tfcc
