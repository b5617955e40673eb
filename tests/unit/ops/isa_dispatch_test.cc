// Run-time ISA dispatch: a loop run through isa_call at every level this CPU has gives the
// baseline's result, and TFCC_MAX_CPU_ISA caps oneDNN too (ctest runs the IsaCap test with the
// variable set to avx2 and to baseline: tests/CMakeLists.txt).
#include "tfcc/ops/isa_dispatch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

TEST(IsaDispatch, EveryAvailableLevelComputesTheSame) {
  std::vector<float> x(1003);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * static_cast<float>(i) - 100.f;
  auto run = [&](cpu::Isa level) {
    std::vector<float> y(x.size());
    auto body = [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) y[i] = x[i] > 0.f ? x[i] * 2.f + 1.f : -x[i];
    };
    kernels::isa_call(level, body, int64_t{0}, static_cast<int64_t>(x.size()));
    return y;
  };
  const std::vector<float> baseline = run(cpu::Isa::kBaseline);
  for (cpu::Isa level : {cpu::Isa::kAvx2, cpu::Isa::kAvx512}) {
    if (level > cpu::detected_isa()) continue;
    EXPECT_EQ(run(level), baseline) << cpu::isa_name(level);
  }
}

TEST(IsaDispatch, KernelsRunAtTheSelectedLevel) {
  // An element-wise op and a reduction large enough to go through kernels::parallel_for.
  Tensor x = range(0.f, 100000.f, 1.f) / 1000.f;
  EXPECT_NEAR(reduce_sum(relu(x - 50.f)).item<float>(), 1249975.f,
              200.f);  // sum of k/1000, k < 50000
}

TEST(IsaCap, OneDnnIsCappedLikeTheKernels) {
  const char* cap = std::getenv("TFCC_MAX_CPU_ISA");
  if (cap == nullptr || std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr) {
    GTEST_SKIP() << "TFCC_MAX_CPU_ISA unset (ctest runs this test with it set)";
  }
  Tensor a = ones({64, 64});
  EXPECT_FLOAT_EQ(reduce_sum(matmul(a, a)).item<float>(), 64.f * 64.f * 64.f);
  const int effective = static_cast<int>(dnnl::get_effective_cpu_isa());
  const cpu::Isa level = cpu::parse_isa(cap);
  EXPECT_LE(cpu::isa(), level);
  if (level == cpu::Isa::kAvx512) return;
  const int allowed =
      static_cast<int>(level == cpu::Isa::kAvx2 ? dnnl::cpu_isa::avx2 : dnnl::cpu_isa::sse41);
  EXPECT_EQ(effective & ~allowed, 0) << "oneDNN runs ISA 0x" << std::hex << effective;
}

}  // namespace
}  // namespace tfcc
