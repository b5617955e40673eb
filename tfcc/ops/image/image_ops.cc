// tf.image geometry (crop, pad, flip, rotate) and dtype conversion, as compositions of ops.
#include <cmath>
#include <limits>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/image/image_internal.h"
#include "tfcc/ops/operators.h"
#include "tfcc/platform/errors.h"

namespace tfcc::image {
namespace internal {

int image_rank(const Tensor& image, const char* op) {
  TFCC_CHECK_ARG(image.defined(), op, ": the image is an undefined tensor");
  const PartialShape s = image.partial_shape();
  TFCC_CHECK_ARG(s.rank() == 3 || s.rank() == 4, op,
                 ": images must be (height, width, channels) or (batch, height, width, "
                 "channels), got shape ",
                 s.to_string());
  return static_cast<int>(s.rank());
}

std::pair<Tensor, bool> as_batch(const Tensor& image, const char* op, std::source_location loc) {
  if (image_rank(image, op) == 4) return {image, true};
  return {expand_dims(image, 0, loc), false};
}

bool is_float(DType d) { return d == float32 || d == float64 || d == bfloat16; }

}  // namespace internal

namespace {

using internal::as_batch;

// Height, width of a rank-4 batch (must be known).
std::pair<int64_t, int64_t> hw(const Tensor& x, const char* op) {
  const auto d = x.partial_shape().dims();
  TFCC_CHECK_ARG(d[1] >= 0 && d[2] >= 0, op, ": the image's height and width must be known, got ",
                 x.partial_shape().to_string());
  return {d[1], d[2]};
}

Tensor unbatch(const Tensor& y, bool batched, Loc loc) {
  return batched ? y : squeeze(y, {0}, loc);
}

double dtype_max(DType d) {
  switch (d) {
    case uint8:
      return 255.0;
    case int32:
      return 2147483647.0;
    case int64:
      return 9223372036854775807.0;
    default:
      return 1.0;
  }
}

}  // namespace

Tensor crop_to_bounding_box(const Tensor& image, int64_t oh, int64_t ow, int64_t th, int64_t tw,
                            Loc loc) {
  auto [x, batched] = as_batch(image, "crop_to_bounding_box", loc);
  auto [h, w] = hw(x, "crop_to_bounding_box");
  TFCC_CHECK_ARG(oh >= 0 && ow >= 0, "crop_to_bounding_box: offsets must be >= 0, got ", oh, ", ",
                 ow);
  TFCC_CHECK_ARG(th > 0 && tw > 0, "crop_to_bounding_box: target size must be > 0, got ", th, " x ",
                 tw);
  TFCC_CHECK_ARG(oh + th <= h && ow + tw <= w, "crop_to_bounding_box: the box (", oh, ", ", ow,
                 ") + (", th, ", ", tw, ") exceeds the image (", h, ", ", w, ")");
  return unbatch(slice(x, {0, oh, ow, 0}, {-1, th, tw, -1}, loc), batched, loc);
}

Tensor pad_to_bounding_box(const Tensor& image, int64_t oh, int64_t ow, int64_t th, int64_t tw,
                           Loc loc) {
  auto [x, batched] = as_batch(image, "pad_to_bounding_box", loc);
  auto [h, w] = hw(x, "pad_to_bounding_box");
  TFCC_CHECK_ARG(oh >= 0 && ow >= 0, "pad_to_bounding_box: offsets must be >= 0, got ", oh, ", ",
                 ow);
  TFCC_CHECK_ARG(th >= oh + h && tw >= ow + w, "pad_to_bounding_box: the target (", th, ", ", tw,
                 ") is smaller than the image (", h, ", ", w, ") at offset (", oh, ", ", ow, ")");
  Tensor y = pad(x, {{0, 0}, {oh, th - oh - h}, {ow, tw - ow - w}, {0, 0}}, "CONSTANT", 0, loc);
  return unbatch(y, batched, loc);
}

Tensor resize_with_crop_or_pad(const Tensor& image, int64_t th, int64_t tw, Loc loc) {
  auto [x, batched] = as_batch(image, "resize_with_crop_or_pad", loc);
  auto [h, w] = hw(x, "resize_with_crop_or_pad");
  TFCC_CHECK_ARG(th > 0 && tw > 0, "resize_with_crop_or_pad: target size must be > 0, got ", th,
                 " x ", tw);
  auto floordiv2 = [](int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
  const int64_t dw = tw - w, dh = th - h;
  const int64_t crop_w = std::max<int64_t>(floordiv2(-dw), 0),
                pad_w = std::max<int64_t>(floordiv2(dw), 0);
  const int64_t crop_h = std::max<int64_t>(floordiv2(-dh), 0),
                pad_h = std::max<int64_t>(floordiv2(dh), 0);
  Tensor c = crop_to_bounding_box(x, crop_h, crop_w, std::min(th, h), std::min(tw, w), loc);
  return unbatch(pad_to_bounding_box(c, pad_h, pad_w, th, tw, loc), batched, loc);
}

Tensor central_crop(const Tensor& image, double fraction, Loc loc) {
  TFCC_CHECK_ARG(fraction > 0 && fraction <= 1,
                 "central_crop: central_fraction must be in (0, 1], "
                 "got ",
                 fraction);
  if (fraction == 1.0) return image;
  auto [x, batched] = as_batch(image, "central_crop", loc);
  auto [h, w] = hw(x, "central_crop");
  const auto start_h = static_cast<int64_t>((double(h) - double(h) * fraction) / 2);
  const auto start_w = static_cast<int64_t>((double(w) - double(w) * fraction) / 2);
  Tensor y = slice(x, {0, start_h, start_w, 0}, {-1, h - 2 * start_h, w - 2 * start_w, -1}, loc);
  return unbatch(y, batched, loc);
}

Tensor flip_left_right(const Tensor& image, Loc loc) {
  return reverse(image, {internal::image_rank(image, "flip_left_right") - 2}, loc);
}

Tensor flip_up_down(const Tensor& image, Loc loc) {
  return reverse(image, {internal::image_rank(image, "flip_up_down") - 3}, loc);
}

Tensor transpose(const Tensor& image, Loc loc) {
  if (internal::image_rank(image, "transpose") == 3) return tfcc::transpose(image, {1, 0, 2}, loc);
  return tfcc::transpose(image, {0, 2, 1, 3}, loc);
}

Tensor rot90(const Tensor& image, int64_t k, Loc loc) {
  const int rank = internal::image_rank(image, "rot90");
  const int64_t hax = rank - 3, wax = rank - 2;
  switch (((k % 4) + 4) % 4) {
    case 1:
      return image::transpose(reverse(image, {wax}, loc), loc);
    case 2:
      return reverse(image, {hax, wax}, loc);
    case 3:
      return reverse(image::transpose(image, loc), {wax}, loc);
    default:
      return image;
  }
}

Tensor convert_image_dtype(const Tensor& image, DType dtype, bool saturate, Loc loc) {
  const DType from = image.dtype();
  if (from == dtype) return image;
  const bool ffrom = internal::is_float(from), fto = internal::is_float(dtype);
  TFCC_CHECK_ARG(from != bool_ && dtype != bool_,
                 "convert_image_dtype: bool images are not "
                 "supported");
  if (ffrom && fto) return cast(image, dtype, loc);
  if (!ffrom && fto) {
    // multiply(cast(x), 1 / max) with the scale rounded to the float dtype, as TensorFlow does.
    return cast(image, dtype, loc) * (1.0 / dtype_max(from));
  }
  if (ffrom && !fto) {
    Tensor scaled = image * (dtype_max(dtype) + 0.5);
    if (saturate) scaled = clip_by_value(scaled, 0.0, dtype_max(dtype), loc);
    return cast(scaled, dtype, loc);
  }
  // Integer to integer: scale by a power of two, as TensorFlow does.
  const double in_max = dtype_max(from), out_max = dtype_max(dtype);
  if (in_max > out_max) {
    const double scale = std::floor((in_max + 1) / (out_max + 1));
    Tensor down = floordiv(image, Operand(scale));
    return cast(down, dtype, loc);
  }
  const double scale = std::floor((out_max + 1) / (in_max + 1));
  return cast(image, dtype, loc) * scale;
}

}  // namespace tfcc::image
