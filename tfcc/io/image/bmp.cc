// BMP decoding as TensorFlow's DecodeBmp: uncompressed 8-bit (gray), 24-bit (BGR) and 32-bit
// (BGRA) pixel arrays, bottom-up or top-down (negative height), rows padded to 4 bytes.
#include <cstring>

#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

int32_t le32(const unsigned char* p) {
  uint32_t v =
      uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
  int32_t s;
  std::memcpy(&s, &v, 4);
  return s;
}

}  // namespace

Tensor decode_bmp(std::string_view contents, int channels, const std::string& source) {
  TFCC_CHECK_ARG(channels == 0 || channels == 1 || channels == 3 || channels == 4,
                 "decode_bmp: channels must be 0, 1, 3 or 4, got ", channels);
  auto bad = [&](const std::string& what) {
    throw DataLossError(tfcc::internal::str_cat("Invalid BMP file ", source, ": ", what));
  };
  if (sniff_image_format(contents) != ImageFormat::kBmp) {
    throw InvalidArgumentError("decode_bmp: " + source +
                               " is not a BMP file (it does not start with 'BM')");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(contents.data());
  if (contents.size() < 54) bad("shorter than the 54-byte file and info headers");
  const int64_t offset = le32(p + 10), width = le32(p + 18), signed_height = le32(p + 22);
  const int bpp = p[28] | (p[29] << 8);
  const int32_t compression = le32(p + 30);
  if (bpp != 8 && bpp != 24 && bpp != 32) {
    throw InvalidArgumentError(tfcc::internal::str_cat(
        "decode_bmp: ", source, " has ", bpp, " bits per pixel; only 8, 24 and 32 are supported"));
  }
  if (compression != 0 && !(compression == 3 && bpp == 32)) {
    throw InvalidArgumentError(
        tfcc::internal::str_cat("decode_bmp: ", source, " is compressed (method ", compression,
                                "); only uncompressed BMP files are supported"));
  }
  const int in_channels = bpp / 8;
  const int out_channels = channels == 0 ? in_channels : channels;
  if (out_channels < in_channels && !(in_channels == 4 && out_channels == 3)) {
    throw InvalidArgumentError(tfcc::internal::str_cat("decode_bmp: ", source, " has ", in_channels,
                                                       " channels; cannot decode it to ",
                                                       out_channels));
  }
  const bool top_down = signed_height < 0;
  const int64_t height = top_down ? -signed_height : signed_height;
  image_internal::check_image_size(1, height, width, out_channels, 1, contents.size(), source,
                                   "BMP");
  const int64_t row_size = (width * in_channels + 3) / 4 * 4;
  if (offset < 54 || offset > int64_t(contents.size()) ||
      row_size * height > int64_t(contents.size()) - offset) {
    bad(tfcc::internal::str_cat("pixel data at offset ", offset, " needs ", row_size * height,
                                " bytes, the file has ", contents.size()));
  }
  Tensor out = image_internal::new_image(uint8, Shape{height, width, out_channels});
  uint8_t* o = out.mutable_data<uint8_t>();
  const unsigned char* pixels = p + offset;
  for (int64_t y = 0; y < height; ++y) {
    const unsigned char* row = pixels + (top_down ? y : height - 1 - y) * row_size;
    for (int64_t x = 0; x < width; ++x) {
      const unsigned char* s = row + x * in_channels;
      uint8_t* d = o + (y * width + x) * out_channels;
      uint8_t rgba[4];
      if (in_channels == 1) {
        rgba[0] = rgba[1] = rgba[2] = s[0];
        rgba[3] = 255;
      } else {
        rgba[0] = s[2];
        rgba[1] = s[1];
        rgba[2] = s[0];
        rgba[3] = in_channels == 4 ? s[3] : 255;
      }
      std::memcpy(d, rgba, size_t(out_channels));
    }
  }
  return out;
}

Tensor decode_bmp(const Tensor& contents, int channels) {
  return decode_bmp(image_internal::tensor_view(contents, "decode_bmp"), channels);
}

}  // namespace tfcc::io
