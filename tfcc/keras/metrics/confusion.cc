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

// Keeps each row's k largest values (lower index first among ties, as tf.math.top_k) and sets
// the others to NEG_INF: k rounds of "take the row's argmax, then hide it", O(k * classes).
Tensor filter_top_k(const Tensor& x, int64_t k) {
  PartialShape s = x.partial_shape();
  int64_t c = s.dim(s.rank() - 1);
  TFCC_CHECK_ARG(c >= 0, "top_k needs a known last dimension, got ", s.to_string());
  TFCC_CHECK_ARG(k >= 1, "top_k must be >= 1, got ", k);
  if (k >= c) return x;
  Tensor remaining = x;
  Tensor keep = zeros_like(x, bool_);
  for (int64_t i = 0; i < k; ++i) {
    Tensor picked = cast(one_hot(argmax(remaining, -1), c), bool_);
    keep = logical_or(keep, picked);
    remaining = where(picked, -std::numeric_limits<double>::infinity(), remaining);
  }
  return where(keep, x, kNegInf);
}

// Eager check that predictions are probabilities (Keras asserts it with tf.debugging).
void check_probabilities(const Tensor& p) {
  if (p.is_symbolic() || p.num_elements() == 0) return;
  TFCC_CHECK_ARG(reduce_min(p).item<double>() >= 0, "predictions must be >= 0");
  TFCC_CHECK_ARG(reduce_max(p).item<double>() <= 1, "predictions must be <= 1");
}

std::vector<double> precision_recall_thresholds(const PrecisionRecallOptions& o) {
  if (!o.thresholds.empty()) {
    for (double t : o.thresholds) {
      TFCC_CHECK_ARG(t >= 0 && t <= 1, "Threshold values must be in [0, 1]. Received: ", t);
    }
    return o.thresholds;
  }
  return {o.top_k ? kNegInf : 0.5};
}

Tensor first_or_all(const Tensor& v, size_t n) { return n == 1 ? v(0) : v; }

}  // namespace

void update_confusion_matrix_variables(const ConfusionVariables& vars, const Tensor& y_true,
                                       const Tensor& y_pred, const std::vector<double>& thresholds,
                                       std::optional<int64_t> top_k,
                                       std::optional<int64_t> class_id,
                                       const Tensor& sample_weight) {
  Tensor t = cast(y_true, float32), p = cast(y_pred, float32);
  check_probabilities(p);
  losses::squeeze_or_expand_dimensions(p, t);
  TFCC_CHECK_ARG(p.partial_shape().is_compatible_with(t.partial_shape()), "Shapes ",
                 y_true.partial_shape().to_string(), " (labels) and ",
                 y_pred.partial_shape().to_string(), " (predictions) are incompatible");
  Tensor w;
  // Weights broadcast to the predictions' shape first, so a per-sample weight [B] (or [B, 1])
  // follows the class column that class_id selects.
  if (sample_weight.defined()) {
    w = multiply(losses::match_weight_rank(p, cast(sample_weight, float32)), ones_like(p));
  }
  if (top_k) p = filter_top_k(p, *top_k);
  if (class_id) {
    t = t(ellipsis, *class_id);
    p = p(ellipsis, *class_id);
    if (w.defined()) w = w(ellipsis, *class_id);
  }
  auto n = static_cast<int64_t>(thresholds.size());
  Tensor thresh = reshape(
      Tensor::from_vector(std::vector<float>(thresholds.begin(), thresholds.end())), {n, 1});
  Tensor preds = reshape(p, {1, -1});
  Tensor pred_pos = greater(preds, thresh);  // [T, M]
  Tensor pred_neg = logical_not(pred_pos);
  Tensor label_pos = reshape(cast(t, bool_), {1, -1});
  Tensor label_neg = logical_not(label_pos);
  Tensor weights;
  if (w.defined()) weights = reshape(multiply(w, ones_like(p)), {1, -1});
  auto add = [&](const Variable& var, const Tensor& label, const Tensor& pred) {
    if (!var.defined()) return;
    Tensor both = cast(logical_and(label, pred), float32);
    if (weights.defined()) both = multiply(both, weights);
    Tensor counts = reduce_sum(both, 1);
    var.assign_add(counts.dtype() == var.dtype() ? counts : cast(counts, var.dtype()));
  };
  add(vars.true_positives, label_pos, pred_pos);
  add(vars.false_negatives, label_pos, pred_neg);
  add(vars.false_positives, label_neg, pred_pos);
  add(vars.true_negatives, label_neg, pred_neg);
}

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
      options_.thresholds, options_.top_k, options_.class_id, sample_weight);
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
      options_.thresholds, options_.top_k, options_.class_id, sample_weight);
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
  update_confusion_matrix_variables(
      {true_positives_, true_negatives_, false_positives_, false_negatives_}, y_true, p,
      thresholds_, std::nullopt, std::nullopt, sample_weight);
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
