#include "tfcc/io/checkpoint/proto_wire.h"

#include <cstring>

#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_fixed32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_fixed64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::optional<uint64_t> get_varint(std::string_view data, size_t* pos) {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*pos >= data.size()) return std::nullopt;
    uint8_t byte = static_cast<uint8_t>(data[(*pos)++]);
    if (shift == 63 && byte > 1) return std::nullopt;  // more than 64 bits
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return result;
  }
  return std::nullopt;
}

uint32_t load_fixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint64_t load_fixed64(const char* p) {
  return static_cast<uint64_t>(load_fixed32(p)) |
         (static_cast<uint64_t>(load_fixed32(p + 4)) << 32);
}

void ProtoWriter::key(int number, WireType type) {
  put_varint(out_, (static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(type));
}

void ProtoWriter::varint_field(int number, uint64_t value) {
  key(number, WireType::kVarint);
  put_varint(out_, value);
}

void ProtoWriter::fixed32_field(int number, uint32_t value) {
  key(number, WireType::kFixed32);
  put_fixed32(out_, value);
}

void ProtoWriter::bytes_field(int number, std::string_view value) {
  key(number, WireType::kLen);
  put_varint(out_, value.size());
  out_.append(value);
}

void ProtoReader::fail(const std::string& what) const {
  std::string msg = context_;
  msg.append(": ").append(what);
  throw DataLossError(msg);
}

void ProtoReader::expect(const ProtoField& f, WireType type) const {
  if (f.type != type) {
    fail(internal::str_cat("field ", f.number, " has wire type ", static_cast<int>(f.type),
                           ", expected ", static_cast<int>(type)));
  }
}

std::optional<ProtoField> ProtoReader::next() {
  if (pos_ >= data_.size()) return std::nullopt;
  auto key = get_varint(data_, &pos_);
  if (!key) fail(internal::str_cat("truncated field key at byte ", pos_));
  ProtoField f;
  uint64_t number = *key >> 3;
  if (number == 0 || number > (1u << 29)) fail(internal::str_cat("bad field number ", number));
  f.number = static_cast<int>(number);
  uint64_t type = *key & 7;
  switch (type) {
    case 0: {
      auto v = get_varint(data_, &pos_);
      if (!v) fail(internal::str_cat("truncated varint in field ", f.number));
      f.type = WireType::kVarint;
      f.value = *v;
      break;
    }
    case 1:
      if (data_.size() - pos_ < 8) fail(internal::str_cat("truncated fixed64 field ", f.number));
      f.type = WireType::kFixed64;
      f.value = load_fixed64(data_.data() + pos_);
      pos_ += 8;
      break;
    case 2: {
      auto len = get_varint(data_, &pos_);
      if (!len || *len > data_.size() - pos_) {
        fail(internal::str_cat("length of field ", f.number, " runs past the end of the message"));
      }
      f.type = WireType::kLen;
      f.bytes = data_.substr(pos_, static_cast<size_t>(*len));
      pos_ += static_cast<size_t>(*len);
      break;
    }
    case 5:
      if (data_.size() - pos_ < 4) fail(internal::str_cat("truncated fixed32 field ", f.number));
      f.type = WireType::kFixed32;
      f.value = load_fixed32(data_.data() + pos_);
      pos_ += 4;
      break;
    default:
      fail(internal::str_cat("unsupported wire type ", type, " in field ", f.number));
  }
  return f;
}

}  // namespace tfcc::checkpoint
