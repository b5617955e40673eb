// Metrics over confusion-matrix counts at thresholds: Precision, Recall and AUC, as Keras 3
// defines them (counts accumulate in Variables; predictions are meant as probabilities in [0, 1]
// but, as in Keras 3, not checked; evenly spaced thresholds are counted by bucket).
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::Precision precision;                  // threshold 0.5
//   metrics::AUC auc;                              // 200 thresholds, ROC, interpolation
//   metrics::AUC pr_auc({.curve = metrics::AUCCurve::kPR, .from_logits = true});
//   auc.update_state(labels, probabilities);
//   auc.result();
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// Options of Precision and Recall.
struct PrecisionRecallOptions {
  /// Prediction thresholds (a prediction counts as positive when > threshold); default 0.5, or
  /// none (-inf) when top_k is set. Several thresholds make result() a vector.
  std::vector<double> thresholds;
  /// Only the k highest predictions of each sample count as positive.
  std::optional<int64_t> top_k;
  /// Only this class (last-axis index) is evaluated.
  std::optional<int64_t> class_id;
  std::optional<std::string> name;  ///< default "precision" / "recall"
  DType dtype = float32;
};

/// tf.keras.metrics.Precision: tp / (tp + fp).
class Precision : public Metric {
 public:
  explicit Precision(PrecisionRecallOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;

 private:
  PrecisionRecallOptions options_;
  Variable true_positives_, false_positives_;
};

/// tf.keras.metrics.Recall: tp / (tp + fn).
class Recall : public Metric {
 public:
  explicit Recall(PrecisionRecallOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;

 private:
  PrecisionRecallOptions options_;
  Variable true_positives_, false_negatives_;
};

/// The curve an AUC integrates.
enum class AUCCurve { kROC, kPR };
/// How the Riemann sum picks heights.
enum class AUCSummation { kInterpolation, kMinoring, kMajoring };

/// Options of AUC.
struct AUCOptions {
  int64_t num_thresholds = 200;
  AUCCurve curve = AUCCurve::kROC;
  AUCSummation summation_method = AUCSummation::kInterpolation;
  std::optional<std::string> name;  ///< default "auc"
  DType dtype = float32;
  /// Explicit thresholds in (0, 1); replaces the num_thresholds evenly spaced ones.
  std::vector<double> thresholds;
  /// Apply a sigmoid to the predictions first.
  bool from_logits = false;
};

/// tf.keras.metrics.AUC: thresholds 0 - 1e-7, i / (n - 1) for i = 1 .. n - 2, and 1 + 1e-7; the
/// area by trapezoids (ROC) or by Davis & Goadrich's interpolation (PR).
class AUC : public Metric {
 public:
  explicit AUC(AUCOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  Tensor result() const override;
  /// The thresholds in use, ascending.
  const std::vector<double>& thresholds() const { return thresholds_; }

 private:
  Tensor interpolate_pr_auc() const;

  AUCOptions options_;
  std::vector<double> thresholds_;
  Variable true_positives_, true_negatives_, false_positives_, false_negatives_;
};

/// The four confusion-matrix variables a confusion update may add to (undefined: skipped).
struct ConfusionVariables {
  Variable true_positives, true_negatives, false_positives, false_negatives;
};

/// How update_confusion_matrix_variables selects and counts predictions.
struct ConfusionUpdateOptions {
  std::optional<int64_t> top_k;     ///< only each row's k highest predictions can be positive
  std::optional<int64_t> class_id;  ///< only this class (last-axis index) counts
  /// The thresholds are i / (n - 1) (metrics_utils.is_evenly_distributed_thresholds, possibly
  /// with AUC's -epsilon / 1 + epsilon ends): Keras 3 then counts by bucket, ceil(p (n - 1)) - 1
  /// of the predictions clipped to [0, 1], and cumulative sums.
  bool thresholds_distributed_evenly = false;
  /// Throw InvalidArgumentError on predictions outside [0, 1] (tf.keras 2 asserted it; Keras 3's
  /// TruePositives, SensitivityAtSpecificity, ... do not check).
  bool check_probabilities = true;
};

/// keras.utils.metrics_utils.update_confusion_matrix_variables: adds the weighted counts of each
/// outcome at each threshold to the given variables (each of shape [thresholds.size()]), in the
/// variables' dtype.
void update_confusion_matrix_variables(const ConfusionVariables& vars, const Tensor& y_true,
                                       const Tensor& y_pred, const std::vector<double>& thresholds,
                                       const ConfusionUpdateOptions& options,
                                       const Tensor& sample_weight);
/// The same with tf.keras 2's arguments (probabilities checked, thresholds compared one by one).
void update_confusion_matrix_variables(const ConfusionVariables& vars, const Tensor& y_true,
                                       const Tensor& y_pred, const std::vector<double>& thresholds,
                                       std::optional<int64_t> top_k,
                                       std::optional<int64_t> class_id,
                                       const Tensor& sample_weight);

/// metrics_utils.is_evenly_distributed_thresholds: at least 3 thresholds, each within 1e-7
/// (numpy allclose) of i / (n - 1).
bool is_evenly_distributed_thresholds(const std::vector<double>& thresholds);

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
