// Confusion-matrix metrics (keras/metrics/confusion_metrics.py, keras/utils/metrics_utils.py).
#include "tfcc/keras/metrics/confusion.h"

#include <algorithm>
#include <limits>

#include "tfcc/keras/losses/loss.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {
namespace {

constexpr double kNegInf = -1e10;  // metrics_utils.NEG_INF
constexpr double kEpsilon = 1e-7;

std::vector<double> precision_recall_thresholds(const PrecisionRecallOptions& o) {
  if (!o.thresholds.empty()) {
    for (double t : o.thresholds) {
      TFCC_CHECK_ARG(t >= 0 && t <= 1, "Threshold values must be in [0, 1]. Received: ", t);
    }
    return o.thresholds;
  }
  return {o.top_k ? kNegInf : 0.5};
}

// Keras 3: no probability assertion; evenly spaced thresholds counted by bucket.
ConfusionUpdateOptions keras3_update(const PrecisionRecallOptions& o) {
  return {.top_k = o.top_k,
          .class_id = o.class_id,
          .thresholds_distributed_evenly = is_evenly_distributed_thresholds(o.thresholds),
          .check_probabilities = false};
}

Tensor first_or_all(const Tensor& v, size_t n) { return n == 1 ? v(0) : v; }

}  // namespace

Precision::Precision(PrecisionRecallOptions options)
    : Metric(options.name.value_or("precision"), options.dtype), options_(std::move(options)) {
  options_.thresholds = precision_recall_thresholds(options_);
  Shape s{static_cast<int64_t>(options_.thresholds.size())};
  true_positives_ = add_weight("true_positives", s);
  false_positives_ = add_weight("false_positives", s);
}

void Precision::update_state(const Tensor& y_true, const Tensor& y_pred,
                             const Tensor& sample_weight) {
  update_confusion_matrix_variables(
      {.true_positives = true_positives_, .false_positives = false_positives_}, y_true, y_pred,
      options_.thresholds, keras3_update(options_), sample_weight);
}

Tensor Precision::result() const {
  Tensor tp = true_positives_.read_value();
  Tensor r = losses::divide_no_nan(tp, add(tp, false_positives_.read_value()));
  return first_or_all(r, options_.thresholds.size());
}

Recall::Recall(PrecisionRecallOptions options)
    : Metric(options.name.value_or("recall"), options.dtype), options_(std::move(options)) {
  options_.thresholds = precision_recall_thresholds(options_);
  Shape s{static_cast<int64_t>(options_.thresholds.size())};
  true_positives_ = add_weight("true_positives", s);
  false_negatives_ = add_weight("false_negatives", s);
}

void Recall::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  update_confusion_matrix_variables(
      {.true_positives = true_positives_, .false_negatives = false_negatives_}, y_true, y_pred,
      options_.thresholds, keras3_update(options_), sample_weight);
}

Tensor Recall::result() const {
  Tensor tp = true_positives_.read_value();
  Tensor r = losses::divide_no_nan(tp, add(tp, false_negatives_.read_value()));
  return first_or_all(r, options_.thresholds.size());
}

AUC::AUC(AUCOptions options)
    : Metric(options.name.value_or("auc"), options.dtype), options_(std::move(options)) {
  if (!options_.thresholds.empty()) {
    for (double t : options_.thresholds) {
      TFCC_CHECK_ARG(t >= 0 && t <= 1, "Threshold values must be in [0, 1]. Received: ", t);
    }
    thresholds_ = options_.thresholds;
    std::sort(thresholds_.begin(), thresholds_.end());
  } else {
    TFCC_CHECK_ARG(options_.num_thresholds > 1,
                   "Argument `num_thresholds` must be an integer > 1. Received: "
                   "num_thresholds=",
                   options_.num_thresholds);
    int64_t n = options_.num_thresholds;
    for (int64_t i = 0; i < n - 2; ++i) {
      thresholds_.push_back(static_cast<double>(i + 1) / static_cast<double>(n - 1));
    }
  }
  thresholds_.insert(thresholds_.begin(), 0.0 - kEpsilon);
  thresholds_.push_back(1.0 + kEpsilon);
  options_.num_thresholds = static_cast<int64_t>(thresholds_.size());
  Shape s{options_.num_thresholds};
  true_positives_ = add_weight("true_positives", s);
  true_negatives_ = add_weight("true_negatives", s);
  false_positives_ = add_weight("false_positives", s);
  false_negatives_ = add_weight("false_negatives", s);
}

