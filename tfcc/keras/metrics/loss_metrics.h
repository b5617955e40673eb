// Metrics that are the (weighted) mean of a per-sample loss function, with Keras 3's names:
// the cross-entropies, KL divergence, Poisson, the hinges, MSLE, MAPE, log-cosh, cosine
// similarity and the root mean squared error.
//
//   namespace metrics = tfcc::keras::metrics;
//   model.compile({.optimizer = "adam", .loss = "mse",
//                  .metrics = {std::make_shared<metrics::RootMeanSquaredError>(),
//                              std::make_shared<metrics::CosineSimilarity>()}});
//   metrics::BinaryCrossentropy bce({.from_logits = true});
//   bce.update_state(labels, logits, weights);  // bce.result(): the weighted mean
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>
#include <string>

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// Options of the cross-entropy metrics.
struct CrossentropyOptions {
  std::optional<std::string> name;  ///< default: the Keras name ("binary_crossentropy", ...)
  DType dtype = float32;
  bool from_logits = false;
  double label_smoothing = 0;  ///< binary and categorical only
  int64_t axis = -1;
};

/// tf.keras.metrics.BinaryCrossentropy ("binary_crossentropy").
class BinaryCrossentropy : public MeanMetricWrapper {
 public:
  explicit BinaryCrossentropy(CrossentropyOptions options = {});
};
/// tf.keras.metrics.CategoricalCrossentropy ("categorical_crossentropy").
class CategoricalCrossentropy : public MeanMetricWrapper {
 public:
  explicit CategoricalCrossentropy(CrossentropyOptions options = {});
};
/// tf.keras.metrics.SparseCategoricalCrossentropy ("sparse_categorical_crossentropy").
class SparseCategoricalCrossentropy : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalCrossentropy(CrossentropyOptions options = {});
};
/// tf.keras.metrics.KLDivergence ("kl_divergence").
class KLDivergence : public MeanMetricWrapper {
 public:
  explicit KLDivergence(MetricOptions options = {});
};
/// tf.keras.metrics.Poisson ("poisson").
class Poisson : public MeanMetricWrapper {
 public:
  explicit Poisson(MetricOptions options = {});
};
/// tf.keras.metrics.Hinge ("hinge").
class Hinge : public MeanMetricWrapper {
 public:
  explicit Hinge(MetricOptions options = {});
};
/// tf.keras.metrics.SquaredHinge ("squared_hinge").
class SquaredHinge : public MeanMetricWrapper {
 public:
  explicit SquaredHinge(MetricOptions options = {});
};
/// tf.keras.metrics.CategoricalHinge ("categorical_hinge").
class CategoricalHinge : public MeanMetricWrapper {
 public:
  explicit CategoricalHinge(MetricOptions options = {});
};
/// tf.keras.metrics.MeanSquaredLogarithmicError ("mean_squared_logarithmic_error").
class MeanSquaredLogarithmicError : public MeanMetricWrapper {
 public:
  explicit MeanSquaredLogarithmicError(MetricOptions options = {});
};
/// tf.keras.metrics.MeanAbsolutePercentageError ("mean_absolute_percentage_error").
class MeanAbsolutePercentageError : public MeanMetricWrapper {
 public:
  explicit MeanAbsolutePercentageError(MetricOptions options = {});
};
/// tf.keras.metrics.LogCoshError ("logcosh").
class LogCoshError : public MeanMetricWrapper {
 public:
  explicit LogCoshError(MetricOptions options = {});
};

/// Options of CosineSimilarity.
struct CosineSimilarityOptions {
  std::optional<std::string> name;  ///< default "cosine_similarity"
  DType dtype = float32;
  int64_t axis = -1;
};
/// tf.keras.metrics.CosineSimilarity: the mean of +cos(angle) (the loss is its negative).
class CosineSimilarity : public MeanMetricWrapper {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
};

/// tf.keras.metrics.RootMeanSquaredError ("root_mean_squared_error"): sqrt of the weighted mean
/// of every squared error element.
class RootMeanSquaredError : public Mean {
 public:
  explicit RootMeanSquaredError(MetricOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;
  /// update_state, then result().
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = {}) {
    return Metric::operator()(y_true, y_pred, sample_weight);
  }
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
