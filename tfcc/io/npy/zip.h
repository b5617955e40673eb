// The subset of the zip format that `.npz` files use: writing stored (uncompressed) members,
// reading stored and deflated ones, zip64 extensions (NumPy always writes them).
//
//   std::string archive = tfcc::io::zip::write({{"x.npy", bytes}});
//   for (auto& [name, data] : tfcc::io::zip::read(archive, "w.npz")) ...
//
// The reader trusts only the central directory, checks every offset and size against the
// archive, each member's local header against its directory entry, and each member's CRC-32.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfcc::io::zip {

/// Named byte strings, in archive order.
using Members = std::vector<std::pair<std::string, std::string>>;

/// A zip archive holding `members`, stored uncompressed.
std::string write(const Members& members);

/// The members of a zip archive. DataLossError naming `source` on damage; UnimplementedError
/// for compression methods other than stored and deflate, encryption, or multi-disk archives.
Members read(std::string_view archive, const std::string& source);

}  // namespace tfcc::io::zip
