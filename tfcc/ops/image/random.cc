// tf.image's random augmentations: stateful (tfcc::random, seeds as TensorFlow's) and stateless
// (a (seed0, seed1) pair). Each draws its random numbers as TensorFlow's Python code does
// (a scalar, or one number per image for the flips) and applies the deterministic op.
#include "tfcc/ops/random/random.h"

#include <limits>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/image/image_internal.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::image {
namespace {

// Uniform numbers of `shape` in [lo, hi): stateful (seed) or stateless (pair).
struct Draw {
  std::optional<int64_t> seed;
  std::optional<Seed> pair;
  Tensor operator()(std::vector<int64_t> shape, double lo, double hi, DType dtype, Loc loc) const {
    if (pair) return random::stateless_uniform(std::move(shape), *pair, lo, hi, dtype, loc);
    return random::uniform(std::move(shape), lo, hi, dtype, seed, loc);
  }
};

// Flips each image along `axis_from_end` (2: width, 3: height) where a uniform draw is < 0.5.
Tensor random_flip(const Tensor& image, int axis_from_end, const Draw& draw, Loc loc) {
  const int rank = internal::image_rank(image, "random_flip");
  const int axis = rank - axis_from_end;
  if (rank == 3)
    return where(draw({}, 0, 1, float32, loc) < 0.5, reverse(image, {axis}, loc), image, loc);
  const int64_t batch = image.partial_shape().dims()[0];
  TFCC_CHECK_ARG(batch >= 0, "random_flip: the batch size must be known");
  Tensor u = draw({batch}, 0, 1, float32, loc);
  Tensor flip = reshape(u < 0.5, {batch, 1, 1, 1}, loc);
  return where(flip, reverse(image, {axis}, loc), image, loc);
}

Tensor random_crop_impl(const Tensor& value, const std::vector<int64_t>& size, const Draw& draw,
                        Loc loc) {
  const std::vector<int64_t> dims = value.shape().dims();
  TFCC_CHECK_ARG(size.size() == dims.size(), "random_crop: size has ", size.size(),
                 " dimensions, the value ", dims.size());
  std::vector<int64_t> begin(dims.size());
  Tensor r =
      draw({int64_t(dims.size())}, 0, double(std::numeric_limits<int32_t>::max()), int32, loc);
  std::vector<int32_t> raw = r.to_vector<int32_t>();
  for (size_t i = 0; i < dims.size(); ++i) {
    TFCC_CHECK_ARG(size[i] >= 0 && size[i] <= dims[i], "random_crop: size ", size[i],
                   " exceeds the value's dimension ", i, " of ", dims[i]);
    begin[i] = int64_t(raw[i]) % (dims[i] - size[i] + 1);
  }
  return slice(value, begin, size, loc);
}

}  // namespace

Tensor random_flip_left_right(const Tensor& image, std::optional<int64_t> seed, Loc loc) {
  return random_flip(image, 2, {seed, {}}, loc);
}
Tensor random_flip_up_down(const Tensor& image, std::optional<int64_t> seed, Loc loc) {
  return random_flip(image, 3, {seed, {}}, loc);
}
Tensor random_brightness(const Tensor& image, double max_delta, std::optional<int64_t> seed,
                         Loc loc) {
  TFCC_CHECK_ARG(max_delta >= 0, "random_brightness: max_delta must be >= 0, got ", max_delta);
  return internal::adjust_brightness_by(
      image, (random::uniform({}, -max_delta, max_delta, float32, seed, loc)), loc);
}
Tensor random_contrast(const Tensor& image, double lower, double upper, std::optional<int64_t> seed,
                       Loc loc) {
  TFCC_CHECK_ARG(0 <= lower && lower < upper, "random_contrast: need 0 <= lower < upper, got ",
                 lower, ", ", upper);
  return internal::adjust_contrast_by(image,
                                      (random::uniform({}, lower, upper, float32, seed, loc)), loc);
}
Tensor random_saturation(const Tensor& image, double lower, double upper,
                         std::optional<int64_t> seed, Loc loc) {
  TFCC_CHECK_ARG(0 <= lower && lower < upper, "random_saturation: need 0 <= lower < upper, got ",
                 lower, ", ", upper);
  return internal::adjust_saturation_by(
      image, (random::uniform({}, lower, upper, float32, seed, loc)), loc);
}
Tensor random_hue(const Tensor& image, double max_delta, std::optional<int64_t> seed, Loc loc) {
  TFCC_CHECK_ARG(max_delta >= 0 && max_delta <= 0.5,
                 "random_hue: max_delta must be in [0, 0.5], "
                 "got ",
                 max_delta);
  return internal::adjust_hue_by(
      image, (random::uniform({}, -max_delta, max_delta, float32, seed, loc)), loc);
}
Tensor random_crop(const Tensor& value, const std::vector<int64_t>& size,
                   std::optional<int64_t> seed, Loc loc) {
  return random_crop_impl(value, size, {seed, {}}, loc);
}

Tensor stateless_random_flip_left_right(const Tensor& image, Seed seed, Loc loc) {
  return random_flip(image, 2, {{}, seed}, loc);
}
Tensor stateless_random_flip_up_down(const Tensor& image, Seed seed, Loc loc) {
  return random_flip(image, 3, {{}, seed}, loc);
}
Tensor stateless_random_brightness(const Tensor& image, double max_delta, Seed seed, Loc loc) {
  TFCC_CHECK_ARG(max_delta >= 0, "stateless_random_brightness: max_delta must be >= 0, got ",
                 max_delta);
  return internal::adjust_brightness_by(
      image, (random::stateless_uniform({}, seed, -max_delta, max_delta, float32, loc)), loc);
}
Tensor stateless_random_contrast(const Tensor& image, double lower, double upper, Seed seed,
                                 Loc loc) {
  TFCC_CHECK_ARG(0 <= lower && lower < upper,
                 "stateless_random_contrast: need 0 <= lower < upper, got ", lower, ", ", upper);
  return internal::adjust_contrast_by(
      image, (random::stateless_uniform({}, seed, lower, upper, float32, loc)), loc);
}
Tensor stateless_random_saturation(const Tensor& image, double lower, double upper, Seed seed,
                                   Loc loc) {
  TFCC_CHECK_ARG(0 <= lower && lower < upper,
                 "stateless_random_saturation: need 0 <= lower < upper, got ", lower, ", ", upper);
  return internal::adjust_saturation_by(
      image, (random::stateless_uniform({}, seed, lower, upper, float32, loc)), loc);
}
Tensor stateless_random_hue(const Tensor& image, double max_delta, Seed seed, Loc loc) {
  TFCC_CHECK_ARG(max_delta >= 0 && max_delta <= 0.5,
                 "stateless_random_hue: max_delta must be in [0, 0.5], got ", max_delta);
  return internal::adjust_hue_by(
      image, (random::stateless_uniform({}, seed, -max_delta, max_delta, float32, loc)), loc);
}
Tensor stateless_random_crop(const Tensor& value, const std::vector<int64_t>& size, Seed seed,
                             Loc loc) {
  return random_crop_impl(value, size, {{}, seed}, loc);
}

}  // namespace tfcc::image
