// update_confusion_matrix_variables (keras/utils/metrics_utils.py): the weighted counts of true /
// false positives / negatives at each threshold, one by one or by bucket for evenly spaced
// thresholds as Keras 3 does.
#include <cmath>
#include <limits>

#include "tfcc/keras/losses/loss.h"
#include "tfcc/keras/metrics/confusion.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/segment/segment.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {
namespace {

constexpr double kNegInf = -1e10;  // metrics_utils.NEG_INF

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

// Eager check that predictions are probabilities (tf.keras 2 asserts it with tf.debugging).
void check_probabilities(const Tensor& p) {
  if (p.is_symbolic() || p.num_elements() == 0) return;
  TFCC_CHECK_ARG(reduce_min(p).item<double>() >= 0, "predictions must be >= 0");
  TFCC_CHECK_ARG(reduce_max(p).item<double>() <= 1, "predictions must be <= 1");
}

void assign_add(const Variable& var, const Tensor& value) {
  if (var.defined())
    var.assign_add(value.dtype() == var.dtype() ? value : cast(value, var.dtype()));
}

// Keras 3's _update_confusion_matrix_variables_optimized (not multi-label): the prediction p
// falls in bucket ceil(p (n - 1)) - 1, i.e. above the thresholds 0 .. bucket; the counts above
// each threshold are the reversed cumulative sums of the buckets' weights.
void update_by_buckets(const ConfusionVariables& vars, const Tensor& t, const Tensor& p,
                       const Tensor& w, int64_t n, bool with_epsilon) {
  DType dt = p.dtype();
  Tensor labels = reshape(cast(cast(t, bool_), dt), {-1});
  Tensor preds = reshape(clip_by_value(p, 0.0, 1.0), {-1});
  Tensor weights = w.defined() ? reshape(w, {-1}) : ones_like(labels);
  Tensor true_labels = multiply(labels, weights);
  Tensor false_labels = multiply(subtract(1.0, labels), weights);
  Tensor bucket = subtract(ceil(multiply(preds, static_cast<double>(n - 1))), 1.0);
  if (with_epsilon) bucket = relu(bucket);  // every prediction is above -epsilon
  // A bucket of -1 (p == 0 exactly, no -epsilon threshold) is above no threshold: dropped.
  Tensor ids = cast(bucket, int64);
  Tensor tp = cumsum(unsorted_segment_sum(true_labels, ids, n), 0, false, true);
  Tensor fp = cumsum(unsorted_segment_sum(false_labels, ids, n), 0, false, true);
  assign_add(vars.true_positives, tp);
  assign_add(vars.false_positives, fp);
  if (vars.true_negatives.defined()) {
    assign_add(vars.true_negatives, subtract(reduce_sum(false_labels), fp));
  }
  if (vars.false_negatives.defined()) {
    assign_add(vars.false_negatives, subtract(reduce_sum(true_labels), tp));
  }
}

DType variables_dtype(const ConfusionVariables& v) {
  for (const Variable* var :
       {&v.true_positives, &v.true_negatives, &v.false_positives, &v.false_negatives}) {
    if (var->defined()) return var->dtype();
  }
  throw InvalidArgumentError(
      "update_confusion_matrix_variables: provide at least one confusion matrix variable");
}

}  // namespace

bool is_evenly_distributed_thresholds(const std::vector<double>& thresholds) {
  size_t n = thresholds.size();
  if (n < 3) return false;
  for (size_t i = 0; i < n; ++i) {
    // numpy.allclose(a, b, atol=1e-7): |a - b| <= atol + rtol |b| with rtol 1e-5, b in float32.
    double even = static_cast<float>(static_cast<float>(i) / static_cast<float>(n - 1));
    if (!(std::abs(thresholds[i] - even) <= 1e-7 + 1e-5 * std::abs(even))) return false;
  }
  return true;
}

void update_confusion_matrix_variables(const ConfusionVariables& vars, const Tensor& y_true,
                                       const Tensor& y_pred, const std::vector<double>& thresholds,
                                       const ConfusionUpdateOptions& options,
                                       const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(),
                 "update_confusion_matrix_variables needs both y_true and y_pred");
  TFCC_CHECK_ARG(!thresholds.empty(), "update_confusion_matrix_variables needs thresholds");
  DType dt = variables_dtype(vars);
  Tensor t = cast(y_true, dt), p = cast(y_pred, dt);
  if (options.check_probabilities) check_probabilities(p);
  losses::squeeze_or_expand_dimensions(p, t);
  TFCC_CHECK_ARG(p.partial_shape().is_compatible_with(t.partial_shape()), "Shapes ",
                 y_true.partial_shape().to_string(), " (labels) and ",
                 y_pred.partial_shape().to_string(), " (predictions) are incompatible");
  Tensor w;
  // Weights broadcast to the predictions' shape first, so a per-sample weight [B] (or [B, 1])
  // follows the class column that class_id selects.
  if (sample_weight.defined()) {
    w = multiply(losses::match_weight_rank(p, cast(sample_weight, dt)), ones_like(p));
  }
  if (options.top_k) p = filter_top_k(p, *options.top_k);
  if (options.class_id) {
    TFCC_CHECK_ARG(p.partial_shape().rank() >= 2,
                   "When class_id is provided, y_pred must be a 2D array with shape "
                   "(num_samples, num_classes), found shape: ",
                   p.partial_shape().to_string());
    int64_t classes = p.partial_shape().dim(-1);
    TFCC_CHECK_ARG(*options.class_id >= 0 && (classes < 0 || *options.class_id < classes),
                   "class_id ", *options.class_id, " is out of range for predictions of shape ",
                   p.partial_shape().to_string());
    t = t(ellipsis, *options.class_id);
    p = p(ellipsis, *options.class_id);
    if (w.defined()) w = w(ellipsis, *options.class_id);
  }
  auto n = static_cast<int64_t>(thresholds.size());
  if (options.thresholds_distributed_evenly) {
    update_by_buckets(vars, t, p, w, n, thresholds.front() < 0 || thresholds.back() > 1);
    return;
  }
  Tensor thresh = reshape(cast(Tensor::from_vector(thresholds), dt), {n, 1});
  Tensor preds = reshape(p, {1, -1});
  Tensor pred_pos = greater(preds, thresh);  // [T, M]
  Tensor pred_neg = logical_not(pred_pos);
  Tensor label_pos = reshape(cast(t, bool_), {1, -1});
  Tensor label_neg = logical_not(label_pos);
  Tensor weights;
  if (w.defined()) weights = reshape(multiply(w, ones_like(p)), {1, -1});
  auto add = [&](const Variable& var, const Tensor& label, const Tensor& pred) {
    if (!var.defined()) return;
    Tensor both = cast(logical_and(label, pred), dt);
    if (weights.defined()) both = multiply(both, weights);
    assign_add(var, reduce_sum(both, 1));
  };
  add(vars.true_positives, label_pos, pred_pos);
  add(vars.false_negatives, label_pos, pred_neg);
  add(vars.false_positives, label_neg, pred_pos);
  add(vars.true_negatives, label_neg, pred_neg);
}

void update_confusion_matrix_variables(const ConfusionVariables& vars, const Tensor& y_true,
                                       const Tensor& y_pred, const std::vector<double>& thresholds,
                                       std::optional<int64_t> top_k,
                                       std::optional<int64_t> class_id,
                                       const Tensor& sample_weight) {
  update_confusion_matrix_variables(vars, y_true, y_pred, thresholds,
                                    {.top_k = top_k, .class_id = class_id}, sample_weight);
}

}  // namespace tfcc::keras::metrics
