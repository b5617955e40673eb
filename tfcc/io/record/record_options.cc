#include "tfcc/io/record/record_options.h"

#include "tfcc/platform/errors.h"

namespace tfcc::io {

CompressionType parse_compression_type(const std::string& name) {
  if (name.empty() || name == "NONE") return CompressionType::kNone;
  if (name == "ZLIB") return CompressionType::kZlib;
  if (name == "GZIP") return CompressionType::kGzip;
  throw InvalidArgumentError(
      tfcc::internal::str_cat("Unsupported compression_type: \"", name,
                              "\". Valid values are \"\" (none), \"ZLIB\" and \"GZIP\"."));
}

const char* compression_type_name(CompressionType type) {
  switch (type) {
    case CompressionType::kZlib:
      return "ZLIB";
    case CompressionType::kGzip:
      return "GZIP";
    case CompressionType::kNone:
      break;
  }
  return "";
}

}  // namespace tfcc::io
