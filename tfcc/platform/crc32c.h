// CRC32C (Castagnoli), the checksum of TFRecord files, TensorBoard event files and TensorFlow
// checkpoints, plus TensorFlow's "masked" form that is stored next to the data.
//
//   uint32_t crc = tfcc::crc32c::value(data, size);
//   uint32_t stored = tfcc::crc32c::mask(crc);           // what a TFRecord file holds
//   assert(tfcc::crc32c::unmask(stored) == crc);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfcc::crc32c {

/// Extends `crc` (the CRC32C of earlier bytes, 0 at the start) with `size` more bytes.
uint32_t extend(uint32_t crc, const void* data, size_t size);

/// CRC32C of a byte range.
inline uint32_t value(const void* data, size_t size) { return extend(0, data, size); }
inline uint32_t value(std::string_view s) { return value(s.data(), s.size()); }

inline constexpr uint32_t kMaskDelta = 0xa282ead8u;

/// TensorFlow's mask: rotate right by 15 bits and add a constant, so a CRC of data that itself
/// holds CRCs stays well distributed.
inline uint32_t mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

/// Inverse of mask().
inline uint32_t unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace tfcc::crc32c
