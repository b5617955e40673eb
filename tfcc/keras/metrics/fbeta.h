// F-scores (Keras 3's FBetaScore and F1Score): (1 + beta^2) precision recall /
// (beta^2 precision + recall) from per-class (or pooled, average "micro") counts of true
// positives, false positives and false negatives accumulated over batches.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::F1Score f1({.average = metrics::FScoreAverage::kMacro, .threshold = 0.5});
//   f1.update_state(one_hot_labels, probabilities, weights);   // [batch, classes], [batch]
//   f1.result();                                               // a scalar (kNone: per class)
//   metrics::FBetaScore f2({.beta = 2.0});
//
// Without a threshold, each row's maximal predictions (and only those with |p| > 1e-9) count
// as positive. The state variables are created by the first update_state, whose inputs must be
// [batch, classes] with a known class count (Keras' _build).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// How FBetaScore reduces the per-class scores (Keras' `average`).
enum class FScoreAverage {
  kNone,     ///< None: one score per class
  kMicro,    ///< "micro": counts pooled over classes
  kMacro,    ///< "macro": unweighted mean of the class scores
  kWeighted  ///< "weighted": mean weighted by each class's (weighted) number of true labels
};

/// Options of FBetaScore.
struct FBetaScoreOptions {
  FScoreAverage average = FScoreAverage::kNone;
  double beta = 1.0;                ///< > 0
  std::optional<double> threshold;  ///< in (0, 1]: predictions > threshold are positive
  std::optional<std::string> name;  ///< default "fbeta_score"
  DType dtype = float32;
};

/// tf.keras.metrics.FBetaScore.
class FBetaScore : public Metric {
 public:
  explicit FBetaScore(FBetaScoreOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  /// FailedPreconditionError before the first update_state (no state yet).
  Tensor result() const override;
  std::string class_name() const override { return "FBetaScore"; }
  /// {"name", "dtype", "average", "beta", "threshold"}.
  saving::Json get_config() const override;
  /// The options it was made with.
  const FBetaScoreOptions& options() const { return options_; }

 private:
  FBetaScoreOptions options_;
  Variable true_positives_, false_positives_, false_negatives_, intermediate_weights_;
};

/// Options of F1Score (FBetaScore with beta 1).
struct F1ScoreOptions {
  FScoreAverage average = FScoreAverage::kNone;
  std::optional<double> threshold;
  std::optional<std::string> name;  ///< default "f1_score"
  DType dtype = float32;
};

/// tf.keras.metrics.F1Score.
class F1Score : public FBetaScore {
 public:
  explicit F1Score(F1ScoreOptions options = {});
  std::string class_name() const override { return "F1Score"; }
  /// FBetaScore's config without "beta".
  saving::Json get_config() const override;
};

/// The Keras string of an average: None (null), "micro", "macro" or "weighted".
saving::Json fscore_average_to_json(FScoreAverage average);
/// The average a Keras string names; InvalidArgumentError for another value.
FScoreAverage fscore_average_from_json(const saving::Json& value);

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
