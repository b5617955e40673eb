#include "tfcc/keras/layers/regularization.h"

#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/random/random.h"

namespace tfcc::keras::layers {
namespace {

void check_rate(double rate, const char* layer) {
  TFCC_CHECK_ARG(std::isfinite(rate) && rate >= 0 && rate <= 1,
                 "Invalid value received for argument `rate` of ", layer,
                 ". Expected a float value between 0 and 1. Received: rate=", rate);
}

// x's shape, which the noise needs fully known.
std::vector<int64_t> noise_dims(const Tensor& x, const std::string& layer) {
  const PartialShape s = x.partial_shape();
  TFCC_CHECK_ARG(s.rank_known(), "Layer '", layer, "' needs inputs of known rank");
  if (!s.is_fully_defined()) {
    throw UnimplementedError(internal::str_cat(
        "Layer '", layer, "' draws its training noise for a fully known input shape, got ",
        s.to_string(), " (trace with a known batch size)"));
  }
  return s.dims();
}

// Keras' spatial dropout: a whole channel kept or dropped, for rate in [0, 1].
Tensor spatial_dropout(const Tensor& x, double rate, std::optional<int64_t> seed, int64_t rank,
                       const std::string& layer) {
  TFCC_CHECK_ARG(x.rank() == rank, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=", rank,
                 ", found ndim=", x.rank(),
                 ". Full shape received: ", x.partial_shape().to_string());
  if (rate == 0) return x;
  if (rate == 1) return zeros_like(x);
  std::vector<int64_t> noise(rank, 1);
  noise[0] = -1;
  noise[rank - 1] = -1;
  return nn::dropout(x, rate, seed, noise);
}

// Keras' keys of the spatial dropout layers: `trainable` and `dtype` are not among them (the
// layers have no weights).
Config without_trainable(Config c) {
  std::erase_if(c, [](const auto& kv) { return kv.first == "trainable" || kv.first == "dtype"; });
  return c;
}

}  // namespace

SpatialDropout1D::SpatialDropout1D(double rate, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "spatial_dropout1d"),
      rate_(rate),
      options_(std::move(options)) {
  check_rate(rate_, "SpatialDropout1D");
}

Config SpatialDropout1D::get_config() const { return without_trainable(Layer::get_config()); }

Tensor SpatialDropout1D::call(const Tensor& x, bool training) {
  if (!training) return x;
  return spatial_dropout(x, rate_, options_.seed, 3, name());
}

SpatialDropout2D::SpatialDropout2D(double rate, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "spatial_dropout2d"),
      rate_(rate),
      options_(std::move(options)) {
  check_rate(rate_, "SpatialDropout2D");
  TFCC_CHECK_ARG(options_.data_format == "channels_last", "Layer '", name(),
                 "': only data_format='channels_last' is supported");
}

Config SpatialDropout2D::get_config() const { return without_trainable(Layer::get_config()); }

Tensor SpatialDropout2D::call(const Tensor& x, bool training) {
  if (!training) return x;
  return spatial_dropout(x, rate_, options_.seed, 4, name());
}

GaussianNoise::GaussianNoise(double stddev, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "gaussian_noise"),
      stddev_(stddev),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(std::isfinite(stddev_) && stddev_ >= 0,
                 "Invalid value received for argument `stddev`. Expected a float value greater "
                 "than or equal to 0. Received: stddev=",
                 stddev_);
}

Tensor GaussianNoise::call(const Tensor& x, bool training) {
  if (!training || stddev_ == 0) return x;
  return add(x, random::normal(noise_dims(x, name()), 0.0, stddev_, x.dtype(), options_.seed));
}

GaussianDropout::GaussianDropout(double rate, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "gaussian_dropout"),
      rate_(rate),
      options_(std::move(options)) {
  check_rate(rate_, "GaussianDropout");
}

