// A hand-written protobuf encoder: enough of the wire format to write TensorBoard's messages
// (Event, Summary, TensorProto, GraphDef, ...) without depending on libprotobuf.
//
//   tfcc::io::proto::Encoder value;
//   value.string_field(1, "loss");              // Summary.Value.tag
//   value.float_field(2, 0.5f);                 // Summary.Value.simple_value
//   tfcc::io::proto::Encoder summary;
//   summary.message_field(1, value);            // Summary.value
//   std::string bytes = summary.data();
//
// Fields are written in the order of the calls; callers write them in ascending field order, as
// protobuf libraries do, so the bytes match TensorFlow's byte for byte.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tfcc::io::proto {

/// Wire types of the protobuf encoding.
enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

/// Appends `v` as a base-128 varint.
void append_varint(std::string& out, uint64_t v);

/// Builds one serialized message.
class Encoder {
 public:
  /// A varint field (uint32/uint64/enum).
  void varint_field(int field, uint64_t v);
  /// An int32/int64 field: negative values are sign-extended to 10 bytes, as protobuf does.
  void int64_field(int field, int64_t v) { varint_field(field, static_cast<uint64_t>(v)); }
  /// A bool field.
  void bool_field(int field, bool v) { varint_field(field, v ? 1 : 0); }
  /// A double field (8 bytes little-endian).
  void double_field(int field, double v);
  /// A float field (4 bytes little-endian).
  void float_field(int field, float v);
  /// A string or bytes field.
  void bytes_field(int field, std::string_view v);
  void string_field(int field, std::string_view v) { bytes_field(field, v); }
  /// A sub-message field.
  void message_field(int field, const Encoder& message) { bytes_field(field, message.data()); }
  /// A packed repeated double field (one length-delimited field); nothing when empty.
  void packed_double_field(int field, std::span<const double> values);
  /// A packed repeated float field; nothing when empty.
  void packed_float_field(int field, std::span<const float> values);
  /// A packed repeated int64/int32 field; nothing when empty.
  void packed_int64_field(int field, std::span<const int64_t> values);

  /// The bytes written so far.
  const std::string& data() const { return data_; }
  /// Moves the bytes out.
  std::string release() { return std::move(data_); }

 private:
  void key(int field, WireType type);
  std::string data_;
};

}  // namespace tfcc::io::proto
