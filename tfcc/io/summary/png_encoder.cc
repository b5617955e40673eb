#include "tfcc/io/summary/png_encoder.h"

#include <png.h>

#include <cstring>

#include "tfcc/platform/errors.h"

namespace tfcc::summary {

std::string encode_png(const uint8_t* pixels, int64_t height, int64_t width, int64_t channels) {
  TFCC_CHECK_ARG(channels >= 1 && channels <= 4,
                 "encode_png: images must have 1, 2, 3 or 4 channels, got ", channels);
  // PNG stores dimensions as 31-bit integers; libpng also needs the row size in an int.
  constexpr int64_t kMax = 0x7fffffff;
  TFCC_CHECK_ARG(height > 0 && width > 0 && height <= kMax && width <= kMax / channels,
                 "encode_png: invalid image size ", height, "x", width, "x", channels);
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  static const png_uint_32 kFormats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB,
                                         PNG_FORMAT_RGBA};
  image.format = kFormats[channels - 1];
  png_alloc_size_t size = 0;
  // First call measures, second writes (libpng's simplified API; no setjmp needed here).
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, pixels, 0, nullptr)) {
    std::string why = image.message;
    png_image_free(&image);
    throw InvalidArgumentError("encode_png: libpng failed: " + why);
  }
  std::string out(size, '\0');
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, pixels, 0, nullptr)) {
    std::string why = image.message;
    png_image_free(&image);
    throw InternalError("encode_png: libpng failed: " + why);
  }
  out.resize(size);
  return out;
}

}  // namespace tfcc::summary
