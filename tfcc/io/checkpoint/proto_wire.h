// The protobuf wire format, hand-written: enough to encode and decode the few messages a
// TensorFlow checkpoint holds (BundleHeaderProto, BundleEntryProto, TensorShapeProto,
// TrackableObjectGraph) without depending on libprotobuf.
//
//   tfcc::checkpoint::ProtoWriter w;
//   w.varint_field(1, 7);            // dtype: DT_STRING
//   w.bytes_field(2, shape_bytes);   // a nested message
//   std::string bytes = w.str();
//
//   tfcc::checkpoint::ProtoReader r(bytes, "entry 'w'");
//   while (auto f = r.next()) { if (f->number == 1) dtype = f->as_int64(); ... }
//
// The reader treats its input as untrusted: every length is checked against what is left, and a
// malformed message raises DataLossError naming the context it was given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfcc::checkpoint {

/// Protobuf wire types.
enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

/// Appends varint encodings (also used by the SSTable format).
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

/// Builds one message, fields in the order they are added.
class ProtoWriter {
 public:
  /// An int32/int64/uint/bool/enum field. Negative values take ten bytes, as in protobuf.
  void varint_field(int number, uint64_t value);
  /// A fixed32 field (BundleEntryProto.crc32c).
  void fixed32_field(int number, uint32_t value);
  /// A string, bytes or nested-message field.
  void bytes_field(int number, std::string_view value);
  const std::string& str() const { return out_; }

 private:
  void key(int number, WireType type);
  std::string out_;
};

/// One decoded field. For kLen fields `bytes` views into the reader's input.
struct ProtoField {
  int number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;
  std::string_view bytes;
};

/// Iterates over the fields of one message, validating as it goes.
class ProtoReader {
 public:
  /// `context` names the message in errors, e.g. "checkpoint /tmp/ck.index, entry 'w'".
  ProtoReader(std::string_view data, std::string context)
      : data_(data), context_(std::move(context)) {}

  /// The next field, or nullopt at the end. DataLossError on malformed bytes.
  std::optional<ProtoField> next();
  /// Raises DataLossError if `f` does not have wire type `type` (a corrupt or foreign message).
  void expect(const ProtoField& f, WireType type) const;
  /// Raises DataLossError with "<context>: <what>".
  [[noreturn]] void fail(const std::string& what) const;
  const std::string& context() const { return context_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
  std::string context_;
};

}  // namespace tfcc::checkpoint
