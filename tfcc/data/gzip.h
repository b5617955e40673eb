// Reading files that may be gzip-compressed (MNIST's IDX files ship as .gz).
//
//   std::string bytes = tfcc::data::read_file_maybe_gzip("train-images-idx3-ubyte.gz");
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstddef>
#include <string>
#include <string_view>

namespace tfcc::data {

/// True if `bytes` starts with the gzip magic (1f 8b).
bool is_gzip(std::string_view bytes);

/// Inflates gzip data (all members). `source` names the data in errors; output larger than
/// `max_output` bytes (0: tfcc::max_decompressed_size of the input, see platform/limits.h) raises
/// ResourceExhaustedError before it is allocated; corrupt or truncated input raises
/// DataLossError naming the source and the compressed offset.
std::string gunzip(std::string_view bytes, const std::string& source, size_t max_output = 0);

/// The first `n` bytes of gzip data's output (fewer if it is shorter), e.g. a header that
/// declares how large the rest is. DataLossError for corrupt data.
std::string gunzip_head(std::string_view bytes, const std::string& source, size_t n);

/// The file's bytes, inflated if it is gzip-compressed.
std::string read_file_maybe_gzip(const std::string& path);

}  // namespace tfcc::data
#pragma GCC visibility pop
