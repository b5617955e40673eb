// The bytes of an HDF5 file under tfcc's own reader (reader.h), and bounded reads from them.
// Internal to tfcc/io/hdf5: every read names the file and what it was reading, and every position
// and length is checked against the file's size before a byte is touched.
//
//   Image image(std::move(bytes), "w.weights.h5");
//   Cursor c = image.cursor(address, 16, "object header at 0x60");  // [address, address + 16)
//   uint8_t version = c.u8();
//   uint64_t child = c.address();  // an address field: checked to lie inside the file
//
// A damaged field is a DataLossError "<file>: <what>: <problem>"; a structure tfcc does not read
// (a newer object header, chunked storage, ...) is an UnimplementedError saying what is read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tfcc/platform/errors.h"

namespace tfcc::io::hdf5::detail {

/// HDF5's "undefined address" (all bits set), as an unset data address is stored.
inline constexpr uint64_t kUndefinedAddress = ~uint64_t{0};

// Bounds on what a file can make the reader walk or hold (the data itself is bounded by the file
// size: datasets are copied out of it, at most widened from 16 to 32 bits per element).
inline constexpr int kMaxGroupDepth = 64;                // nested groups along one path
inline constexpr int kMaxBTreeLevel = 16;                // levels of a group's B-tree
inline constexpr uint64_t kMaxGroupMembers = 1 << 20;    // members of one group
inline constexpr uint64_t kMaxHeaderMessages = 1 << 16;  // messages of one object header
inline constexpr int kMaxHeaderBlocks = 1024;            // continuation blocks of one object header
inline constexpr int kMaxRank = 32;                      // HDF5's own limit (H5S_MAX_RANK)

class Cursor;

/// A whole HDF5 file in memory, with the sizes its superblock declares.
class Image {
 public:
  Image(std::string bytes, std::string source)
      : bytes_(std::move(bytes)), source_(std::move(source)) {}

  const std::string& source() const { return source_; }
  uint64_t size() const { return bytes_.size(); }
  std::string_view bytes() const { return bytes_; }
  /// Bytes per address / length field (2, 4 or 8), and the base all addresses are relative to.
  int offset_size = 8;
  int length_size = 8;
  uint64_t base = 0;

  /// `length` bytes at `pos`; DataLossError naming `what` unless they lie inside the file.
  std::string_view span(uint64_t pos, uint64_t length, std::string_view what) const;
  /// A cursor over [pos, pos + length), which must lie inside the file.
  Cursor cursor(uint64_t pos, uint64_t length, std::string_view what) const;
  /// An address field's value made absolute (base + value), or kUndefinedAddress.
  uint64_t absolute(uint64_t value, std::string_view what) const;

  /// DataLossError "<source>: <what>: <problem>".
  [[noreturn]] void fail(std::string_view what, const std::string& problem) const;
  /// UnimplementedError, same form.
  [[noreturn]] void unsupported(std::string_view what, const std::string& problem) const;

 private:
  std::string bytes_;
  std::string source_;
};

/// Reads little-endian fields one after another inside a bounded range of an Image.
class Cursor {
 public:
  Cursor(const Image& image, uint64_t pos, uint64_t end, std::string_view what)
      : image_(&image), pos_(pos), end_(end), what_(what) {}

  uint64_t pos() const { return pos_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - pos_; }
  /// An unsigned little-endian integer of `width` bytes (1..8).
  uint64_t uint(int width);
  uint8_t u8() { return static_cast<uint8_t>(uint(1)); }
  uint16_t u16() { return static_cast<uint16_t>(uint(2)); }
  uint32_t u32() { return static_cast<uint32_t>(uint(4)); }
  /// A length field (the superblock's length size).
  uint64_t length() { return uint(image_->length_size); }
  /// An address field, absolute and inside the file, or kUndefinedAddress.
  uint64_t address();
  /// The next `n` bytes.
  std::string_view bytes(uint64_t n);
  void skip(uint64_t n) { (void)bytes(n); }
  /// Four signature bytes that must equal `signature`.
  void expect_signature(std::string_view signature);

  [[noreturn]] void fail(const std::string& problem) const { image_->fail(what_, problem); }
  [[noreturn]] void unsupported(const std::string& problem) const {
    image_->unsupported(what_, problem);
  }
  const Image& image() const { return *image_; }
  std::string_view what() const { return what_; }

 private:
  const Image* image_;
  uint64_t pos_;
  uint64_t end_;
  std::string_view what_;
};

/// "0x1f40": addresses in messages.
std::string hex(uint64_t value);

}  // namespace tfcc::io::hdf5::detail
