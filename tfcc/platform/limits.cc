#include "tfcc/platform/limits.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace tfcc {
namespace {

struct Stored {
  std::atomic<uint64_t> ratio, min_bytes, max_bytes;
};

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return end != nullptr && *end == '\0' && n > 0 ? n : fallback;
}

Stored& stored() {
  static Stored* s = [] {
    DecompressionLimits d;
    auto* out = new Stored;
    out->ratio = env_or("TFCC_MAX_DECOMPRESSION_RATIO", d.max_ratio);
    out->min_bytes = d.min_bytes;
    out->max_bytes = env_or("TFCC_MAX_DECOMPRESSED_BYTES", d.max_bytes);
    if (out->min_bytes > out->max_bytes) out->min_bytes.store(out->max_bytes);
    return out;
  }();
  return *s;
}

}  // namespace

DecompressionLimits decompression_limits() {
  Stored& s = stored();
  return {s.ratio.load(), s.min_bytes.load(), s.max_bytes.load()};
}

void set_decompression_limits(const DecompressionLimits& limits) {
  TFCC_CHECK_ARG(limits.max_ratio > 0 && limits.min_bytes > 0 && limits.max_bytes > 0,
                 "set_decompression_limits: every limit must be positive");
  Stored& s = stored();
  s.ratio = limits.max_ratio;
  s.min_bytes = limits.min_bytes;
  s.max_bytes = limits.max_bytes;
}

uint64_t max_decompressed_size(uint64_t compressed_size, const DecompressionLimits& limits) {
  uint64_t by_ratio = 0;
  if (__builtin_mul_overflow(compressed_size, limits.max_ratio, &by_ratio)) by_ratio = UINT64_MAX;
  uint64_t cap = by_ratio > limits.min_bytes ? by_ratio : limits.min_bytes;
  return cap < limits.max_bytes ? cap : limits.max_bytes;
}

void check_decompressed_size(uint64_t size, uint64_t compressed_size, const std::string& source) {
  uint64_t cap = max_decompressed_size(compressed_size);
  if (size <= cap) return;
  DecompressionLimits l = decompression_limits();
  throw ResourceExhaustedError(internal::str_cat(
      source, ": ", size, " bytes of decompressed data from ", compressed_size,
      " compressed bytes exceed the limit of ", cap, " (", l.max_ratio,
      "x the compressed size, at least ", l.min_bytes, ", at most ", l.max_bytes,
      " bytes; raise it with tfcc::set_decompression_limits or TFCC_MAX_DECOMPRESSION_RATIO / "
      "TFCC_MAX_DECOMPRESSED_BYTES if the file is trusted)"));
}

std::string quote_input(std::string_view text, size_t max_bytes) {
  std::string out;
  std::string_view shown = text.substr(0, std::min(text.size(), max_bytes));
  for (unsigned char c : shown) {
    if (c >= 0x20 && c != 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out.append(buf);
    }
  }
  if (shown.size() < text.size()) {
    out.append(internal::str_cat("... (", text.size(), " bytes in all)"));
  }
  return out;
}

}  // namespace tfcc
