// The weighted confusion-matrix counts at thresholds (Keras 3's TruePositives, TrueNegatives,
// FalsePositives, FalseNegatives): a prediction counts as positive when it is > the threshold.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::TruePositives tp;                          // threshold 0.5: result() a scalar
//   metrics::FalseNegatives fn({.thresholds = {0.3, 0.7}});  // result() [2]
//   tp.update_state(labels, probabilities, weights);
//   tp.result();                                        // sum of the weights of true positives
//
// Predictions are not checked against [0, 1] (Keras 3 does not). Evenly spaced thresholds
// (i / (n - 1), n >= 3) are counted by bucket as Keras 3 does.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/confusion.h"
#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// Options of the four count metrics.
struct ConfusionCountOptions {
  /// Thresholds in [0, 1]; empty: Keras' default, the single threshold 0.5.
  std::vector<double> thresholds;
  std::optional<std::string> name;  ///< default: "true_positives", "false_negatives", ...
  DType dtype = float32;
};

/// Which count a ConfusionCount metric accumulates.
enum class ConfusionCondition { kTruePositives, kTrueNegatives, kFalsePositives, kFalseNegatives };

/// keras.metrics' _ConfusionMatrixConditionCount: one count per threshold in the state variable
/// "accumulator"; result() is a scalar for one threshold, else a vector.
class ConfusionCount : public Metric {
 public:
  ConfusionCount(ConfusionCondition condition, ConfusionCountOptions options);
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;
  std::string class_name() const override;
  /// {"name", "dtype", "thresholds"} (thresholds None when the default was used).
  saving::Json get_config() const override;
  /// The thresholds in use.
  const std::vector<double>& thresholds() const { return thresholds_; }

 private:
  ConfusionCondition condition_;
  ConfusionCountOptions options_;
  std::vector<double> thresholds_;
  bool evenly_ = false;
  Variable accumulator_;
};

/// tf.keras.metrics.TruePositives ("true_positives").
class TruePositives : public ConfusionCount {
 public:
  explicit TruePositives(ConfusionCountOptions options = {})
      : ConfusionCount(ConfusionCondition::kTruePositives, std::move(options)) {}
};
/// tf.keras.metrics.TrueNegatives ("true_negatives").
class TrueNegatives : public ConfusionCount {
 public:
  explicit TrueNegatives(ConfusionCountOptions options = {})
      : ConfusionCount(ConfusionCondition::kTrueNegatives, std::move(options)) {}
};
/// tf.keras.metrics.FalsePositives ("false_positives").
class FalsePositives : public ConfusionCount {
 public:
  explicit FalsePositives(ConfusionCountOptions options = {})
      : ConfusionCount(ConfusionCondition::kFalsePositives, std::move(options)) {}
};
/// tf.keras.metrics.FalseNegatives ("false_negatives").
class FalseNegatives : public ConfusionCount {
 public:
  explicit FalseNegatives(ConfusionCountOptions options = {})
      : ConfusionCount(ConfusionCondition::kFalseNegatives, std::move(options)) {}
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
