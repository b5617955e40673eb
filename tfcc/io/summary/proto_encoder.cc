#include "tfcc/io/summary/proto_encoder.h"

#include <cstring>

namespace tfcc::io::proto {
namespace {

template <typename T>
void append_le(std::string& out, T v) {
  // Little-endian on the wire; the machines tfcc targets are little-endian, so a copy suffices,
  // but the shifts keep it correct anywhere.
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  for (size_t i = 0; i < sizeof v; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

}  // namespace

void append_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void Encoder::key(int field, WireType type) {
  append_varint(data_, (static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(type));
}

void Encoder::varint_field(int field, uint64_t v) {
  key(field, WireType::kVarint);
  append_varint(data_, v);
}

void Encoder::double_field(int field, double v) {
  key(field, WireType::kFixed64);
  append_le(data_, v);
}

void Encoder::float_field(int field, float v) {
  key(field, WireType::kFixed32);
  append_le(data_, v);
}

void Encoder::bytes_field(int field, std::string_view v) {
  key(field, WireType::kLengthDelimited);
  append_varint(data_, v.size());
  data_.append(v);
}

void Encoder::packed_double_field(int field, std::span<const double> values) {
  if (values.empty()) return;
  key(field, WireType::kLengthDelimited);
  append_varint(data_, values.size() * 8);
  for (double v : values) append_le(data_, v);
}

void Encoder::packed_float_field(int field, std::span<const float> values) {
  if (values.empty()) return;
  key(field, WireType::kLengthDelimited);
  append_varint(data_, values.size() * 4);
  for (float v : values) append_le(data_, v);
}

void Encoder::packed_int64_field(int field, std::span<const int64_t> values) {
  if (values.empty()) return;
  std::string body;
  for (int64_t v : values) append_varint(body, static_cast<uint64_t>(v));
  bytes_field(field, body);
}

}  // namespace tfcc::io::proto