Tensor GaussianDropout::call(const Tensor& x, bool training) {
  if (!training || rate_ == 0) return x;
  TFCC_CHECK_ARG(rate_ < 1, "GaussianDropout '", name(),
                 "': rate 1 means noise of infinite variance; use a rate below 1");
  const double stddev = std::sqrt(rate_ / (1.0 - rate_));
  return multiply(x, random::normal(noise_dims(x, name()), 1.0, stddev, x.dtype(), options_.seed));
}

AlphaDropout::AlphaDropout(double rate, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "alpha_dropout"),
      rate_(rate),
      options_(std::move(options)) {
  check_rate(rate_, "AlphaDropout");
}

Tensor AlphaDropout::call(const Tensor& x, bool training) {
  if (!training || rate_ == 0) return x;
  if (rate_ == 1) return zeros_like(x);  // Keras' a * x + b with every element dropped
  std::vector<int64_t> shape = noise_dims(x, name());
  if (!options_.noise_shape.empty()) {
    TFCC_CHECK_ARG(options_.noise_shape.size() == shape.size(), "AlphaDropout '", name(),
                   "': noise_shape ", keras::config::repr(options_.noise_shape),
                   " must have the rank of the inputs ", x.partial_shape().to_string());
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t n = options_.noise_shape[i];
      TFCC_CHECK_ARG(n == -1 || n == 1 || n == shape[i], "AlphaDropout '", name(),
                     "': noise_shape ", keras::config::repr(options_.noise_shape),
                     " must broadcast to the inputs ", x.partial_shape().to_string());
      if (n != -1) shape[i] = n;
    }
  }
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  const double alpha_p = -kAlpha * kScale;
  Tensor kept =
      cast(greater_equal(random::uniform(shape, 0, 1, x.dtype(), options_.seed), rate_), x.dtype());
  const double a = 1.0 / std::sqrt((1 - rate_) * (1 + rate_ * alpha_p * alpha_p));
  const double b = -a * alpha_p * rate_;
  // x * kept + alpha_p * (1 - kept), then a * . + b
  Tensor y = add(multiply(x, kept), multiply(subtract(1.0, kept), alpha_p));
  return add(multiply(y, a), b);
}

ActivityRegularization::ActivityRegularization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, float32,
             regularizers::L1L2(options.l1, options.l2)},
            "activity_regularization"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(std::isfinite(options_.l1) && std::isfinite(options_.l2) && options_.l1 >= 0 &&
                     options_.l2 >= 0,
                 "ActivityRegularization: l1 and l2 must be finite and >= 0, got l1=", options_.l1,
                 ", l2=", options_.l2);
}

Tensor ActivityRegularization::call(const Tensor& x, bool) { return x; }

const config::LayerSchema& SpatialDropout1D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<SpatialDropout1D>(&SpatialDropout1D::options_)
          .arg("rate", &SpatialDropout1D::rate_)
          .option("seed", &Options::seed);
  return schema;
}

const config::LayerSchema& SpatialDropout2D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<SpatialDropout2D>(&SpatialDropout2D::options_)
          .arg("rate", &SpatialDropout2D::rate_)
          .option("seed", &Options::seed)
          .option("data_format", &Options::data_format);
  return schema;
}

const config::LayerSchema& GaussianNoise::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<GaussianNoise>(&GaussianNoise::options_)
          .arg("stddev", &GaussianNoise::stddev_)
          .option("seed", &Options::seed);
  return schema;
}

const config::LayerSchema& GaussianDropout::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<GaussianDropout>(&GaussianDropout::options_)
          .arg("rate", &GaussianDropout::rate_)
          .option("seed", &Options::seed);
  return schema;
}

const config::LayerSchema& AlphaDropout::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<AlphaDropout>(&AlphaDropout::options_)
          .arg("rate", &AlphaDropout::rate_)
          .option("seed", &Options::seed)
          .option<keras::config::NoneIfEmpty>("noise_shape", &Options::noise_shape);
  return schema;
}

const config::LayerSchema& ActivityRegularization::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<ActivityRegularization>(&ActivityRegularization::options_)
          .option("l1", &Options::l1)
          .option("l2", &Options::l2);
  return schema;
}

}  // namespace tfcc::keras::layers
