#include "tfcc/keras/layers/image_preprocessing.h"

#include <algorithm>
#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/utils/smart_resize.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {
namespace {

void check_channels_last(const std::string& data_format, const char* layer) {
  TFCC_CHECK_ARG(data_format == "channels_last", layer,
                 ": only data_format=\"channels_last\" is supported, got \"", data_format, "\"");
}

// (height, width) of an image or batch, known statically.
std::pair<int64_t, int64_t> height_width(const Tensor& x, const char* layer) {
  const PartialShape s = x.partial_shape();
  TFCC_CHECK_ARG(s.rank() == 3 || s.rank() == 4, layer,
                 ": inputs must be (height, width, channels) or (batch, height, width, channels), "
                 "got shape ",
                 s.to_string());
  const int64_t h = s.dims()[size_t(s.rank() - 3)], w = s.dims()[size_t(s.rank() - 2)];
  TFCC_CHECK_ARG(h > 0 && w > 0, layer, ": the inputs' height and width must be known, got shape ",
                 s.to_string());
  return {h, w};
}

// A tuple of numbers, as Keras writes (0, 0.2): integral values without a decimal point. Reads a
// number or a list of numbers.
struct NumberTuple {
  static std::string repr(const std::vector<double>& v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s += ", ";
      const bool integral = std::floor(v[i]) == v[i] && std::abs(v[i]) < 1e15;
      s += integral ? config::repr(static_cast<int64_t>(v[i])) : config::repr(v[i]);
    }
    return s + (v.size() == 1 ? ",)" : ")");
  }
  static void read(const saving::Json& v, std::vector<double>& out, std::string_view what) {
    if (v.is_null()) return;
    if (v.type() != saving::Json::Type::kArray) {
      out = {v.as_number(what)};
      return;
    }
    out.clear();
    for (const saving::Json& e : v.items(what)) out.push_back(e.as_number(what));
  }
};

// A float result back to the integer dtype `d`: rounded and clipped to its range.
Tensor saturate_cast(const Tensor& x, DType d) {
  if (x.dtype() == d) return x;
  Tensor r = x;
  if (is_integer(d)) {
    const double hi = d == uint8 ? 255.0 : d == int32 ? 2147483647.0 : 9.2233720368547758e18;
    const double lo = d == uint8 ? 0.0 : d == int32 ? -2147483648.0 : -9.2233720368547758e18;
    r = clip_by_value(round(x), lo, hi);
  }
  return cast(r, d);
}

// A uniform draw of `shape` for a layer (seeded like Keras' per-layer seed).
Tensor draw(std::vector<int64_t> shape, double lo, double hi, const std::optional<int64_t>& seed) {
  return random::uniform(std::move(shape), lo, hi, float32, seed);
}

// One draw per image of a batch (shape (batch, 1, 1, 1)), or one for an image or a batch whose
// size is not known in a trace.
Tensor per_image(const Tensor& x, double lo, double hi, const std::optional<int64_t>& seed) {
  const PartialShape s = x.partial_shape();
  if (s.rank() == 4 && s.dims()[0] >= 0) return draw({s.dims()[0], 1, 1, 1}, lo, hi, seed);
  return draw({}, lo, hi, seed);
}

}  // namespace

Resizing::Resizing(int64_t height, int64_t width, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "resizing"),
      height_(height),
      width_(width),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, "Resizing");
  TFCC_CHECK_ARG(height_ > 0 && width_ > 0, "Resizing: height and width must be positive, got ",
                 height_, ", ", width_);
  TFCC_CHECK_ARG(!options_.pad_to_aspect_ratio,
                 "Resizing: pad_to_aspect_ratio is not supported by tfcc");
  image::resize_method(options_.interpolation);
}

Tensor Resizing::call(const Tensor& x, bool) {
  Tensor y = options_.crop_to_aspect_ratio
                 ? utils::smart_resize(x, {height_, width_}, options_.interpolation)
                 : image::resize(x, {height_, width_},
                                 {.method = image::resize_method(options_.interpolation),
                                  .antialias = options_.antialias});
  return saturate_cast(y, x.dtype());
}

const config::LayerSchema& Resizing::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Resizing>(&Resizing::options_)
          .option("data_format", &Options::data_format)
          .arg("height", &Resizing::height_)
          .arg("width", &Resizing::width_)
          .option("interpolation", &Options::interpolation)
          .option("crop_to_aspect_ratio", &Options::crop_to_aspect_ratio)
          .option("pad_to_aspect_ratio", &Options::pad_to_aspect_ratio)
          .option("fill_mode", &Options::fill_mode)
          .option("fill_value", &Options::fill_value)
          .option("antialias", &Options::antialias);
  return schema;
}

CenterCrop::CenterCrop(int64_t height, int64_t width, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "center_crop"),
      height_(height),
      width_(width),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, "CenterCrop");
  TFCC_CHECK_ARG(height_ > 0 && width_ > 0, "CenterCrop: height and width must be positive, got ",
                 height_, ", ", width_);
}

Tensor CenterCrop::call(const Tensor& inputs, bool) {
  Tensor x = cast(inputs, dtype());
  auto [h, w] = height_width(x, "CenterCrop");
  if (h < height_ || w < width_) return utils::smart_resize(x, {height_, width_});
  return image::crop_to_bounding_box(x, (h - height_) / 2, (w - width_) / 2, height_, width_);
}

