// JPEG decoding and encoding through libjpeg-turbo, with TensorFlow's DecodeJpeg / EncodeJpeg
// settings (TensorFlow links the same library, so decoded pixels are bit for bit its own).
//
// libjpeg reports fatal errors through error_exit, which must not return: it longjmps back to the
// function that called setjmp (run_decode / run_encode), which holds no C++ objects with
// destructors; the message is copied into a fixed buffer first.
#include <cstdio>  // jpeglib.h needs FILE
// clang-format off
#include <jpeglib.h>
#include <jerror.h>
// clang-format on

#include <csetjmp>
#include <cstdlib>
#include <cstring>

#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

struct ErrorMgr {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {0};
  bool truncated = false;
};

void on_error_exit(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<ErrorMgr*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

void on_message(j_common_ptr cinfo, int level) {
  // Warnings are ignored as TensorFlow does, except that the data ended early (jpeg_mem_src then
  // feeds a fake end-of-image marker, and the remaining rows come out gray).
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
    reinterpret_cast<ErrorMgr*>(cinfo->err)->truncated = true;
  }
}

struct Decoder {
  jpeg_decompress_struct cinfo;
  ErrorMgr err;
  bool created = false;
  ~Decoder() {
    if (created) jpeg_destroy_decompress(&cinfo);
  }
};

// Reads the header and computes the output size under `options`.
bool run_header(Decoder& d, const std::string_view contents, const DecodeJpegOptions& o,
                J_COLOR_SPACE space) {
  if (setjmp(d.err.jump)) return false;
  jpeg_create_decompress(&d.cinfo);
  d.created = true;
  jpeg_mem_src(&d.cinfo, reinterpret_cast<const unsigned char*>(contents.data()),
               static_cast<unsigned long>(contents.size()));
  jpeg_read_header(&d.cinfo, TRUE);
  if (d.cinfo.jpeg_color_space == JCS_CMYK || d.cinfo.jpeg_color_space == JCS_YCCK) {
    std::snprintf(d.err.message, sizeof d.err.message,
                  "CMYK / YCCK JPEG files are not supported by tfcc");
    return false;
  }
  // channels 0: as stored (gray stays gray, everything else becomes RGB).
  d.cinfo.out_color_space = space != JCS_UNKNOWN          ? space
                            : d.cinfo.num_components == 1 ? JCS_GRAYSCALE
                                                          : JCS_RGB;
  d.cinfo.do_fancy_upsampling = o.fancy_upscaling ? TRUE : FALSE;
  d.cinfo.scale_num = 1;
  d.cinfo.scale_denom = static_cast<unsigned>(o.ratio);
  d.cinfo.dct_method = o.dct_method == "INTEGER_ACCURATE" ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(&d.cinfo);
  return true;
}

// Decodes every row into `out` (rows `stride` bytes apart); `rows_before_end` gets the rows
// decoded before the data ran out.
bool run_decode(Decoder& d, unsigned char* out, size_t stride, unsigned* rows_before_end) {
  if (setjmp(d.err.jump)) return false;
  jpeg_start_decompress(&d.cinfo);
  *rows_before_end = d.cinfo.output_height;
  while (d.cinfo.output_scanline < d.cinfo.output_height) {
    JSAMPROW row = out + size_t{d.cinfo.output_scanline} * stride;
    const bool was_truncated = d.err.truncated;
    if (jpeg_read_scanlines(&d.cinfo, &row, 1) != 1) break;
    if (d.err.truncated && !was_truncated) *rows_before_end = d.cinfo.output_scanline - 1;
  }
  jpeg_abort_decompress(&d.cinfo);
  return true;
}

}  // namespace

Tensor decode_jpeg(std::string_view contents, const DecodeJpegOptions& o,
                   const std::string& source) {
  TFCC_CHECK_ARG(o.channels == 0 || o.channels == 1 || o.channels == 3,
                 "decode_jpeg: channels must be 0, 1 or 3, got ", o.channels);
  TFCC_CHECK_ARG(o.ratio == 1 || o.ratio == 2 || o.ratio == 4 || o.ratio == 8,
                 "decode_jpeg: ratio must be 1, 2, 4 or 8, got ", o.ratio);
  TFCC_CHECK_ARG(
      o.dct_method.empty() || o.dct_method == "INTEGER_FAST" || o.dct_method == "INTEGER_ACCURATE",
      "decode_jpeg: dct_method must be '', 'INTEGER_FAST' or 'INTEGER_ACCURATE', got '",
      o.dct_method, "'");
  if (sniff_image_format(contents) != ImageFormat::kJpeg) {
    throw InvalidArgumentError("decode_jpeg: " + source +
                               " is not a JPEG file (it does not start with FF D8 FF)");
  }
  Decoder d;
  d.cinfo.err = jpeg_std_error(&d.err.pub);
  d.err.pub.error_exit = on_error_exit;
  d.err.pub.emit_message = on_message;
  const J_COLOR_SPACE space = o.channels == 1   ? JCS_GRAYSCALE
                              : o.channels == 3 ? JCS_RGB
                                                : JCS_UNKNOWN;
  auto fail = [&] {
    throw DataLossError(tfcc::internal::str_cat("Invalid JPEG file ", source, ": ", d.err.message));
  };
  if (!run_header(d, contents, o, space)) fail();
  const int64_t h = d.cinfo.output_height, w = d.cinfo.output_width;
  const int64_t c = d.cinfo.output_components;
  image_internal::check_image_size(1, h, w, c, 1, contents.size(), source, "JPEG");
  Tensor out = image_internal::new_image(uint8, Shape{h, w, c});
  auto* px = static_cast<unsigned char*>(out.mutable_raw_data());
  unsigned good_rows = 0;
  if (!run_decode(d, px, size_t(w * c), &good_rows)) fail();
  if (d.err.truncated) {
    if (!o.try_recover_truncated || double(good_rows) < double(o.acceptable_fraction) * double(h)) {
      throw DataLossError(tfcc::internal::str_cat(
          "Invalid JPEG file ", source, ": the data ends early (", good_rows, " of ", h,
          " rows decoded", o.try_recover_truncated ? "" : "; try_recover_truncated accepts it",
          ")"));
    }
  }
  return out;
}

