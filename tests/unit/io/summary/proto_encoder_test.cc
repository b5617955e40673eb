#include "tfcc/io/summary/proto_encoder.h"

#include <gtest/gtest.h>

#include <vector>

#include "tfcc/io/summary/proto_decoder.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io::proto {
namespace {

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (!out.empty()) out += ' ';
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

TEST(ProtoEncoder, VarintsMatchTheProtobufGuide) {
  std::string s;
  append_varint(s, 150);
  EXPECT_EQ(hex(s), "96 01");
  s.clear();
  append_varint(s, 300);
  EXPECT_EQ(hex(s), "ac 02");
  Encoder e;
  e.int64_field(1, -1);  // negative int64: ten bytes
  EXPECT_EQ(hex(e.data()), "08 ff ff ff ff ff ff ff ff ff 01");
}

TEST(ProtoEncoder, KeysAndFixedWidthFields) {
  Encoder e;
  e.double_field(1, 1700000000.0);
  e.varint_field(2, 1);
  e.string_field(3, "ab");
  e.float_field(2, 0.5f);
  EXPECT_EQ(hex(e.data()), "09 00 00 00 40 fc 54 d9 41 10 01 1a 02 61 62 15 00 00 00 3f");
}

TEST(ProtoEncoder, PackedFieldsAndEmptyOnes) {
  Encoder e;
  std::vector<double> none;
  e.packed_double_field(6, none);
  EXPECT_TRUE(e.data().empty());
  std::vector<double> two = {1.0, -2.0};
  e.packed_double_field(7, two);
  EXPECT_EQ(hex(e.data()), "3a 10 00 00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 c0");
  Encoder i;
  std::vector<int64_t> ints = {1, 300};
  i.packed_int64_field(10, ints);
  EXPECT_EQ(hex(i.data()), "52 03 01 ac 02");
}

TEST(ProtoDecoder, RoundTripsEveryWireType) {
  Encoder inner;
  inner.string_field(1, "x");
  Encoder e;
  e.double_field(1, 2.5);
  e.int64_field(2, -7);
  e.message_field(3, inner);
  e.float_field(4, 0.25f);
  std::vector<float> floats = {1.5f, 2.5f};
  e.packed_float_field(5, floats);
  e.float_field(5, 3.5f);  // an unpacked element of the same repeated field
  Decoder d(e.data(), "Test");
  Field f;
  ASSERT_TRUE(d.next(f));
  EXPECT_EQ(f.number, 1);
  EXPECT_EQ(f.as_double(), 2.5);
  ASSERT_TRUE(d.next(f));
  EXPECT_EQ(f.as_int64(), -7);
  ASSERT_TRUE(d.next(f));
  EXPECT_EQ(f.as_bytes(), inner.data());
  ASSERT_TRUE(d.next(f));
  EXPECT_EQ(f.as_float(), 0.25f);
  std::vector<float> got;
  ASSERT_TRUE(d.next(f));
  append_repeated(f, got);
  ASSERT_TRUE(d.next(f));
  append_repeated(f, got);
  EXPECT_EQ(got, (std::vector<float>{1.5f, 2.5f, 3.5f}));
  EXPECT_FALSE(d.next(f));
}

TEST(ProtoDecoder, MalformedBytesAreDataLoss) {
  auto decode_all = [](const std::string& bytes) {
    Decoder d(bytes, "Test");
    Field f;
    while (d.next(f)) {
    }
  };
  EXPECT_THROW(decode_all(std::string("\x0a\x05"
                                      "abc",
                                      5)),
               DataLossError);                                              // length too long
  EXPECT_THROW(decode_all(std::string("\x08\xff", 2)), DataLossError);      // varint cut
  EXPECT_THROW(decode_all(std::string("\x09\x00\x00", 3)), DataLossError);  // fixed64 cut
  EXPECT_THROW(decode_all(std::string("\x0b", 1)), DataLossError);          // group
  EXPECT_THROW(decode_all(std::string("\x00\x01", 2)), DataLossError);      // field 0
  EXPECT_THROW(decode_all(std::string(11, '\xff')), DataLossError);         // varint > 10 bytes
  std::string varint_field("\x08\x01", 2);
  Decoder d(varint_field, "Test");
  Field f;
  ASSERT_TRUE(d.next(f));
  EXPECT_THROW(f.as_double(), DataLossError);  // wrong wire type
  EXPECT_THROW(f.as_bytes(), DataLossError);
}

}  // namespace
}  // namespace tfcc::io::proto
