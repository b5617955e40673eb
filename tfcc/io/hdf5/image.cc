#include "tfcc/io/hdf5/image.h"

#include <cstdio>

namespace tfcc::io::hdf5::detail {

std::string hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

void Image::fail(std::string_view what, const std::string& problem) const {
  throw DataLossError(tfcc::internal::str_cat(source_, ": ", what, ": ", problem,
                                              " (a damaged or truncated HDF5 file)"));
}

void Image::unsupported(std::string_view what, const std::string& problem) const {
  throw UnimplementedError(tfcc::internal::str_cat(source_, ": ", what, ": ", problem));
}

std::string_view Image::span(uint64_t pos, uint64_t length, std::string_view what) const {
  if (pos > size() || length > size() - pos) {
    fail(what, tfcc::internal::str_cat(length, " bytes at ", hex(pos), " run past the end of the ",
                                       size(), "-byte file"));
  }
  return std::string_view(bytes_).substr(pos, length);
}

Cursor Image::cursor(uint64_t pos, uint64_t length, std::string_view what) const {
  (void)span(pos, length, what);
  return Cursor(*this, pos, pos + length, what);
}

uint64_t Image::absolute(uint64_t value, std::string_view what) const {
  const uint64_t undefined =
      offset_size == 8 ? kUndefinedAddress : (uint64_t{1} << (8 * offset_size)) - 1;
  if (value == undefined) return kUndefinedAddress;
  if (value > size() || base > size() - value) {
    fail(what, tfcc::internal::str_cat("address ", hex(value), " lies outside the ", size(),
                                       "-byte file"));
  }
  return base + value;
}

uint64_t Cursor::uint(int width) {
  if (width < 1 || width > 8) fail(tfcc::internal::str_cat("a field of ", width, " bytes"));
  if (remaining() < static_cast<uint64_t>(width)) {
    fail(tfcc::internal::str_cat("a ", width, "-byte field at ", hex(pos_), " runs past its end (",
                                 hex(end_), ")"));
  }
  const std::string_view b = image_->bytes();
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    value |= uint64_t{static_cast<uint8_t>(b[pos_ + i])} << (8 * i);
  }
  pos_ += width;
  return value;
}

uint64_t Cursor::address() { return image_->absolute(uint(image_->offset_size), what_); }

std::string_view Cursor::bytes(uint64_t n) {
  if (n > remaining()) {
    fail(
        tfcc::internal::str_cat(n, " bytes at ", hex(pos_), " run past its end (", hex(end_), ")"));
  }
  std::string_view out = image_->bytes().substr(pos_, n);
  pos_ += n;
  return out;
}

void Cursor::expect_signature(std::string_view signature) {
  const uint64_t at = pos_;
  if (remaining() < signature.size() || bytes(signature.size()) != signature) {
    fail(tfcc::internal::str_cat("no '", signature, "' signature at ", hex(at)));
  }
}

}  // namespace tfcc::io::hdf5::detail
