// tf.image: resizing, cropping, flipping and color adjustments of images, as compositions of
// tfcc ops (they trace inside tfcc::function and differentiate where the ops they use do).
//
//   Tensor img = tfcc::io::decode_png(tfcc::io::read_file("cat.png"));    // uint8 (h, w, 3)
//   Tensor small = tfcc::image::resize(img, {64, 64});                     // float32 bilinear
//   Tensor aa = tfcc::image::resize(img, {64, 64}, {.method = tfcc::image::ResizeMethod::kLanczos3,
//                                                   .antialias = true});
//   Tensor f = tfcc::image::flip_left_right(tfcc::image::convert_image_dtype(img, float32));
//   Tensor j = tfcc::image::stateless_random_brightness(f, 0.2, {1, 2});
//
// Images are (height, width, channels) or batches (batch, height, width, channels); the
// functions keep the rank they are given. Results equal TensorFlow 2.21's within 1e-5
// (relative); resize uses TF 2's half-pixel centres. The random_* functions draw from
// tfcc::random (stateful, seeds as TensorFlow's), the stateless_random_* ones from a
// (seed0, seed1) pair: the same seed gives the same result.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <optional>
#include <source_location>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc::image {

using Loc = std::source_location;

/// tf.image.ResizeMethod.
enum class ResizeMethod {
  kBilinear,
  kNearest,
  kBicubic,
  kArea,
  kLanczos3,
  kLanczos5,
  kGaussian,
  kMitchellCubic
};
/// "bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
/// "mitchellcubic" (InvalidArgumentError otherwise).
ResizeMethod resize_method(const std::string& name);

/// Options of tf.image.resize.
struct ResizeOptions {
  ResizeMethod method = ResizeMethod::kBilinear;
  /// Scale to fit inside `size` keeping the height:width ratio (rounded as TensorFlow does).
  bool preserve_aspect_ratio = false;
  /// Low-pass filter when downsampling (bilinear, bicubic and the lanczos/gaussian/mitchell
  /// kernels; ignored for nearest and area, as in TensorFlow).
  bool antialias = false;
};

/// tf.image.resize to size = {height, width}. float32 result (float64 stays float64), except
/// kNearest, which keeps the input dtype. Differentiable in `images` (every method). The
/// input's height and width must be known (statically, inside a trace).
Tensor resize(const Tensor& images, std::array<int64_t, 2> size, const ResizeOptions& options = {},
              Loc loc = Loc::current());

/// tf.image.crop_to_bounding_box.
Tensor crop_to_bounding_box(const Tensor& image, int64_t offset_height, int64_t offset_width,
                            int64_t target_height, int64_t target_width, Loc loc = Loc::current());
/// tf.image.pad_to_bounding_box (zeros).
Tensor pad_to_bounding_box(const Tensor& image, int64_t offset_height, int64_t offset_width,
                           int64_t target_height, int64_t target_width, Loc loc = Loc::current());
/// tf.image.resize_with_crop_or_pad: centre crop and/or zero pad to the target size.
Tensor resize_with_crop_or_pad(const Tensor& image, int64_t target_height, int64_t target_width,
                               Loc loc = Loc::current());
/// tf.image.central_crop: the central `central_fraction` (in (0, 1]) of height and width.
Tensor central_crop(const Tensor& image, double central_fraction, Loc loc = Loc::current());

/// tf.image.flip_left_right (reverses the width axis).
Tensor flip_left_right(const Tensor& image, Loc loc = Loc::current());
/// tf.image.flip_up_down (reverses the height axis).
Tensor flip_up_down(const Tensor& image, Loc loc = Loc::current());
/// tf.image.rot90: `k` quarter turns counter-clockwise.
Tensor rot90(const Tensor& image, int64_t k = 1, Loc loc = Loc::current());
/// tf.image.transpose: swaps height and width.
Tensor transpose(const Tensor& image, Loc loc = Loc::current());

/// tf.image.convert_image_dtype: integers scale to [0, 1] floats and back (uint8 255 <-> 1.0),
/// floats cast; `saturate` clips before a float -> integer cast.
Tensor convert_image_dtype(const Tensor& image, DType dtype, bool saturate = false,
                           Loc loc = Loc::current());

