#include "tfcc/io/checkpoint/coding.h"

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

}  // namespace tfcc::checkpoint
