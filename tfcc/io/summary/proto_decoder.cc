#include "tfcc/io/summary/proto_decoder.h"

#include <cstring>

#include "tfcc/platform/errors.h"

namespace tfcc::io::proto {
namespace {

[[noreturn]] void wrong_type(const Field& f, const char* wanted) {
  throw DataLossError(tfcc::internal::str_cat("malformed protobuf: field ", f.number,
                                              " has wire type ", static_cast<int>(f.type),
                                              ", expected ", wanted));
}

uint64_t le_bits(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

double Field::as_double() const {
  if (type != WireType::kFixed64) wrong_type(*this, "fixed64 (double)");
  double d;
  std::memcpy(&d, &value, 8);
  return d;
}

float Field::as_float() const {
  if (type != WireType::kFixed32) wrong_type(*this, "fixed32 (float)");
  uint32_t bits = static_cast<uint32_t>(value);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

int64_t Field::as_int64() const {
  if (type != WireType::kVarint) wrong_type(*this, "varint");
  return static_cast<int64_t>(value);
}

std::string_view Field::as_bytes() const {
  if (type != WireType::kLengthDelimited) wrong_type(*this, "length-delimited");
  return bytes;
}

void Decoder::fail(const char* what) const {
  throw DataLossError(tfcc::internal::str_cat("malformed ", name_, ": ", what, " at byte ", pos_,
                                              " of ", data_.size()));
}

uint64_t Decoder::read_varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) fail("varint runs past the end");
    uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    if (shift == 63 && b > 1) fail("varint overflows 64 bits");
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  fail("varint longer than 10 bytes");
}

bool Decoder::next(Field& field) {
  if (pos_ >= data_.size()) return false;
  uint64_t key = read_varint();
  uint64_t number = key >> 3;
  if (number == 0 || number > (1u << 29) - 1) fail("invalid field number");
  field.number = static_cast<int>(number);
  field.bytes = {};
  field.value = 0;
  switch (key & 7) {
    case 0:
      field.type = WireType::kVarint;
      field.value = read_varint();
      return true;
    case 1:
      field.type = WireType::kFixed64;
      if (data_.size() - pos_ < 8) fail("fixed64 runs past the end");
      field.value = le_bits(data_.data() + pos_, 8);
      pos_ += 8;
      return true;
    case 2: {
      field.type = WireType::kLengthDelimited;
      uint64_t len = read_varint();
      if (len > data_.size() - pos_) fail("length-delimited field runs past the end");
      field.bytes = data_.substr(pos_, static_cast<size_t>(len));
      pos_ += static_cast<size_t>(len);
      return true;
    }
    case 5:
      field.type = WireType::kFixed32;
      if (data_.size() - pos_ < 4) fail("fixed32 runs past the end");
      field.value = le_bits(data_.data() + pos_, 4);
      pos_ += 4;
      return true;
    default:
      fail("unsupported wire type (groups are not used by these messages)");
  }
}

void append_repeated(const Field& field, std::vector<double>& out) {
  if (field.type != WireType::kLengthDelimited) {
    out.push_back(field.as_double());
    return;
  }
  if (field.bytes.size() % 8 != 0) throw DataLossError("malformed packed double field: odd length");
  for (size_t i = 0; i < field.bytes.size(); i += 8) {
    uint64_t bits = le_bits(field.bytes.data() + i, 8);
    double d;
    std::memcpy(&d, &bits, 8);
    out.push_back(d);
  }
}

void append_repeated(const Field& field, std::vector<float>& out) {
  if (field.type != WireType::kLengthDelimited) {
    out.push_back(field.as_float());
    return;
  }
  if (field.bytes.size() % 4 != 0) throw DataLossError("malformed packed float field: odd length");
  for (size_t i = 0; i < field.bytes.size(); i += 4) {
    uint32_t bits = static_cast<uint32_t>(le_bits(field.bytes.data() + i, 4));
    float f;
    std::memcpy(&f, &bits, 4);
    out.push_back(f);
  }
}

void append_repeated(const Field& field, std::vector<int64_t>& out) {
  if (field.type != WireType::kLengthDelimited) {
    out.push_back(field.as_int64());
    return;
  }
  // A packed field is a run of bare varints.
  std::string_view rest = field.bytes;
  while (!rest.empty()) {
    uint64_t v = 0;
    size_t i = 0;
    for (int shift = 0;; shift += 7) {
      if (i >= rest.size() || shift > 63) throw DataLossError("malformed packed varint field");
      uint8_t b = static_cast<uint8_t>(rest[i++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) break;
    }
    out.push_back(static_cast<int64_t>(v));
    rest.remove_prefix(i);
  }
}

}  // namespace tfcc::io::proto
