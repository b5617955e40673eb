// Run-time instruction-set dispatch for kernel loops. The library is compiled for a portable
// baseline; isa_call() runs a loop body inside a function compiled for AVX2 (x86-64-v3) or
// AVX-512 (x86-64-v4) when cpu::isa() allows, so the body (inlined there, since a lambda is an
// inline function) is vectorised for the machine it runs on. kernels::parallel_for and
// parallel_chunks (kernel_util.h) route every chunk through it: a kernel written with them needs
// nothing more.
//
//   kernels::isa_call(cpu::isa(), [&](int64_t lo, int64_t hi) { ... }, 0, n);
#pragma once

#include <cstdint>
#include <utility>

#include "tfcc/platform/cpu_isa.h"

// The target lists name features, not arch=x86-64-v3/v4: a function whose arch differs from
// its callee's cannot inline it, and the loop body must be inlined to be compiled for the level.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define TFCC_ISA_DISPATCH 1
#define TFCC_TARGET_AVX2 __attribute__((target("avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt,sse4.2")))
#define TFCC_TARGET_AVX512                                                         \
  __attribute__((                                                                  \
      target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,fma,bmi,bmi2,f16c," \
             "lzcnt,movbe,popcnt,sse4.2")))
#else
#define TFCC_ISA_DISPATCH 0
#endif

namespace tfcc::kernels {
namespace isa_detail {

#if TFCC_ISA_DISPATCH
template <typename F, typename... Args>
TFCC_TARGET_AVX2 void call_avx2(F& fn, Args... args) {
  fn(args...);
}
template <typename F, typename... Args>
TFCC_TARGET_AVX512 void call_avx512(F& fn, Args... args) {
  fn(args...);
}
#endif

}  // namespace isa_detail

/// Calls fn(args...) from a function compiled for `level` (at most what cpu::isa() returned:
/// the caller passes that value, read once outside its parallel region).
template <typename F, typename... Args>
void isa_call(cpu::Isa level, F& fn, Args... args) {
#if TFCC_ISA_DISPATCH
  if (level == cpu::Isa::kAvx512) return isa_detail::call_avx512(fn, args...);
  if (level == cpu::Isa::kAvx2) return isa_detail::call_avx2(fn, args...);
#else
  (void)level;
#endif
  fn(args...);
}

}  // namespace tfcc::kernels
