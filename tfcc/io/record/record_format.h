// Internal: the TFRecord frame around each record, shared by the writer, the reader and the
// TensorBoard event files.
//
//   uint64 length | uint32 masked_crc32c(length bytes) | payload | uint32 masked_crc32c(payload)
//
// All integers little-endian; the CRC is CRC32C (Castagnoli) masked as in crc32c::mask().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "tfcc/platform/crc32c.h"

namespace tfcc::io::internal {

/// Bytes before the payload: the length and its checksum.
inline constexpr size_t kRecordHeaderSize = 12;
/// Bytes after the payload: its checksum.
inline constexpr size_t kRecordFooterSize = 4;

inline void put_le32(char* dst, uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
inline void put_le64(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
inline uint32_t get_le32(const char* src) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<uint32_t>(static_cast<unsigned char>(src[i])) << (8 * i);
  return v;
}
inline uint64_t get_le64(const char* src) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(src[i])) << (8 * i);
  return v;
}

/// The 12 header bytes of a record holding `length` payload bytes.
inline void encode_record_header(char* dst, uint64_t length) {
  put_le64(dst, length);
  put_le32(dst + 8, crc32c::mask(crc32c::value(dst, 8)));
}

/// The 4 footer bytes of `payload`.
inline void encode_record_footer(char* dst, std::string_view payload) {
  put_le32(dst, crc32c::mask(crc32c::value(payload)));
}

/// Appends a whole framed record to `out`.
inline void append_framed_record(std::string& out, std::string_view payload) {
  char header[kRecordHeaderSize];
  char footer[kRecordFooterSize];
  encode_record_header(header, payload.size());
  encode_record_footer(footer, payload);
  out.append(header, sizeof header);
  out.append(payload);
  out.append(footer, sizeof footer);
}

}  // namespace tfcc::io::internal
