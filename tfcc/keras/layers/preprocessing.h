// Preprocessing layers used inside models: Rescaling and Normalization (without adapt: from
// given statistics, or from weights a Keras file or set_weights supplies).
//
//   layers::Rescaling(1.0 / 127.5, {.offset = -1.0});          // [0, 255] -> [-1, 1]
//   layers::Normalization({.mean = {{1.0, 2.0}}, .variance = {{4.0, 0.25}}});
//   layers::Normalization({.axis = {3}});   // weights mean, variance (zeros, ones) and count
//   layers::Normalization n;  n.adapt(data);  // statistics of data (a tensor or a Dataset)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <vector>

#include "tfcc/data/dataset.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Rescaling.
struct RescalingOptions {
  double offset = 0.0;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// y = cast(x, dtype) * scale + offset.
class Rescaling : public Layer {
  TFCC_KERAS_LAYER(Rescaling)
  TFCC_KERAS_CONFIG(Rescaling)
 public:
  using Options = RescalingOptions;
  explicit Rescaling(double scale, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double scale_;
  Options options_;
};

/// Options of Normalization.
struct NormalizationOptions {
  /// The axes that keep their own mean and variance (the others are normalised together);
  /// empty: one mean and variance for everything (Keras' axis=None).
  std::vector<int64_t> axis = {-1};
  /// Given statistics: one value, or one per element of the kept axes. Without them the layer
  /// has the non-trainable weights mean (zeros), variance (ones) and count (int64), as Keras.
  std::optional<std::vector<double>> mean, variance;
  /// y = mean + x * sqrt(variance) instead (undoes a normalisation).
  bool invert = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// y = (x - mean) / max(sqrt(variance), 1e-7), statistics broadcast along `axis`.
class Normalization : public Layer {
  TFCC_KERAS_LAYER(Normalization)
  TFCC_KERAS_CONFIG(Normalization)
 public:
  using Options = NormalizationOptions;
  explicit Normalization(Options options = {});

  /// Sets the weights mean, variance (population) and count from all of `data` (per kept axis).
  /// FailedPreconditionError for a layer made with given statistics.
  void adapt(const Tensor& data);
  /// The same over every element's first component (batches).
  void adapt(const data::Dataset& data);

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
  std::vector<int64_t> broadcast_shape_;  // rank of the input; 1 except at the kept axes
  Tensor mean_, variance_;                // given statistics, in broadcast_shape_
  Variable mean_var_, variance_var_, count_;
  void adapt_batches(const std::vector<Tensor>& batches);
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
