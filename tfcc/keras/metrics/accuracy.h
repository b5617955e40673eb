// Accuracy-style metrics: the per-sample match functions and the Mean-of-matches metric objects
// (tf.keras.metrics.Accuracy, SparseCategoricalAccuracy, ...), plus the MeanSquaredError metric.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::SparseCategoricalAccuracy acc({.name = "my_accuracy"});
//   acc.update_state(labels, logits);           // labels [batch], logits [batch, classes]
//   acc.result();                               // fraction of argmax(logits) == label
//   metrics::BinaryAccuracy bin({.threshold = 0.7});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

// ---- Per-sample functions (tf.keras.metrics.<name>). ----

/// 1.0 where y_true == y_pred element-wise (y_pred cast to y_true's dtype), else 0.
Tensor accuracy(const Tensor& y_true, const Tensor& y_pred);
/// mean over the last axis of (y_pred > threshold) == y_true.
Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, double threshold = 0.5);
/// argmax(y_true, -1) == argmax(y_pred, -1).
Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
/// y_true == argmax(y_pred, -1); labels may carry a trailing size-1 dimension.
Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);
/// 1.0 where the label is among the k highest scores (tf.math.in_top_k: ties count as in).
/// from_sorted_ids (Keras 3): y_pred holds class ids sorted by score, and a sample matches when
/// its label is among the first k of them.
Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5,
                                         bool from_sorted_ids = false);
/// sparse_top_k_categorical_accuracy with argmax(y_true, -1) as the label.
Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k = 5);

// ---- Metric objects. ----

/// tf.keras.metrics.Accuracy ("accuracy").
class Accuracy : public MeanMetricWrapper {
 public:
  explicit Accuracy(MetricOptions options = {});
};

/// Options of BinaryAccuracy.
struct BinaryAccuracyOptions {
  std::optional<std::string> name;  ///< default "binary_accuracy"
  DType dtype = float32;
  double threshold = 0.5;
};
/// tf.keras.metrics.BinaryAccuracy ("binary_accuracy").
class BinaryAccuracy : public MeanMetricWrapper {
 public:
  explicit BinaryAccuracy(BinaryAccuracyOptions options = {});
};

/// tf.keras.metrics.CategoricalAccuracy ("categorical_accuracy").
class CategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit CategoricalAccuracy(MetricOptions options = {});
};

/// tf.keras.metrics.SparseCategoricalAccuracy ("sparse_categorical_accuracy").
class SparseCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalAccuracy(MetricOptions options = {});
};

/// Options of the top-k metrics.
struct TopKOptions {
  int64_t k = 5;
  std::optional<std::string> name;  ///< default "(sparse_)top_k_categorical_accuracy"
  DType dtype = float32;
  /// SparseTopKCategoricalAccuracy only: predictions are class ids sorted by score (Keras 3).
  bool from_sorted_ids = false;
};
/// tf.keras.metrics.TopKCategoricalAccuracy ("top_k_categorical_accuracy").
class TopKCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit TopKCategoricalAccuracy(TopKOptions options = {});
};
/// tf.keras.metrics.SparseTopKCategoricalAccuracy ("sparse_top_k_categorical_accuracy").
class SparseTopKCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit SparseTopKCategoricalAccuracy(TopKOptions options = {});
  std::string class_name() const override { return "SparseTopKCategoricalAccuracy"; }
  /// {"name", "dtype", "k"}, and "from_sorted_ids": true when set (as Keras writes it).
  saving::Json get_config() const override;
  /// The options it was made with.
  const TopKOptions& options() const { return options_; }

 private:
  TopKOptions options_;
};

/// tf.keras.metrics.MeanSquaredError ("mean_squared_error"): mean of per-sample MSE.
class MeanSquaredError : public MeanMetricWrapper {
 public:
  explicit MeanSquaredError(MetricOptions options = {});
};

/// tf.keras.metrics.MeanAbsoluteError ("mean_absolute_error").
class MeanAbsoluteError : public MeanMetricWrapper {
 public:
  explicit MeanAbsoluteError(MetricOptions options = {});
};

/// What compile does with metrics=["accuracy"] (or "acc"): the first batch's shapes pick
/// binary (y_pred's last dimension is 1), sparse categorical (labels of lower rank, or a
/// trailing label dimension of 1 against several classes) or categorical accuracy, and the
/// metric keeps the name it was given.
class AutoAccuracy : public MeanMetricWrapper {
 public:
  explicit AutoAccuracy(std::string name = "accuracy");
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