const config::LayerSchema& CenterCrop::config_schema() {
  static const config::LayerSchema schema = config::schema<CenterCrop>(&CenterCrop::options_)
                                                .option("data_format", &Options::data_format)
                                                .arg("height", &CenterCrop::height_)
                                                .arg("width", &CenterCrop::width_);
  return schema;
}

RandomFlip::RandomFlip(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "random_flip"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, "RandomFlip");
  TFCC_CHECK_ARG(options_.mode == "horizontal" || options_.mode == "vertical" ||
                     options_.mode == "horizontal_and_vertical",
                 "RandomFlip: mode must be \"horizontal\", \"vertical\" or "
                 "\"horizontal_and_vertical\", got \"",
                 options_.mode, "\"");
}

Tensor RandomFlip::call(const Tensor& inputs, bool training) {
  Tensor x = cast(inputs, dtype());
  if (!training) return x;
  height_width(x, "RandomFlip");
  const int rank = x.partial_shape().rank();
  Tensor flips = per_image(x, 0, 1, options_.seed) <= 0.5;
  Tensor y = x;
  if (options_.mode != "vertical") y = where(flips, reverse(y, {rank - 2}), y);
  if (options_.mode != "horizontal") y = where(flips, reverse(y, {rank - 3}), y);
  return y;
}

const config::LayerSchema& RandomFlip::config_schema() {
  static const config::LayerSchema schema = config::schema<RandomFlip>(&RandomFlip::options_)
                                                .option("data_format", &Options::data_format)
                                                .option("seed", &Options::seed)
                                                .option("mode", &Options::mode);
  return schema;
}

RandomContrast::RandomContrast(std::vector<double> factor, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "random_contrast"),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, "RandomContrast");
  TFCC_CHECK_ARG(factor.size() == 1 || factor.size() == 2,
                 "RandomContrast: factor must be a number or a list of two numbers");
  if (factor.size() == 1) {
    TFCC_CHECK_ARG(factor[0] >= 0 && factor[0] <= 1,
                   "RandomContrast: the `factor` argument should be in the range [0, 1]. "
                   "Received: factor=",
                   factor[0]);
    factor_ = {0.0, std::abs(factor[0])};  // Keras 3: lower = max(-f, 0), upper = f
  } else {
    TFCC_CHECK_ARG(factor[0] <= 1 && factor[1] >= 0,
                   "RandomContrast: the `factor` argument should be in the range [0, 1]");
    factor_ = {std::min(factor[0], factor[1]), std::max(factor[0], factor[1])};
  }
  TFCC_CHECK_ARG(options_.value_range.size() == 2,
                 "RandomContrast: value_range must have 2 values");
}

Tensor RandomContrast::call(const Tensor& inputs, bool training) {
  if (!training) return inputs;
  Tensor x = cast(inputs, dtype());
  height_width(x, "RandomContrast");
  Tensor f = per_image(x, 1.0 - factor_[0], 1.0 + factor_[1], options_.seed);
  Tensor mean = reduce_mean(reduce_mean(x, {-3}, true), {-2}, true);
  Tensor y = (x - mean) * f + mean;
  return clip_by_value(y, options_.value_range[0], options_.value_range[1]);
}

const config::LayerSchema& RandomContrast::config_schema() {
  static const config::LayerSchema schema =
      config::schema<RandomContrast>(&RandomContrast::options_)
          .option("data_format", &Options::data_format)
          .arg<NumberTuple>("factor", &RandomContrast::factor_)
          .option<NumberTuple>("value_range", &Options::value_range)
          .option("seed", &Options::seed);
  return schema;
}

RandomCrop::RandomCrop(int64_t height, int64_t width, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "random_crop"),
      height_(height),
      width_(width),
      options_(std::move(options)) {
  check_channels_last(options_.data_format, "RandomCrop");
  TFCC_CHECK_ARG(height_ > 0 && width_ > 0, "RandomCrop: height and width must be positive, got ",
                 height_, ", ", width_);
}

Tensor RandomCrop::call(const Tensor& inputs, bool training) {
  if (!training) return inputs;
  Tensor x = cast(inputs, dtype());
  auto [h, w] = height_width(x, "RandomCrop");
  if (h > height_ && w > width_) {
    // One offset for the whole batch, drawn as Keras draws it; slicing needs it as a number.
    const auto top =
        static_cast<int64_t>(draw({}, 0, double(h - height_ + 1), options_.seed).item<float>());
    const auto left =
        static_cast<int64_t>(draw({}, 0, double(w - width_ + 1), options_.seed).item<float>());
    return image::crop_to_bounding_box(x, std::min(top, h - height_), std::min(left, w - width_),
                                       height_, width_);
  }
  return utils::smart_resize(x, {height_, width_});
}

const config::LayerSchema& RandomCrop::config_schema() {
  static const config::LayerSchema schema = config::schema<RandomCrop>(&RandomCrop::options_)
                                                .option("data_format", &Options::data_format)
                                                .arg("height", &RandomCrop::height_)
                                                .arg("width", &RandomCrop::width_)
                                                .option("seed", &Options::seed);
  return schema;
}

}  // namespace tfcc::keras::layers
