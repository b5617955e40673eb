// tf.image color adjustments and color space conversions, as compositions of ops. The HSV
// formulas are those of TensorFlow's RGBToHSV / HSVToRGB kernels; adjust_saturation and
// adjust_hue go through them as TensorFlow's AdjustSaturation / AdjustHue kernels do.
#include <cmath>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/image/image_internal.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::image {
namespace {

// float32 (or float64 / bfloat16 as they are) for arithmetic; integer images scaled to [0, 1].
Tensor to_float(const Tensor& image, Loc loc) {
  if (image.dtype() == float32 || image.dtype() == float64) return image;
  return convert_image_dtype(image, float32, false, loc);
}

Tensor back(const Tensor& x, DType dtype, Loc loc) {
  return convert_image_dtype(x, dtype, /*saturate=*/true, loc);
}

void check_rgb(const Tensor& image, const char* op) {
  const PartialShape s = image.partial_shape();
  TFCC_CHECK_ARG(s.rank() >= 1 && (s.dims().back() == 3 || s.dims().back() < 0), op,
                 ": images must have 3 channels (RGB) in the last dimension, got shape ",
                 s.to_string());
}

std::vector<Tensor> channels(const Tensor& x, Loc loc) { return unstack(x, -1, loc); }

}  // namespace

namespace internal {

Tensor adjust_brightness_by(const Tensor& image, const Tensor& delta, Loc loc) {
  Tensor x = to_float(image, loc);
  return back(x + cast(delta, x.dtype(), loc), image.dtype(), loc);
}

Tensor adjust_contrast_by(const Tensor& images, const Tensor& factor, Loc loc) {
  image_rank(images, "adjust_contrast");
  Tensor x = to_float(images, loc);
  Tensor mean = reduce_mean(x, {-3, -2}, true, loc);
  return back((x - mean) * cast(factor, x.dtype(), loc) + mean, images.dtype(), loc);
}

Tensor adjust_saturation_by(const Tensor& image, const Tensor& factor, Loc loc) {
  check_rgb(image, "adjust_saturation");
  Tensor hsv = rgb_to_hsv(to_float(image, loc), loc);
  auto c = channels(hsv, loc);
  Tensor s = clip_by_value(c[1] * cast(factor, hsv.dtype(), loc), 0.0, 1.0, loc);
  return back(hsv_to_rgb(stack({c[0], s, c[2]}, -1, loc), loc), image.dtype(), loc);
}

Tensor adjust_hue_by(const Tensor& image, const Tensor& delta, Loc loc) {
  check_rgb(image, "adjust_hue");
  Tensor hsv = rgb_to_hsv(to_float(image, loc), loc);
  auto c = channels(hsv, loc);
  Tensor h = floormod(c[0] + cast(delta, hsv.dtype(), loc), Operand(1.0), loc);
  return back(hsv_to_rgb(stack({h, c[1], c[2]}, -1, loc), loc), image.dtype(), loc);
}

}  // namespace internal

Tensor adjust_brightness(const Tensor& image, double delta, Loc loc) {
  return internal::adjust_brightness_by(image, Tensor::scalar(delta), loc);
}

Tensor adjust_contrast(const Tensor& images, double factor, Loc loc) {
  return internal::adjust_contrast_by(images, Tensor::scalar(factor), loc);
}

Tensor adjust_gamma(const Tensor& image, double gamma, double gain, Loc loc) {
  TFCC_CHECK_ARG(gamma >= 0, "adjust_gamma: gamma must be >= 0, got ", gamma);
  Tensor x = to_float(image, loc);
  return back(pow(x, Operand(gamma), loc) * gain, image.dtype(), loc);
}

