#include "tfcc/platform/limits.h"

#include <gtest/gtest.h>

#include <new>
#include <vector>

namespace tfcc {
namespace {

TEST(Limits, MaxDecompressedSizeIsRatioWithFloorAndCap) {
  DecompressionLimits l{.max_ratio = 100, .min_bytes = 1000, .max_bytes = 50000};
  EXPECT_EQ(max_decompressed_size(0, l), 1000u);
  EXPECT_EQ(max_decompressed_size(5, l), 1000u);
  EXPECT_EQ(max_decompressed_size(20, l), 2000u);
  EXPECT_EQ(max_decompressed_size(1000, l), 50000u);
  EXPECT_EQ(max_decompressed_size(UINT64_MAX, l), 50000u);  // no overflow
}

TEST(Limits, CheckNamesTheSourceAndTheWayOut) {
  DecompressionLimits saved = decompression_limits();
  set_decompression_limits({.max_ratio = 10, .min_bytes = 100, .max_bytes = 1 << 20});
  EXPECT_NO_THROW(check_decompressed_size(100, 1, "x"));
  try {
    check_decompressed_size(101, 1, "data.gz");
    FAIL() << "no error";
  } catch (const ResourceExhaustedError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("data.gz"), std::string::npos) << m;
    EXPECT_NE(m.find("set_decompression_limits"), std::string::npos) << m;
  }
  EXPECT_THROW(set_decompression_limits({.max_ratio = 0}), InvalidArgumentError);
  set_decompression_limits(saved);
}

TEST(Limits, QuoteInputCapsAndEscapes) {
  EXPECT_EQ(quote_input("abc"), "abc");
  EXPECT_EQ(quote_input(std::string("a\nb", 3)), "a\\x0ab");
  std::string big(50 << 20, 'x');
  std::string q = quote_input(big);
  EXPECT_LT(q.size(), 300u);
  EXPECT_NE(q.find("52428800 bytes in all"), std::string::npos) << q;
}

TEST(Limits, GuardParseTranslatesForeignExceptions) {
  EXPECT_THROW(internal::guard_parse("f", []() -> int { throw std::bad_alloc(); }),
               ResourceExhaustedError);
  EXPECT_THROW(internal::guard_parse("f",
                                     []() -> int {
                                       std::vector<int> v;
                                       v.reserve(v.max_size() + 1);
                                       return 0;
                                     }),
               ResourceExhaustedError);
  EXPECT_THROW(internal::guard_parse("f", []() -> int { throw std::out_of_range("x"); }),
               DataLossError);
  EXPECT_THROW(internal::guard_parse("f", []() -> int { throw NotFoundError("x"); }),
               NotFoundError);
  EXPECT_EQ(internal::guard_parse("f", [] { return 7; }), 7);
}

}  // namespace
}  // namespace tfcc
