// Byte coding of the LevelDB table format (checkpoint `.index` files) and of string tensors in
// a bundle's data file: base-128 varints and little-endian fixed-width integers. (Protobuf
// messages are encoded by the generated classes of tfcc/io/proto, not here.)
//
//   std::string out;
//   tfcc::checkpoint::put_varint(out, 300);   // "\xac\x02"
//   size_t pos = 0;
//   auto v = tfcc::checkpoint::get_varint(out, &pos);   // 300, pos == 2
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfcc::checkpoint {

/// Appends the base-128 varint encoding of `v`.
void put_varint(std::string& out, uint64_t v);
/// Appends a little-endian fixed-width integer.
void put_fixed32(std::string& out, uint32_t v);
void put_fixed64(std::string& out, uint64_t v);

/// Decodes a varint at `*pos` in `data`, advancing `*pos`. Returns nullopt if the bytes end
/// first or the varint is longer than 10 bytes.
std::optional<uint64_t> get_varint(std::string_view data, size_t* pos);
/// Reads a little-endian fixed-width integer; the caller has checked the bounds.
uint32_t load_fixed32(const char* p);
uint64_t load_fixed64(const char* p);

}  // namespace tfcc::checkpoint
