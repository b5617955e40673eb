// The coefficient of determination (Keras 3's R2Score): per output, 1 - sum w (y - p)^2 /
// sum w (y - mean_w(y))^2 from running sums, so batches combine exactly; optionally adjusted for
// the number of regressors.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::R2Score r2;                                    // "uniform_average" over outputs
//   r2.update_state(targets, predictions, weights);         // [batch, outputs], [batch]
//   r2.result();
//   metrics::R2Score per_output({.class_aggregation = metrics::R2Aggregation::kNone});
//
// An output whose targets are constant gives -inf or nan in Keras' formula; -inf/+inf scores
// become 0 as in Keras. The per-output variables are created by the first update_state, whose
// inputs must be 2-D (Keras' _build).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// How R2Score combines the outputs' scores (Keras' `class_aggregation`).
enum class R2Aggregation {
  kNone,                    ///< None: one score per output
  kUniformAverage,          ///< "uniform_average": their mean
  kVarianceWeightedAverage  ///< "variance_weighted_average": weighted by each output's variance
};

/// Options of R2Score.
struct R2ScoreOptions {
  R2Aggregation class_aggregation = R2Aggregation::kUniformAverage;
  /// p of the adjusted score 1 - (1 - r2) (n - 1) / (n - p - 1), n the number of values seen;
  /// 0 (or p >= n - 1) gives the plain score.
  int64_t num_regressors = 0;
  std::optional<std::string> name;  ///< default "r2_score"
  DType dtype = float32;
};

/// tf.keras.metrics.R2Score.
class R2Score : public Metric {
 public:
  explicit R2Score(R2ScoreOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  /// FailedPreconditionError before the first update_state (no per-output state yet).
  Tensor result() const override;
  std::string class_name() const override { return "R2Score"; }
  /// {"name", "dtype", "class_aggregation", "num_regressors"}.
  saving::Json get_config() const override;
  /// The options it was made with.
  const R2ScoreOptions& options() const { return options_; }

 private:
  R2ScoreOptions options_;
  Variable num_samples_, squared_sum_, sum_, total_mse_, count_;
};

/// The Keras string of an aggregation (None is null).
saving::Json r2_aggregation_to_json(R2Aggregation aggregation);
/// The aggregation a Keras string names; InvalidArgumentError for another value.
R2Aggregation r2_aggregation_from_json(const saving::Json& value);

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
