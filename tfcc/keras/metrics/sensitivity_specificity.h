// One rate at a constraint on another, over num_thresholds evenly spaced thresholds (Keras 3's
// SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision):
// the best value of the dependent rate among the thresholds where the constrained rate reaches
// the target (0 when none does).
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::PrecisionAtRecall p_at_r(0.8);                     // 200 thresholds
//   metrics::SensitivityAtSpecificity s(0.5, {.num_thresholds = 1, .class_id = 2});
//   p_at_r.update_state(labels, probabilities, weights);
//   p_at_r.result();
//
// The thresholds are 0, i / (n - 1) for i = 1 .. n - 2, and 1 (n > 1), or 0.5 (n = 1); the counts
// come from update_confusion_matrix_variables (by bucket for n > 1, as Keras 3).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/confusion.h"
#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// Options of the four metrics (after their positional target value).
struct SensitivitySpecificityOptions {
  int64_t num_thresholds = 200;     ///< > 0
  std::optional<int64_t> class_id;  ///< only this class (last-axis index) is evaluated
  std::optional<std::string> name;  ///< default: "precision_at_recall", ...
  DType dtype = float32;
};

/// Which rate is constrained and which is maximised.
enum class RateAtRate {
  kSensitivityAtSpecificity,
  kSpecificityAtSensitivity,
  kPrecisionAtRecall,
  kRecallAtPrecision
};

/// keras.metrics.SensitivitySpecificityBase: the four confusion counts per threshold.
class SensitivitySpecificityBase : public Metric {
 public:
  /// `value` in [0, 1] is the target of the constrained rate.
  SensitivitySpecificityBase(RateAtRate kind, double value, SensitivitySpecificityOptions options);
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;
  std::string class_name() const override;
  /// {"name", "dtype", "class_id", "num_thresholds", <target key>}.
  saving::Json get_config() const override;
  /// The thresholds in use.
  const std::vector<double>& thresholds() const { return thresholds_; }

 private:
  RateAtRate kind_;
  double value_;
  SensitivitySpecificityOptions options_;
  std::vector<double> thresholds_;
  Variable true_positives_, false_positives_, true_negatives_, false_negatives_;
};

/// tf.keras.metrics.SensitivityAtSpecificity: the best sensitivity with specificity >= target.
class SensitivityAtSpecificity : public SensitivitySpecificityBase {
 public:
  explicit SensitivityAtSpecificity(double specificity, SensitivitySpecificityOptions options = {})
      : SensitivitySpecificityBase(RateAtRate::kSensitivityAtSpecificity, specificity,
                                   std::move(options)) {}
};
/// tf.keras.metrics.SpecificityAtSensitivity: the best specificity with sensitivity >= target.
class SpecificityAtSensitivity : public SensitivitySpecificityBase {
 public:
  explicit SpecificityAtSensitivity(double sensitivity, SensitivitySpecificityOptions options = {})
      : SensitivitySpecificityBase(RateAtRate::kSpecificityAtSensitivity, sensitivity,
                                   std::move(options)) {}
};
/// tf.keras.metrics.PrecisionAtRecall: the best precision with recall >= target.
class PrecisionAtRecall : public SensitivitySpecificityBase {
 public:
  explicit PrecisionAtRecall(double recall, SensitivitySpecificityOptions options = {})
      : SensitivitySpecificityBase(RateAtRate::kPrecisionAtRecall, recall, std::move(options)) {}
};
/// tf.keras.metrics.RecallAtPrecision: the best recall with precision >= target.
class RecallAtPrecision : public SensitivitySpecificityBase {
 public:
  explicit RecallAtPrecision(double precision, SensitivitySpecificityOptions options = {})
      : SensitivitySpecificityBase(RateAtRate::kRecallAtPrecision, precision, std::move(options)) {}
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
