// decode_image: the format from the first bytes, then that format's decoder, then the dtype.
#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

// uint8 or 16-bit (int32) pixels as float32 in [0, 1], as convert_image_dtype does.
Tensor to_float(const Tensor& t) {
  Tensor out = image_internal::new_image(float32, t.shape());
  float* o = out.mutable_data<float>();
  const int64_t n = t.num_elements();
  if (t.dtype() == uint8) {
    const uint8_t* in = t.data<uint8_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(in[i]) * (1.0f / 255.0f);
  } else {
    const int32_t* in = t.data<int32_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(in[i]) * (1.0f / 65535.0f);
  }
  return out;
}

// uint8 pixels as 16-bit values (x 257), as convert_image_dtype(uint8 -> uint16) does.
Tensor to_wide(const Tensor& t) {
  Tensor out = image_internal::new_image(int32, t.shape());
  int32_t* o = out.mutable_data<int32_t>();
  const uint8_t* in = t.data<uint8_t>();
  for (int64_t i = 0; i < t.num_elements(); ++i) o[i] = int32_t{in[i]} * 257;
  return out;
}

}  // namespace

Tensor decode_image(std::string_view contents, const DecodeImageOptions& o,
                    const std::string& source) {
  TFCC_CHECK_ARG(o.channels == 0 || o.channels == 1 || o.channels == 3 || o.channels == 4,
                 "decode_image: channels must be 0, 1, 3 or 4, got ", o.channels);
  TFCC_CHECK_ARG(o.dtype == uint8 || o.dtype == int32 || o.dtype == float32,
                 "decode_image: dtype must be uint8, int32 (TensorFlow's uint16) or float32, got ",
                 dtype_name(o.dtype));
  Tensor img;
  switch (sniff_image_format(contents)) {
    case ImageFormat::kPng:
      // PNG keeps 16-bit precision for int32 and float32 results, as TensorFlow does.
      img = decode_png(contents, o.channels, o.dtype == uint8 ? uint8 : int32, source);
      break;
    case ImageFormat::kJpeg: {
      TFCC_CHECK_ARG(o.channels != 4, "decode_image: ", source,
                     " is a JPEG file: channels must be 0, 1 or 3, got 4");
      DecodeJpegOptions jo;
      jo.channels = o.channels;
      img = decode_jpeg(contents, jo, source);
      break;
    }
    case ImageFormat::kGif:
      TFCC_CHECK_ARG(o.channels == 0 || o.channels == 3, "decode_image: ", source,
                     " is a GIF file: channels must be 0 or 3, got ", o.channels);
      img = decode_gif(contents, source);
      if (!o.expand_animations) img = img(0);
      break;
    case ImageFormat::kBmp:
      img = decode_bmp(contents, o.channels, source);
      break;
    case ImageFormat::kUnknown:
      throw InvalidArgumentError("decode_image: " + source +
                                 " is not a PNG, JPEG, GIF or BMP file (unknown image format)");
  }
  if (img.dtype() == o.dtype) return img;
  if (o.dtype == float32) return to_float(img);
  return to_wide(img);
}

Tensor decode_image(const Tensor& contents, const DecodeImageOptions& options) {
  return decode_image(image_internal::tensor_view(contents, "decode_image"), options);
}

}  // namespace tfcc::io