/// tf.image.adjust_brightness: adds `delta` (in [0, 1] units for integer images).
Tensor adjust_brightness(const Tensor& image, double delta, Loc loc = Loc::current());
/// tf.image.adjust_contrast: (x - mean) * factor + mean, per image and channel.
Tensor adjust_contrast(const Tensor& images, double contrast_factor, Loc loc = Loc::current());
/// tf.image.adjust_gamma: gain * x ^ gamma (gamma >= 0).
Tensor adjust_gamma(const Tensor& image, double gamma = 1, double gain = 1,
                    Loc loc = Loc::current());
/// tf.image.adjust_saturation: HSV saturation times `factor`, clipped to [0, 1]. RGB images.
Tensor adjust_saturation(const Tensor& image, double saturation_factor, Loc loc = Loc::current());
/// tf.image.adjust_hue: HSV hue plus `delta` (in [-1, 1], a fraction of the full turn). RGB.
Tensor adjust_hue(const Tensor& image, double delta, Loc loc = Loc::current());

/// tf.image.rgb_to_grayscale: (..., 3) -> (..., 1) with TensorFlow's weights.
Tensor rgb_to_grayscale(const Tensor& images, Loc loc = Loc::current());
/// tf.image.grayscale_to_rgb: (..., 1) -> (..., 3).
Tensor grayscale_to_rgb(const Tensor& images, Loc loc = Loc::current());
/// tf.image.rgb_to_hsv on float images in [0, 1].
Tensor rgb_to_hsv(const Tensor& images, Loc loc = Loc::current());
/// tf.image.hsv_to_rgb on float images in [0, 1].
Tensor hsv_to_rgb(const Tensor& images, Loc loc = Loc::current());
/// tf.image.per_image_standardization: zero mean, unit variance per image (float32 result).
Tensor per_image_standardization(const Tensor& image, Loc loc = Loc::current());

/// tf.image.random_flip_left_right / up_down: each image flipped with probability 1/2.
Tensor random_flip_left_right(const Tensor& image, std::optional<int64_t> seed = {},
                              Loc loc = Loc::current());
Tensor random_flip_up_down(const Tensor& image, std::optional<int64_t> seed = {},
                           Loc loc = Loc::current());
/// tf.image.random_brightness: delta uniform in [-max_delta, max_delta).
Tensor random_brightness(const Tensor& image, double max_delta, std::optional<int64_t> seed = {},
                         Loc loc = Loc::current());
/// tf.image.random_contrast: factor uniform in [lower, upper).
Tensor random_contrast(const Tensor& image, double lower, double upper,
                       std::optional<int64_t> seed = {}, Loc loc = Loc::current());
/// tf.image.random_saturation: factor uniform in [lower, upper).
Tensor random_saturation(const Tensor& image, double lower, double upper,
                         std::optional<int64_t> seed = {}, Loc loc = Loc::current());
/// tf.image.random_hue: delta uniform in [-max_delta, max_delta), max_delta in [0, 0.5].
Tensor random_hue(const Tensor& image, double max_delta, std::optional<int64_t> seed = {},
                  Loc loc = Loc::current());
/// tf.image.random_crop: a `size` slice at a uniformly drawn offset (size has the image's rank).
Tensor random_crop(const Tensor& value, const std::vector<int64_t>& size,
                   std::optional<int64_t> seed = {}, Loc loc = Loc::current());

using Seed = std::array<int64_t, 2>;
/// The stateless variants (tf.image.stateless_random_*): same seed, same result.
Tensor stateless_random_flip_left_right(const Tensor& image, Seed seed, Loc loc = Loc::current());
Tensor stateless_random_flip_up_down(const Tensor& image, Seed seed, Loc loc = Loc::current());
Tensor stateless_random_brightness(const Tensor& image, double max_delta, Seed seed,
                                   Loc loc = Loc::current());
Tensor stateless_random_contrast(const Tensor& image, double lower, double upper, Seed seed,
                                 Loc loc = Loc::current());
Tensor stateless_random_saturation(const Tensor& image, double lower, double upper, Seed seed,
                                   Loc loc = Loc::current());
Tensor stateless_random_hue(const Tensor& image, double max_delta, Seed seed,
                            Loc loc = Loc::current());
Tensor stateless_random_crop(const Tensor& value, const std::vector<int64_t>& size, Seed seed,
                             Loc loc = Loc::current());

}  // namespace tfcc::image
#pragma GCC visibility pop
