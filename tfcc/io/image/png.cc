// PNG decoding (libpng) with TensorFlow's DecodePng conversions, and PNG encoding.
//
// libpng reports errors by longjmp; the two functions that call it (read_header, read_pixels)
// hold no C++ objects with destructors between setjmp and the libpng calls, and copy libpng's
// message into a fixed buffer that the C++ side turns into a DataLossError.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <vector>

#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

struct PngReader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  const unsigned char* data = nullptr;
  size_t size = 0;
  size_t pos = 0;
  char message[256] = {0};
  ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

void on_error(png_structp png, png_const_charp msg) {
  auto* r = static_cast<PngReader*>(png_get_error_ptr(png));
  std::snprintf(r->message, sizeof r->message, "%s", msg);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

void on_read(png_structp png, png_bytep out, png_size_t n) {
  auto* r = static_cast<PngReader*>(png_get_io_ptr(png));
  if (n > r->size - r->pos) png_error(png, "file truncated (read past the end of the data)");
  std::memcpy(out, r->data + r->pos, n);
  r->pos += n;
}

struct Header {
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0, channels = 0, passes = 0;
  bool synthesize_16 = false;
  size_t rowbytes = 0;
};

// Reads the header and sets up TensorFlow's conversions (its png_io.cc CommonInitDecode order).
// Returns false after a libpng error (message in r.message).
bool read_header(PngReader& r, int want_channels, int desired_bits, Header& h) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  png_set_read_fn(r.png, &r, on_read);
  png_set_user_limits(r.png, 0x7fffffffu, 0x7fffffffu);
  png_read_info(r.png, r.info);
  png_get_IHDR(r.png, r.info, &h.width, &h.height, &h.bit_depth, &h.color_type, nullptr, nullptr,
               nullptr);
  int channels = want_channels;
  const bool has_trns = png_get_valid(r.png, r.info, PNG_INFO_tRNS) != 0;
  if (channels == 0) {
    channels = h.color_type == PNG_COLOR_TYPE_PALETTE ? (has_trns ? 4 : 3)
                                                      : png_get_channels(r.png, r.info);
  }
  h.channels = channels;
  if (h.color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r.png);
  if (h.color_type == PNG_COLOR_TYPE_GRAY && h.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(r.png);
  const bool has_alpha = (h.color_type & PNG_COLOR_MASK_ALPHA) != 0;
  if ((channels & 1) == 0) {
    if (!has_alpha) {
      if (has_trns) {
        png_set_tRNS_to_alpha(r.png);
      } else {
        // TensorFlow's filler: all ones at the file's bit depth (1 for a 1-bit gray file).
        png_set_add_alpha(r.png, (1u << h.bit_depth) - 1, PNG_FILLER_AFTER);
      }
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(r.png);
  }
  if (h.bit_depth > 8 && desired_bits <= 8) png_set_strip_16(r.png);
  h.synthesize_16 = h.bit_depth <= 8 && desired_bits == 16;
  png_set_packing(r.png);
  h.passes = png_set_interlace_handling(r.png);
  if (desired_bits > 8) png_set_swap(r.png);  // little-endian host
  if ((h.color_type & PNG_COLOR_MASK_COLOR) && channels <= 2) {
    png_set_rgb_to_gray(r.png, 1, 0.299, 0.587);
  }
  if (!(h.color_type & PNG_COLOR_MASK_COLOR) && channels >= 3) png_set_gray_to_rgb(r.png);
  png_read_update_info(r.png, r.info);
  h.rowbytes = png_get_rowbytes(r.png, r.info);
  return true;
}

// Reads every row (all interlace passes) into `out`, rows `stride` bytes apart.
bool read_pixels(PngReader& r, const Header& h, unsigned char* out, size_t stride) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  for (int pass = 0; pass < h.passes; ++pass) {
    for (png_uint_32 y = 0; y < h.height; ++y) png_read_row(r.png, out + y * stride, nullptr);
  }
  return true;
}

struct PngWriter {
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::string out;
  char message[256] = {0};
  ~PngWriter() { png_destroy_write_struct(&png, info ? &info : nullptr); }
};

void on_write_error(png_structp png, png_const_charp msg) {
  auto* w = static_cast<PngWriter*>(png_get_error_ptr(png));
  std::snprintf(w->message, sizeof w->message, "%s", msg);
  png_longjmp(png, 1);
}

void on_write(png_structp png, png_bytep data, png_size_t n) {
  auto* w = static_cast<PngWriter*>(png_get_io_ptr(png));
  bool ok = true;
  try {
    w->out.append(reinterpret_cast<const char*>(data), n);
  } catch (...) {  // no C++ exception may cross libpng's C frames
    ok = false;
  }
  if (!ok) png_error(png, "out of memory");
}
void on_flush(png_structp) {}

bool write_png(PngWriter& wr, const unsigned char* pixels, int64_t w, int64_t h, int c, int bits,
               int compression) {
  if (setjmp(png_jmpbuf(wr.png))) return false;
  static const int kTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                               PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(wr.png, &wr, on_write, on_flush);
  png_set_compression_level(wr.png, compression);  // -1: zlib's default
  png_set_IHDR(wr.png, wr.info, static_cast<png_uint_32>(w), static_cast<png_uint_32>(h), bits,
               kTypes[c - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(wr.png, wr.info);
  const size_t stride = static_cast<size_t>(w) * size_t(c) * size_t(bits / 8);
  for (int64_t y = 0; y < h; ++y) png_write_row(wr.png, pixels + size_t(y) * stride);
  png_write_end(wr.png, nullptr);
  return true;
}

}  // namespace

Tensor decode_png(std::string_view contents, int channels, DType dtype, const std::string& source) {
  TFCC_CHECK_ARG(channels == 0 || channels == 1 || channels == 3 || channels == 4,
                 "decode_png: channels must be 0, 1, 3 or 4, got ", channels);
  TFCC_CHECK_ARG(dtype == uint8 || dtype == int32,
                 "decode_png: dtype must be uint8 or int32 (TensorFlow's uint16), got ",
                 dtype_name(dtype));
  if (contents.size() < 8 ||
      png_sig_cmp(reinterpret_cast<png_const_bytep>(contents.data()), 0, 8) != 0) {
    throw InvalidArgumentError("decode_png: " + source + " is not a PNG file (bad signature)");
  }
  const int bits = dtype == uint8 ? 8 : 16;
  PngReader r;
  r.data = reinterpret_cast<const unsigned char*>(contents.data());
  r.size = contents.size();
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, on_error, on_warning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) throw ResourceExhaustedError("decode_png: libpng could not start");
  Header h;
  auto fail = [&] {
    throw DataLossError(tfcc::internal::str_cat("Invalid PNG file ", source, ": ", r.message));
  };
  if (!read_header(r, channels, bits, h)) fail();
  image_internal::check_image_size(1, h.height, h.width, h.channels, bits / 8, contents.size(),
                                   source, "PNG");
  const size_t want_row =
      size_t{h.width} * size_t(h.channels) * size_t(h.synthesize_16 ? 1 : bits / 8);
  if (h.rowbytes != want_row) {
    throw InternalError(tfcc::internal::str_cat("decode_png: ", source, ": libpng rows of ",
                                                h.rowbytes, " bytes, expected ", want_row));
  }
  const Shape shape{int64_t{h.height}, int64_t{h.width}, h.channels};
  if (bits == 8) {
    Tensor out = image_internal::new_image(uint8, shape);
    if (!read_pixels(r, h, static_cast<unsigned char*>(out.mutable_raw_data()), h.rowbytes)) fail();
    return out;
  }
  std::vector<unsigned char> raw(h.rowbytes * h.height);
  if (!read_pixels(r, h, raw.data(), h.rowbytes)) fail();
  Tensor out = image_internal::new_image(int32, shape);
  int32_t* o = out.mutable_data<int32_t>();
  const int64_t n = out.num_elements();
  if (h.synthesize_16) {
    for (int64_t i = 0; i < n; ++i) o[i] = int32_t{raw[i]} * 257;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t v;
      std::memcpy(&v, raw.data() + 2 * i, 2);
      o[i] = v;
    }
  }
  return out;
}