Tensor rgb_to_hsv(const Tensor& images, Loc loc) {
  check_rgb(images, "rgb_to_hsv");
  auto c = channels(images, loc);
  const Tensor &r = c[0], &g = c[1], &b = c[2];
  Tensor v = maximum(maximum(r, g, loc), b, loc);
  Tensor range = v - minimum(minimum(r, g, loc), b, loc);
  Tensor zero = zeros_like(v);
  Tensor s = where(v > 0.0, range / v, zero, loc);
  Tensor norm = 1.0 / (range * 6.0);
  Tensor h = where(r == v, norm * (g - b),
                   where(g == v, norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0, loc), loc);
  h = where(range > 0.0, h, zero, loc);
  h = where(h < 0.0, h + 1.0, h, loc);
  return stack({h, s, v}, -1, loc);
}

Tensor hsv_to_rgb(const Tensor& images, Loc loc) {
  check_rgb(images, "hsv_to_rgb");
  auto c = channels(images, loc);
  const Tensor &h = c[0], &s = c[1], &v = c[2];
  Tensor dh = h * 6.0;
  Tensor dr = clip_by_value(abs(dh - 3.0, loc) - 1.0, 0.0, 1.0, loc);
  Tensor dg = clip_by_value(2.0 - abs(dh - 2.0, loc), 0.0, 1.0, loc);
  Tensor db = clip_by_value(2.0 - abs(dh - 4.0, loc), 0.0, 1.0, loc);
  Tensor one_s = 1.0 - s;
  return stack({(one_s + s * dr) * v, (one_s + s * dg) * v, (one_s + s * db) * v}, -1, loc);
}

Tensor adjust_saturation(const Tensor& image, double factor, Loc loc) {
  return internal::adjust_saturation_by(image, Tensor::scalar(factor), loc);
}

Tensor adjust_hue(const Tensor& image, double delta, Loc loc) {
  TFCC_CHECK_ARG(delta >= -1 && delta <= 1, "adjust_hue: delta must be in [-1, 1], got ", delta);
  return internal::adjust_hue_by(image, Tensor::scalar(delta), loc);
}

Tensor rgb_to_grayscale(const Tensor& images, Loc loc) {
  check_rgb(images, "rgb_to_grayscale");
  Tensor x = to_float(images, loc);
  std::vector<int64_t> dims = x.partial_shape().dims();
  Tensor w =
      cast(Tensor::from_vector<float>({0.2989f, 0.5870f, 0.1140f}, Shape{3, 1}), x.dtype(), loc);
  Tensor flat = reshape(x, {-1, 3}, loc);
  dims.back() = 1;
  for (auto& d : dims) d = d < 0 ? -1 : d;
  Tensor gray = reshape(matmul(flat, w, false, false, loc), dims, loc);
  return convert_image_dtype(gray, images.dtype(), false, loc);
}

Tensor grayscale_to_rgb(const Tensor& images, Loc loc) {
  const PartialShape s = images.partial_shape();
  TFCC_CHECK_ARG(s.rank() >= 1 && s.dims().back() == 1,
                 "grayscale_to_rgb: images must have 1 channel in the last dimension, got shape ",
                 s.to_string());
  std::vector<int64_t> multiples(size_t(s.rank()), 1);
  multiples.back() = 3;
  return tile(images, multiples, loc);
}

Tensor per_image_standardization(const Tensor& image, Loc loc) {
  const int rank = internal::image_rank(image, "per_image_standardization");
  Tensor x = internal::is_float(image.dtype()) ? image : cast(image, float32, loc);
  const auto d = x.partial_shape().dims();
  TFCC_CHECK_ARG(d[rank - 1] >= 0 && d[rank - 2] >= 0 && d[rank - 3] >= 0,
                 "per_image_standardization: the image size must be known, got ",
                 x.partial_shape().to_string());
  const double pixels = double(d[rank - 1]) * double(d[rank - 2]) * double(d[rank - 3]);
  Tensor mean = reduce_mean(x, {-1, -2, -3}, true, loc);
  Tensor stddev = reduce_std(x, {-1, -2, -3}, true, loc);
  Tensor min_stddev = rsqrt(cast(Tensor::scalar(pixels), x.dtype(), loc), loc);
  return (x - mean) / maximum(stddev, min_stddev, loc);
}

}  // namespace tfcc::image
