// Bounds on what a file can make tfcc allocate, and on how much of a file an error message quotes.
//
//   uint64_t cap = tfcc::max_decompressed_size(compressed.size());  // ratio, floor and hard cap
//   tfcc::check_decompressed_size(declared, compressed.size(), "w.npz member 'x.npy'");
//   tfcc::set_decompression_limits({.max_ratio = 1000});             // very sparse data
//   throw DataLossError("bad value " + tfcc::quote_input(field));     // at most ~200 bytes
//   Tensor t = tfcc::internal::guard_parse(path, [&] { return parse(bytes); });
//
// Compressed input (gzip, zlib, zip deflate) may expand to at most max_ratio times its size,
// never less than min_bytes and never more than max_bytes; past that a reader raises
// ResourceExhaustedError before allocating. The defaults (100x, 64 MiB, 4 GiB) can be changed in
// code or by the environment variables TFCC_MAX_DECOMPRESSION_RATIO and
// TFCC_MAX_DECOMPRESSED_BYTES, read once at first use.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tfcc/platform/errors.h"

namespace tfcc {

/// How far compressed input may expand.
struct DecompressionLimits {
  /// The output may be this many times the compressed size...
  uint64_t max_ratio = 100;
  /// ...but may always reach this many bytes...
  uint64_t min_bytes = uint64_t{64} << 20;
  /// ...and never more than this many.
  uint64_t max_bytes = uint64_t{4} << 30;
};

/// The limits in force (process-wide).
DecompressionLimits decompression_limits();
/// Replaces the process-wide limits. InvalidArgumentError for a zero field.
void set_decompression_limits(const DecompressionLimits& limits);

/// The most bytes `compressed_size` compressed bytes may expand to under `limits`.
uint64_t max_decompressed_size(uint64_t compressed_size,
                               const DecompressionLimits& limits = decompression_limits());

/// ResourceExhaustedError naming `source` if `size` bytes of output from `compressed_size`
/// compressed bytes exceed max_decompressed_size().
void check_decompressed_size(uint64_t size, uint64_t compressed_size, const std::string& source);

/// `text` for an error message: whole if short, else its first `max_bytes` bytes followed by
/// "... (N bytes in all)"; control bytes are escaped.
std::string quote_input(std::string_view text, size_t max_bytes = 200);

namespace internal {

/// Runs `parse()`; tfcc errors pass through, std::bad_alloc and std::length_error become
/// ResourceExhaustedError and any other std::exception a DataLossError, each naming `source`.
template <typename F>
decltype(auto) guard_parse(const std::string& source, F&& parse) {
  try {
    return parse();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw ResourceExhaustedError(str_cat("Out of memory while reading ", source));
  } catch (const std::length_error& e) {
    throw ResourceExhaustedError(str_cat("Reading ", source, " needs more memory: ", e.what()));
  } catch (const std::exception& e) {
    throw DataLossError(str_cat("Could not read ", source, ": ", e.what()));
  }
}

}  // namespace internal
}  // namespace tfcc