Tensor decode_png(const Tensor& contents, int channels, DType dtype) {
  return decode_png(image_internal::tensor_view(contents, "decode_png"), channels, dtype);
}

Tensor encode_png(const Tensor& image, int compression) {
  TFCC_CHECK_ARG(compression >= -1 && compression <= 9,
                 "encode_png: compression must be in [-1, 9], got ", compression);
  TFCC_CHECK_ARG(image.defined() && !image.is_symbolic() && image.rank() == 3 &&
                     (image.dtype() == uint8 || image.dtype() == int32),
                 "encode_png: image must be a concrete (height, width, channels) uint8 or int32 "
                 "tensor, got ",
                 image.defined() ? image.to_string() : "an undefined tensor");
  const int64_t h = image.shape().dim(0), w = image.shape().dim(1), c = image.shape().dim(2);
  TFCC_CHECK_ARG(c >= 1 && c <= 4, "encode_png: image must have 1 to 4 channels, got ", c);
  TFCC_CHECK_ARG(h > 0 && w > 0 && h <= 0x7fffffff && w <= 0x7fffffff / 8,
                 "encode_png: invalid image size ", h, " x ", w);
  PngWriter wr;
  wr.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &wr, on_write_error, on_warning);
  if (wr.png) wr.info = png_create_info_struct(wr.png);
  if (!wr.png || !wr.info) throw ResourceExhaustedError("encode_png: libpng could not start");
  const int bits = image.dtype() == uint8 ? 8 : 16;
  std::vector<unsigned char> rows;
  if (bits == 16) {  // big-endian 16-bit samples, as PNG stores them
    const int32_t* in = image.data<int32_t>();
    rows.resize(static_cast<size_t>(image.num_elements()) * 2);
    for (size_t i = 0; i < rows.size() / 2; ++i) {
      TFCC_CHECK_ARG(in[i] >= 0 && in[i] <= 65535, "encode_png: int32 (16-bit) image value ", in[i],
                     " is outside [0, 65535]");
      rows[2 * i] = static_cast<unsigned char>(in[i] >> 8);
      rows[2 * i + 1] = static_cast<unsigned char>(in[i] & 255);
    }
  }
  const auto* pixels = bits == 8 ? image.data<uint8_t>() : rows.data();
  if (!write_png(wr, pixels, w, h, static_cast<int>(c), bits, compression)) {
    throw InvalidArgumentError(tfcc::internal::str_cat("encode_png: libpng failed: ", wr.message));
  }
  return Tensor::from_bytes(uint8, Shape{int64_t(wr.out.size())}, wr.out.data(), wr.out.size());
}

}  // namespace tfcc::io