void AUC::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  Tensor p = options_.from_logits ? sigmoid(y_pred) : y_pred;
  // Keras 3: thresholds i / (n - 1) (between the -epsilon and 1 + epsilon ends) are counted by
  // bucket; predictions are not checked against [0, 1].
  std::vector<double> inner(thresholds_.begin() + 1, thresholds_.end() - 1);
  inner.insert(inner.begin(), 0.0);
  inner.push_back(1.0);
  bool evenly = options_.thresholds.empty() || is_evenly_distributed_thresholds(inner);
  update_confusion_matrix_variables(
      {true_positives_, true_negatives_, false_positives_, false_negatives_}, y_true, p,
      thresholds_, {.thresholds_distributed_evenly = evenly, .check_probabilities = false},
      sample_weight);
}

Tensor AUC::interpolate_pr_auc() const {
  // Davis & Goadrich (2006): precision interpolated linearly in the positive count between
  // neighbouring thresholds.
  int64_t n = options_.num_thresholds;
  Tensor tp = true_positives_.read_value(), fp = false_positives_.read_value();
  Tensor fn = false_negatives_.read_value();
  auto head = [n](const Tensor& v) { return slice(v, {0}, {n - 1}); };
  auto tail = [n](const Tensor& v) { return slice(v, {1}, {n - 1}); };
  Tensor dtp = subtract(head(tp), tail(tp));
  Tensor pos = add(tp, fp);
  Tensor dp = subtract(head(pos), tail(pos));
  Tensor prec_slope = losses::divide_no_nan(dtp, maximum(dp, 0));
  Tensor intercept = subtract(tail(tp), multiply(prec_slope, tail(pos)));
  Tensor both_pos = logical_and(greater(head(pos), 0), greater(tail(pos), 0));
  Tensor safe_p_ratio = where(both_pos, losses::divide_no_nan(head(pos), maximum(tail(pos), 0)), 1);
  Tensor increment =
      losses::divide_no_nan(multiply(prec_slope, add(dtp, multiply(intercept, log(safe_p_ratio)))),
                            maximum(add(tail(tp), tail(fn)), 0));
  return reduce_sum(increment);
}

Tensor AUC::result() const {
  if (options_.curve == AUCCurve::kPR &&
      options_.summation_method == AUCSummation::kInterpolation) {
    return interpolate_pr_auc();
  }
  int64_t n = options_.num_thresholds;
  Tensor tp = true_positives_.read_value(), fn = false_negatives_.read_value();
  Tensor fp = false_positives_.read_value(), tn = true_negatives_.read_value();
  Tensor recall = losses::divide_no_nan(tp, add(tp, fn));
  Tensor x, y;
  if (options_.curve == AUCCurve::kROC) {
    x = losses::divide_no_nan(fp, add(fp, tn));
    y = recall;
  } else {
    x = recall;
    y = losses::divide_no_nan(tp, add(tp, fp));
  }
  Tensor y_head = slice(y, {0}, {n - 1}), y_tail = slice(y, {1}, {n - 1});
  Tensor heights;
  switch (options_.summation_method) {
    case AUCSummation::kInterpolation:
      heights = divide(add(y_head, y_tail), 2);
      break;
    case AUCSummation::kMinoring:
      heights = minimum(y_head, y_tail);
      break;
    case AUCSummation::kMajoring:
      heights = maximum(y_head, y_tail);
      break;
  }
  Tensor widths = subtract(slice(x, {0}, {n - 1}), slice(x, {1}, {n - 1}));
  return reduce_sum(multiply(widths, heights));
}

}  // namespace tfcc::keras::metrics
