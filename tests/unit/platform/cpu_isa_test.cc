// tfcc::cpu: the instruction-set level names parse (and a wrong one fails with an actionable
// error), the level in use never exceeds what the CPU has, and TFCC_MAX_CPU_ISA caps it (ctest
// runs this binary's IsaCap tests with the variable set: tests/CMakeLists.txt).
#include "tfcc/platform/cpu_isa.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tfcc/platform/errors.h"

namespace tfcc::cpu {
namespace {

TEST(CpuIsa, ParsesTheLevelNames) {
  EXPECT_EQ(parse_isa("baseline"), Isa::kBaseline);
  EXPECT_EQ(parse_isa("SSE4.2"), Isa::kBaseline);
  EXPECT_EQ(parse_isa("avx2"), Isa::kAvx2);
  EXPECT_EQ(parse_isa("AVX512"), Isa::kAvx512);
  EXPECT_EQ(parse_isa("avx512_core"), Isa::kAvx512);
  for (Isa level : {Isa::kBaseline, Isa::kAvx2, Isa::kAvx512}) {
    EXPECT_EQ(parse_isa(isa_name(level)), level);
  }
}

TEST(CpuIsa, UnknownNameIsAnInvalidArgument) {
  try {
    parse_isa("avx9000");
    FAIL() << "no error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("TFCC_MAX_CPU_ISA=avx9000"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("baseline, avx2 or avx512"), std::string::npos);
  }
}

TEST(CpuIsa, NeverAboveWhatTheCpuHas) {
  EXPECT_LE(isa(), detected_isa());
  EXPECT_EQ(isa(), isa()) << "fixed for the process";
}

TEST(CpuIsa, TheEnvironmentCapsTheLevel) {
  const char* cap = std::getenv("TFCC_MAX_CPU_ISA");
  if (cap == nullptr) {
    EXPECT_EQ(isa(), detected_isa());
    GTEST_SKIP() << "TFCC_MAX_CPU_ISA unset (ctest runs this test again with it set)";
  }
  EXPECT_LE(isa(), parse_isa(cap));
  EXPECT_EQ(isa(), std::min(detected_isa(), parse_isa(cap)));
}

}  // namespace
}  // namespace tfcc::cpu
