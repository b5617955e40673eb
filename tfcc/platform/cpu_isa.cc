// CPU feature detection for the kernels' run-time dispatch (tfcc/platform/cpu_isa.h).
#include "tfcc/platform/cpu_isa.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "tfcc/platform/errors.h"

namespace tfcc::cpu {

Isa detected_isa() {
#if defined(__x86_64__) || defined(__i386__)
  // libgcc's __builtin_cpu_supports checks XGETBV too: a feature counts only when the OS saves
  // its registers.
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  if (avx512) return Isa::kAvx512;
  if (avx2) return Isa::kAvx2;
#endif
  return Isa::kBaseline;
}

Isa parse_isa(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "baseline" || lower == "sse4.2" || lower == "sse42") return Isa::kBaseline;
  if (lower == "avx2") return Isa::kAvx2;
  if (lower == "avx512" || lower == "avx512_core") return Isa::kAvx512;
  throw InvalidArgumentError(internal::str_cat(
      "TFCC_MAX_CPU_ISA=", name, " names no instruction-set level; use baseline, avx2 or avx512"));
}

std::optional<Isa> max_isa_from_env() {
  const char* value = std::getenv("TFCC_MAX_CPU_ISA");
  if (value == nullptr || *value == '\0') return std::nullopt;
  return parse_isa(value);
}

Isa isa() {
  static const Isa level = [] {
    const Isa detected = detected_isa();
    const std::optional<Isa> cap = max_isa_from_env();
    return cap ? std::min(detected, *cap) : detected;
  }();
  return level;
}

const char* isa_name(Isa level) {
  switch (level) {
    case Isa::kBaseline:
      return "baseline";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "unknown";
}

}  // namespace tfcc::cpu
