// A hand-written protobuf decoder, the counterpart of proto_encoder.h: walks the fields of one
// serialized message with bounds checks, so malformed bytes from a file raise DataLossError
// instead of reading out of bounds.
//
//   tfcc::io::proto::Decoder d(bytes, "Summary.Value");
//   tfcc::io::proto::Field f;
//   while (d.next(f)) {
//     if (f.number == 1) tag = std::string(f.bytes);
//     if (f.number == 2) value = f.as_float();
//   }
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/io/summary/proto_encoder.h"

namespace tfcc::io::proto {

/// One decoded field. Unknown fields can simply be skipped by the caller.
struct Field {
  int number = 0;
  WireType type = WireType::kVarint;
  /// The value of a varint field, or the raw bits of a fixed32/fixed64 field.
  uint64_t value = 0;
  /// The payload of a length-delimited field (points into the decoded buffer).
  std::string_view bytes;

  /// The field as a double (fixed64); DataLossError for another wire type.
  double as_double() const;
  /// The field as a float (fixed32).
  float as_float() const;
  /// The field as a signed integer (varint, two's complement).
  int64_t as_int64() const;
  /// The field as bytes (length-delimited).
  std::string_view as_bytes() const;
};

/// Iterates over the fields of one message.
class Decoder {
 public:
  /// `message_name` labels errors ("malformed Event: ...").
  Decoder(std::string_view data, std::string_view message_name)
      : data_(data), name_(message_name) {}
  /// Reads the next field; false at the end of the message. Throws DataLossError on malformed
  /// bytes (bad varint, length past the end, deprecated group or unknown wire type).
  bool next(Field& field);

 private:
  [[noreturn]] void fail(const char* what) const;
  uint64_t read_varint();

  std::string_view data_;
  std::string_view name_;
  size_t pos_ = 0;
};

/// Appends the element(s) of a repeated double field, packed or not.
void append_repeated(const Field& field, std::vector<double>& out);
/// Appends the element(s) of a repeated float field, packed or not.
void append_repeated(const Field& field, std::vector<float>& out);
/// Appends the element(s) of a repeated int64/int32 field, packed or not.
void append_repeated(const Field& field, std::vector<int64_t>& out);

}  // namespace tfcc::io::proto
