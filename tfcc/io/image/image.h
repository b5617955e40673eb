// Image files: decoding and encoding PNG, JPEG, GIF and BMP, like tf.io's image ops.
//
//   tfcc::Tensor bytes = tfcc::io::read_file("cat.jpg");            // 1-D uint8: the file
//   tfcc::Tensor img = tfcc::io::decode_image(bytes, {.channels = 3});  // uint8 (h, w, 3)
//   tfcc::Tensor png = tfcc::io::encode_png(img);                    // 1-D uint8: a PNG file
//   tfcc::io::write_file("cat.png", png);
//
// tfcc has no string dtype: file contents travel as 1-D uint8 tensors (tfcc::data::bytes_tensor);
// every decoder also takes a std::string_view. Decoded images are (height, width, channels)
// uint8 tensors, GIFs (frames, height, width, 3). tfcc has no uint16 dtype: where TensorFlow
// returns uint16 (decode_png(dtype=uint16)) tfcc returns int32 holding the same values.
//
// Hostile input: a file whose declared size (height * width * channels * bytes per channel,
// times frames for a GIF) exceeds tfcc::max_decompressed_size(file size) (tfcc/platform/limits.h:
// at most 100x the file, but always up to 64 MiB, never over 4 GiB; TFCC_MAX_DECOMPRESSION_RATIO
// and TFCC_MAX_DECOMPRESSED_BYTES change it) raises ResourceExhaustedError before any pixel
// memory is allocated. Truncated or corrupt files raise DataLossError, unsupported ones
// (e.g. a 16-bit BMP, a CMYK JPEG asked for 1 channel) InvalidArgumentError; every message names
// `source` (the file name when read through read_file + decode_*, else "<png bytes>" etc.).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>
#include <string_view>

#include "tfcc/core/tensor.h"

namespace tfcc::io {

/// The contents of the file at `path` as a 1-D uint8 tensor (tf.io.read_file). NotFoundError if
/// it cannot be opened.
Tensor read_file(const std::string& path);
/// Writes `contents` (a 1-D uint8 tensor) to `path`, replacing it (tf.io.write_file).
void write_file(const std::string& path, const Tensor& contents);
/// Writes raw bytes to `path`.
void write_file(const std::string& path, std::string_view contents);

/// The image formats decode_image recognises.
enum class ImageFormat { kUnknown, kPng, kJpeg, kGif, kBmp };
/// The format of an image file from its first bytes (kUnknown if none matches).
ImageFormat sniff_image_format(std::string_view bytes);

/// tf.io.decode_png. channels: 0 (as stored; a palette becomes RGB, or RGBA with transparency),
/// 1, 2, 3 or 4. dtype: uint8 (16-bit files are reduced to their high bytes) or int32 (TF's
/// uint16: 16-bit values, 8-bit files scaled by 257).
Tensor decode_png(std::string_view contents, int channels = 0, DType dtype = uint8,
                  const std::string& source = "<png bytes>");
Tensor decode_png(const Tensor& contents, int channels = 0, DType dtype = uint8);

/// Options of tf.io.decode_jpeg, with TensorFlow's defaults.
struct DecodeJpegOptions {
  int channels = 0;                    ///< 0 (as stored), 1 (gray) or 3 (RGB)
  int ratio = 1;                       ///< downscale while decoding: 1, 2, 4 or 8
  bool fancy_upscaling = true;         ///< smooth chroma upsampling (slower)
  bool try_recover_truncated = false;  ///< return a partly decoded truncated file
  float acceptable_fraction = 1.0f;    ///< fraction of rows needed with try_recover_truncated
  /// "" (TF's default: libjpeg's fast integer IDCT, JDCT_IFAST), "INTEGER_FAST",
  /// "INTEGER_ACCURATE" (JDCT_ISLOW).
  std::string dct_method;
};
/// tf.io.decode_jpeg: uint8 (h / ratio, w / ratio rounded up, channels).
Tensor decode_jpeg(std::string_view contents, const DecodeJpegOptions& options = {},
                   const std::string& source = "<jpeg bytes>");
Tensor decode_jpeg(const Tensor& contents, const DecodeJpegOptions& options = {});

/// tf.io.decode_gif: every frame composited onto the previous ones as TensorFlow does, uint8
/// (frames, height, width, 3).
Tensor decode_gif(std::string_view contents, const std::string& source = "<gif bytes>");
Tensor decode_gif(const Tensor& contents);

/// tf.io.decode_bmp: uncompressed 24- and 32-bit BMP files; channels 0, 3 or 4.
Tensor decode_bmp(std::string_view contents, int channels = 0,
                  const std::string& source = "<bmp bytes>");
Tensor decode_bmp(const Tensor& contents, int channels = 0);

/// Options of tf.io.decode_image.
struct DecodeImageOptions {
  int channels = 0;  ///< 0, 1, 3 or 4 (GIF: 0 or 3)
  /// uint8, int32 (TF's uint16) or float32 (convert_image_dtype: [0, 1]).
  DType dtype = uint8;
  /// true: a GIF is (frames, h, w, 3); false: its first frame, (h, w, 3), like the other formats.
  bool expand_animations = true;
};
/// tf.io.decode_image: sniffs PNG, JPEG, GIF or BMP and decodes it. InvalidArgumentError naming
/// `source` for any other content.
Tensor decode_image(std::string_view contents, const DecodeImageOptions& options = {},
                    const std::string& source = "<image bytes>");
Tensor decode_image(const Tensor& contents, const DecodeImageOptions& options = {});

/// tf.io.encode_png: a uint8 or int32 (16-bit values, TF's uint16) (h, w, c) image, c in 1..4,
/// as a PNG file. compression: -1 (zlib's default) to 9.
Tensor encode_png(const Tensor& image, int compression = -1);

/// Options of tf.io.encode_jpeg, with TensorFlow's defaults.
struct EncodeJpegOptions {
  int quality = 95;                 ///< 0..100
  bool progressive = false;         ///< a progressive JPEG
  bool optimize_size = false;       ///< optimised Huffman tables
  bool chroma_downsampling = true;  ///< 4:2:0 chroma (false: 4:4:4)
  int x_density = 300;              ///< pixels per density unit
  int y_density = 300;
  std::string density_unit = "in";  ///< "in" or "cm"
};
/// tf.io.encode_jpeg: a uint8 (h, w, 1 or 3) image as a JPEG file.
Tensor encode_jpeg(const Tensor& image, const EncodeJpegOptions& options = {});

}  // namespace tfcc::io
#pragma GCC visibility pop
