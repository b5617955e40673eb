// Size checks, byte views and the file functions shared by the image decoders.
#include <fstream>

#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io {
namespace image_internal {

void check_image_size(int64_t frames, int64_t height, int64_t width, int64_t channels,
                      int64_t bytes_per_channel, size_t file_size, const std::string& source,
                      const char* format) {
  if (frames <= 0 || height <= 0 || width <= 0 || channels <= 0) {
    throw DataLossError(tfcc::internal::str_cat("Invalid ", format, " file ", source,
                                                ": image size ", frames, " x ", height, " x ",
                                                width, " x ", channels, " is empty or negative"));
  }
  int64_t n = frames;
  for (int64_t f : {height, width, channels, bytes_per_channel}) {
    if (__builtin_mul_overflow(n, f, &n)) {
      throw ResourceExhaustedError(tfcc::internal::str_cat(format, " file ", source,
                                                           " declares an image of ", height, " x ",
                                                           width, " pixels, too large to decode"));
    }
  }
  check_decompressed_size(static_cast<uint64_t>(n), file_size,
                          tfcc::internal::str_cat(format, " file ", source, " (", height, " x ",
                                                  width, " x ", channels, " pixels)"));
}

std::string_view tensor_view(const Tensor& contents, const char* op) {
  TFCC_CHECK_ARG(contents.defined() && !contents.is_symbolic() && contents.dtype() == uint8 &&
                     contents.rank() == 1,
                 op, ": contents must be a concrete 1-D uint8 tensor holding the file's bytes",
                 contents.defined() ? ", got " + contents.to_string() : std::string());
  return {static_cast<const char*>(contents.raw_data()), contents.nbytes()};
}

Tensor new_image(DType dtype, const Shape& shape) { return Tensor::empty(dtype, shape); }

}  // namespace image_internal

Tensor read_file(const std::string& path) {
  std::string bytes = tfcc::read_file(path);
  return Tensor::from_bytes(uint8, Shape{static_cast<int64_t>(bytes.size())}, bytes.data(),
                            bytes.size());
}

void write_file(const std::string& path, std::string_view contents) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw NotFoundError("write_file: cannot open " + path + " for writing");
  f.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  f.close();
  if (!f) throw DataLossError("write_file: writing " + path + " failed");
}

void write_file(const std::string& path, const Tensor& contents) {
  write_file(path, image_internal::tensor_view(contents, "write_file"));
}

ImageFormat sniff_image_format(std::string_view b) {
  if (b.starts_with("\x89PNG\r\n\x1a\n")) return ImageFormat::kPng;
  if (b.starts_with("\xff\xd8\xff")) return ImageFormat::kJpeg;
  if (b.starts_with("GIF87a") || b.starts_with("GIF89a")) return ImageFormat::kGif;
  if (b.starts_with("BM")) return ImageFormat::kBmp;
  return ImageFormat::kUnknown;
}

}  // namespace tfcc::io
