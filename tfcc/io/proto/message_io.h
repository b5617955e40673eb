// Parsing and serialising the generated protobuf classes (tfcc/io/proto/*.proto) the way tfcc
// treats files: bytes from a file are untrusted, so a parse is bounded (nesting depth, no more
// than the bytes given) and a failure is a DataLossError naming the source; serialisation is
// deterministic (map entries sorted by key), so equal messages give equal bytes.
//
//   tensorflow::BundleEntryProto entry;
//   tfcc::io::proto::parse(entry, value_bytes, "/tmp/ck.index, entry 'w'");
//   std::string bytes = tfcc::io::proto::serialize(entry);
#pragma once

#include <google/protobuf/message_lite.h>

#include <string>
#include <string_view>

namespace tfcc::io::proto {

/// Messages nested deeper than this (AttrValue lists inside functions inside attributes ...) are
/// refused rather than parsed recursively.
inline constexpr int kMaxNestingDepth = 64;

/// Parses `bytes` into `message` (cleared first). DataLossError "<context>: malformed <type> ..."
/// when the bytes are not a valid encoding, nest deeper than kMaxNestingDepth or exceed 2 GiB.
void parse(google::protobuf::MessageLite& message, std::string_view bytes,
           std::string_view context);

/// The message's bytes, map entries in key order.
std::string serialize(const google::protobuf::MessageLite& message);

}  // namespace tfcc::io::proto
