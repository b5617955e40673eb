// How a tensor bundle stores a DT_STRING tensor: each element's length as a varint64, a masked
// CRC32C of those lengths, then the elements' bytes back to back. The entry's checksum covers
// the lengths (as 32-bit little-endian values, 64-bit past 4 GiB), the length checksum and the
// bytes, exactly as TensorFlow computes it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfcc::checkpoint {

/// Appends the stored form of `values` to `out`; returns the (unmasked) entry checksum.
uint32_t append_string_tensor(std::string& out, const std::vector<std::string>& values);

/// Decodes `count` elements from `bytes`, checking both checksums against `masked_crc` (the
/// entry's). Raises DataLossError "<context>: ..." on any inconsistency.
std::vector<std::string> decode_string_tensor(std::string_view bytes, uint64_t count,
                                              uint32_t masked_crc, const std::string& context);

}  // namespace tfcc::checkpoint