Tensor decode_jpeg(const Tensor& contents, const DecodeJpegOptions& options) {
  return decode_jpeg(image_internal::tensor_view(contents, "decode_jpeg"), options);
}

namespace {

struct Encoder {
  jpeg_compress_struct cinfo;
  ErrorMgr err;
  bool created = false;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  ~Encoder() {
    if (created) jpeg_destroy_compress(&cinfo);
    std::free(buffer);
  }
};

bool run_encode(Encoder& e, const unsigned char* px, int64_t h, int64_t w, int c,
                const EncodeJpegOptions& o) {
  if (setjmp(e.err.jump)) return false;
  jpeg_create_compress(&e.cinfo);
  e.created = true;
  jpeg_mem_dest(&e.cinfo, &e.buffer, &e.size);
  e.cinfo.image_width = static_cast<JDIMENSION>(w);
  e.cinfo.image_height = static_cast<JDIMENSION>(h);
  e.cinfo.input_components = c;
  e.cinfo.in_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&e.cinfo);
  jpeg_set_quality(&e.cinfo, o.quality, TRUE);
  if (o.progressive) jpeg_simple_progression(&e.cinfo);
  if (o.optimize_size) e.cinfo.optimize_coding = TRUE;
  e.cinfo.density_unit = o.density_unit == "cm" ? 2 : 1;
  e.cinfo.X_density = static_cast<UINT16>(o.x_density);
  e.cinfo.Y_density = static_cast<UINT16>(o.y_density);
  if (!o.chroma_downsampling && c == 3) {
    e.cinfo.comp_info[0].h_samp_factor = 1;
    e.cinfo.comp_info[0].v_samp_factor = 1;
  }
  jpeg_start_compress(&e.cinfo, TRUE);
  while (e.cinfo.next_scanline < e.cinfo.image_height) {
    JSAMPROW row = const_cast<unsigned char*>(px) + size_t{e.cinfo.next_scanline} * size_t(w * c);
    jpeg_write_scanlines(&e.cinfo, &row, 1);
  }
  jpeg_finish_compress(&e.cinfo);
  return true;
}

}  // namespace

Tensor encode_jpeg(const Tensor& image, const EncodeJpegOptions& o) {
  TFCC_CHECK_ARG(
      image.defined() && !image.is_symbolic() && image.rank() == 3 && image.dtype() == uint8,
      "encode_jpeg: image must be a concrete (height, width, channels) uint8 tensor, "
      "got ",
      image.defined() ? image.to_string() : "an undefined tensor");
  const int64_t h = image.shape().dim(0), w = image.shape().dim(1), c = image.shape().dim(2);
  TFCC_CHECK_ARG(c == 1 || c == 3, "encode_jpeg: image must have 1 or 3 channels, got ", c);
  TFCC_CHECK_ARG(h > 0 && w > 0 && h <= JPEG_MAX_DIMENSION && w <= JPEG_MAX_DIMENSION,
                 "encode_jpeg: image size ", h, " x ", w, " is outside 1..", JPEG_MAX_DIMENSION);
  TFCC_CHECK_ARG(o.quality >= 0 && o.quality <= 100,
                 "encode_jpeg: quality must be in [0, 100], "
                 "got ",
                 o.quality);
  TFCC_CHECK_ARG(o.density_unit == "in" || o.density_unit == "cm",
                 "encode_jpeg: density_unit must be 'in' or 'cm', got '", o.density_unit, "'");
  TFCC_CHECK_ARG(
      o.x_density >= 0 && o.x_density <= 65535 && o.y_density >= 0 && o.y_density <= 65535,
      "encode_jpeg: densities must be in [0, 65535]");
  Encoder e;
  e.cinfo.err = jpeg_std_error(&e.err.pub);
  e.err.pub.error_exit = on_error_exit;
  e.err.pub.emit_message = on_message;
  if (!run_encode(e, image.data<uint8_t>(), h, w, static_cast<int>(c), o)) {
    throw InternalError(std::string("encode_jpeg: libjpeg failed: ") + e.err.message);
  }
  return Tensor::from_bytes(uint8, Shape{int64_t(e.size)}, e.buffer, e.size);
}

}  // namespace tfcc::io
