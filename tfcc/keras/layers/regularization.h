// Regularization layers, active only in training (inference returns the inputs): SpatialDropout1D
// and SpatialDropout2D (whole channels dropped), GaussianNoise (additive), GaussianDropout
// (multiplicative noise of mean 1), AlphaDropout (keeps a SELU network's mean and variance), and
// ActivityRegularization (adds an L1/L2 penalty of its inputs to the losses, in every mode).
//
//   layers::SpatialDropout1D(0.2);           // (b, steps, c): a channel dropped for all steps
//   layers::GaussianNoise(0.1, {.seed = 3}); // x + N(0, 0.1^2) while training
//   layers::ActivityRegularization({.l1 = 1e-3});
//
// The noise needs the input's shape fully known (in a trace: a known batch), as Dropout does.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of the spatial dropout layers.
struct SpatialDropoutOptions {
  std::optional<int64_t> seed;
  std::string data_format = "channels_last";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Dropout of whole channels of (b, steps, c): the noise shape is (b, 1, c).
class SpatialDropout1D : public Layer {
  TFCC_KERAS_LAYER(SpatialDropout1D)
  TFCC_KERAS_CONFIG(SpatialDropout1D)
 public:
  using Options = SpatialDropoutOptions;
  explicit SpatialDropout1D(double rate, Options options = {});
  /// Keras' keys: rate, seed and name (no trainable, no dtype).
  Config get_config() const override;

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double rate_;
  Options options_;
};

/// Dropout of whole channels of (b, h, w, c): the noise shape is (b, 1, 1, c).
class SpatialDropout2D : public Layer {
  TFCC_KERAS_LAYER(SpatialDropout2D)
  TFCC_KERAS_CONFIG(SpatialDropout2D)
 public:
  using Options = SpatialDropoutOptions;
  explicit SpatialDropout2D(double rate, Options options = {});
  /// Keras' keys: rate, seed, name and data_format (no trainable, no dtype).
  Config get_config() const override;

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double rate_;
  Options options_;
};

/// Options of the noise layers.
struct NoiseOptions {
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// x + N(0, stddev^2) noise while training.
class GaussianNoise : public Layer {
  TFCC_KERAS_LAYER(GaussianNoise)
  TFCC_KERAS_CONFIG(GaussianNoise)
 public:
  using Options = NoiseOptions;
  explicit GaussianNoise(double stddev, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double stddev_;
  Options options_;
};

/// x * N(1, rate / (1 - rate)) noise while training.
class GaussianDropout : public Layer {
  TFCC_KERAS_LAYER(GaussianDropout)
  TFCC_KERAS_CONFIG(GaussianDropout)
 public:
  using Options = NoiseOptions;
  explicit GaussianDropout(double rate, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double rate_;
  Options options_;
};

/// Options of AlphaDropout.
struct AlphaDropoutOptions {
  std::optional<int64_t> seed;
  std::vector<int64_t> noise_shape;  ///< empty: the input's shape; -1: the input's size there
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// While training, dropped elements are set to SELU's negative saturation value and the result
/// affinely corrected so that mean and variance are kept (Klambauer et al., 2017).
class AlphaDropout : public Layer {
  TFCC_KERAS_LAYER(AlphaDropout)
  TFCC_KERAS_CONFIG(AlphaDropout)
 public:
  using Options = AlphaDropoutOptions;
  explicit AlphaDropout(double rate, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double rate_;
  Options options_;
};

/// Options of ActivityRegularization.
struct ActivityRegularizationOptions {
  double l1 = 0.0;
  double l2 = 0.0;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The identity, adding l1 * sum(|x|) + l2 * sum(x^2) to the layer's losses on each call.
class ActivityRegularization : public Layer {
  TFCC_KERAS_LAYER(ActivityRegularization)
  TFCC_KERAS_CONFIG(ActivityRegularization)
 public:
  using Options = ActivityRegularizationOptions;
  explicit ActivityRegularization(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
