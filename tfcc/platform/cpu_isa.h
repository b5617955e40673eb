// The instruction-set level the kernels run at: the widest the CPU supports, capped by the
// TFCC_MAX_CPU_ISA environment variable. The library is compiled for a portable baseline
// (x86-64-v2 unless TFCC_NATIVE / TFCC_ARCH say otherwise); kernels compiled for wider levels
// (tfcc/ops/isa_dispatch.h) are chosen at run time by this level, so one build runs on any
// x86-64 machine and uses AVX2 or AVX-512 where the machine has them.
//
//   TFCC_MAX_CPU_ISA=avx2 ./app      # never the AVX-512 kernels (oneDNN capped the same way)
//   if (tfcc::cpu::isa() >= tfcc::cpu::Isa::kAvx512) ...
#pragma once

#include <optional>
#include <string_view>

namespace tfcc::cpu {

/// Instruction-set levels with a kernel path of their own, in increasing order.
enum class Isa : int {
  kBaseline = 0,  ///< what the library was compiled for (x86-64-v2: SSE4.2, POPCNT)
  kAvx2 = 1,      ///< x86-64-v3: AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE
  kAvx512 = 2,    ///< x86-64-v4: AVX-512 F, BW, CD, DQ, VL
};

/// The level the kernels use: detected_isa() capped by TFCC_MAX_CPU_ISA, read once (the first
/// call) and fixed for the life of the process.
Isa isa();

/// The widest level this CPU and OS support (cpuid, and XGETBV for the register state).
Isa detected_isa();

/// The level TFCC_MAX_CPU_ISA names, or std::nullopt when it is unset; InvalidArgumentError for
/// a value that is none of "baseline" (or "sse4.2"), "avx2", "avx512".
std::optional<Isa> max_isa_from_env();

/// Parses one TFCC_MAX_CPU_ISA value (the same names, case-insensitive).
Isa parse_isa(std::string_view name);

/// "baseline", "avx2" or "avx512".
const char* isa_name(Isa level);

}  // namespace tfcc::cpu
