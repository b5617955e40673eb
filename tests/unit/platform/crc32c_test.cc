#include "tfcc/platform/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace tfcc {
namespace {

// Check values from RFC 3720 (iSCSI), appendix B.4.
TEST(Crc32c, KnownVectors) {
  std::string zeros(32, '\0');
  EXPECT_EQ(crc32c::value(zeros), 0x8a9136aau);
  std::string ones(32, '\xff');
  EXPECT_EQ(crc32c::value(ones), 0x62a8ab43u);
  std::string inc(32, 0);
  for (int i = 0; i < 32; ++i) inc[i] = static_cast<char>(i);
  EXPECT_EQ(crc32c::value(inc), 0x46dd794eu);
  EXPECT_EQ(crc32c::value("123456789"), 0xe3069283u);
}

TEST(Crc32c, ExtendEqualsWhole) {
  std::string s = "hello, tensorboard event file with some bytes";
  for (size_t cut = 0; cut <= s.size(); ++cut) {
    uint32_t part = crc32c::extend(crc32c::value(s.data(), cut), s.data() + cut, s.size() - cut);
    EXPECT_EQ(part, crc32c::value(s));
  }
}

TEST(Crc32c, MaskRoundTrips) {
  for (uint32_t v : {0u, 1u, 0xdeadbeefu, 0xffffffffu}) {
    EXPECT_EQ(crc32c::unmask(crc32c::mask(v)), v);
    EXPECT_NE(crc32c::mask(v), v);
  }
}

}  // namespace
}  // namespace tfcc
