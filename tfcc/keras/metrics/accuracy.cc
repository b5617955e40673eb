// Keras' accuracy functions (keras/metrics/accuracy_metrics.py, keras/utils/metrics_utils.py).
#include "tfcc/keras/metrics/accuracy.h"

#include <algorithm>

#include "tfcc/keras/losses/losses.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {
namespace {

int rank_of(const Tensor& t) {
  PartialShape s = t.partial_shape();
  return s.rank_known() ? s.rank() : -1;
}

int64_t last_dim(const Tensor& t) {
  PartialShape s = t.partial_shape();
  return s.rank_known() && s.rank() > 0 ? s.dim(s.rank() - 1) : -1;
}

Tensor as_dtype(const Tensor& t, DType d) { return t.dtype() == d ? t : cast(t, d); }

// 1.0 / 0.0 as float32 (Keras' floatx()).
Tensor matches(const Tensor& cond) { return cast(cond, float32); }

}  // namespace

Tensor accuracy(const Tensor& y_true, const Tensor& y_pred) {
  TFCC_CHECK_ARG(y_true.partial_shape().is_compatible_with(y_pred.partial_shape()),
                 "accuracy: shapes ", y_true.partial_shape().to_string(), " and ",
                 y_pred.partial_shape().to_string(), " are incompatible");
  return matches(equal(y_true, as_dtype(y_pred, y_true.dtype())));
}

Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, double threshold) {
  Tensor p = cast(greater(y_pred, threshold), y_pred.dtype());
  return reduce_mean(matches(equal(as_dtype(y_true, p.dtype()), p)), -1);
}

Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  Tensor labels = y_true;
  bool reshape_back = false;
  if (rank_of(labels) >= 0 && rank_of(labels) == rank_of(y_pred)) {
    labels = squeeze(labels, {-1});
    reshape_back = true;
  }
  Tensor predicted = as_dtype(argmax(y_pred, -1), labels.dtype());
  Tensor m = matches(equal(labels, predicted));
  return reshape_back ? expand_dims(m, -1) : m;
}

Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  return sparse_categorical_accuracy(argmax(y_true, -1), y_pred);
}

namespace {

// Keras 3's from_sorted_ids: any of the first k ids equals the label.
Tensor label_in_first_k_ids(const Tensor& y_true, const Tensor& y_pred, int64_t k) {
  int rp = rank_of(y_pred);
  TFCC_CHECK_ARG(rp >= 1, "sparse_top_k_categorical_accuracy needs predictions of rank >= 1");
  TFCC_CHECK_ARG(k >= 1, "sparse_top_k_categorical_accuracy needs k >= 1, got ", k);
  int64_t ids = last_dim(y_pred);
  TFCC_CHECK_ARG(ids >= 0, "sparse_top_k_categorical_accuracy needs a known id count");
  Tensor sorted = rp == 2 ? y_pred : reshape(y_pred, {-1, ids});
  if (k < ids) sorted = slice(sorted, {0, 0}, {-1, k});
  Tensor labels = reshape(as_dtype(y_true, sorted.dtype()), {-1});
  Tensor m = matches(reduce_any(equal(expand_dims(labels, 1), sorted), {1}));
  return rank_of(y_true) > 1 ? reshape(m, y_true.partial_shape().dims()) : m;
}

}  // namespace

Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k,
                                         bool from_sorted_ids) {
  if (from_sorted_ids) return label_in_first_k_ids(y_true, y_pred, k);
  int rp = rank_of(y_pred);
  TFCC_CHECK_ARG(rp >= 1, "sparse_top_k_categorical_accuracy needs predictions of rank >= 1");
  int64_t classes = last_dim(y_pred);
  TFCC_CHECK_ARG(classes >= 0, "sparse_top_k_categorical_accuracy needs a known class count");
  Tensor scores = rp > 2 ? reshape(y_pred, {-1, classes}) : y_pred;
  if (rp == 1) scores = reshape(scores, {1, classes});
  Tensor labels = y_true;
  bool reshape_back = rank_of(labels) > 1;
  Tensor flat_labels = as_dtype(reshape(labels, {-1}), int64);
  // tf.math.in_top_k: the label's score is "in" when fewer than k scores beat it strictly;
  // an out-of-range label or a non-finite score is "out".
  Tensor in_range = logical_and(greater_equal(flat_labels, 0), less(flat_labels, classes));
  Tensor safe = where(in_range, flat_labels, 0);
  Tensor target = gather(scores, safe, 1, 1);
  Tensor beaten_by = reduce_sum(cast(greater(scores, expand_dims(target, -1)), int64), -1);
  Tensor in = logical_and(logical_and(in_range, is_finite(target)), less(beaten_by, k));
  Tensor m = matches(in);
  if (!reshape_back) return m;
  std::vector<int64_t> dims = labels.partial_shape().dims();
  TFCC_CHECK_ARG(std::count(dims.begin(), dims.end(), -1) <= 1,
                 "sparse_top_k_categorical_accuracy: labels of shape ",
                 labels.partial_shape().to_string(), " have more than one unknown dimension");
  return reshape(m, dims);
}

Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int64_t k) {
  return sparse_top_k_categorical_accuracy(argmax(y_true, -1), y_pred, k);
}

Accuracy::Accuracy(MetricOptions o)
    : MeanMetricWrapper(accuracy, o.name.value_or("accuracy"), o.dtype) {}

BinaryAccuracy::BinaryAccuracy(BinaryAccuracyOptions o)
    : MeanMetricWrapper(
          [t = o.threshold](const Tensor& y, const Tensor& p) { return binary_accuracy(y, p, t); },
          o.name.value_or("binary_accuracy"), o.dtype) {}

CategoricalAccuracy::CategoricalAccuracy(MetricOptions o)
    : MeanMetricWrapper(categorical_accuracy, o.name.value_or("categorical_accuracy"), o.dtype) {}

SparseCategoricalAccuracy::SparseCategoricalAccuracy(MetricOptions o)
    : MeanMetricWrapper(sparse_categorical_accuracy, o.name.value_or("sparse_categorical_accuracy"),
                        o.dtype) {}

TopKCategoricalAccuracy::TopKCategoricalAccuracy(TopKOptions o)
    : MeanMetricWrapper([k = o.k](const Tensor& y,
                                  const Tensor& p) { return top_k_categorical_accuracy(y, p, k); },
                        o.name.value_or("top_k_categorical_accuracy"), o.dtype) {}

SparseTopKCategoricalAccuracy::SparseTopKCategoricalAccuracy(TopKOptions o)
    : MeanMetricWrapper(
          [k = o.k, sorted = o.from_sorted_ids](const Tensor& y, const Tensor& p) {
            return sparse_top_k_categorical_accuracy(y, p, k, sorted);
          },
          o.name.value_or("sparse_top_k_categorical_accuracy"), o.dtype),
      options_(std::move(o)) {}

saving::Json SparseTopKCategoricalAccuracy::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("k", saving::Json(options_.k));
  if (options_.from_sorted_ids) c.set("from_sorted_ids", saving::Json(true));
  return c;
}

MeanSquaredError::MeanSquaredError(MetricOptions o)
    : MeanMetricWrapper(losses::mean_squared_error, o.name.value_or("mean_squared_error"),
                        o.dtype) {}

MeanAbsoluteError::MeanAbsoluteError(MetricOptions o)
    : MeanMetricWrapper(losses::mean_absolute_error, o.name.value_or("mean_absolute_error"),
                        o.dtype) {}

AutoAccuracy::AutoAccuracy(std::string name) : MeanMetricWrapper(nullptr, std::move(name)) {}

void AutoAccuracy::update_state(const Tensor& y_true, const Tensor& y_pred,
                                const Tensor& sample_weight) {
  if (!fn_) {
    // keras/engine/compile_utils.py MetricsContainer._get_metric_object.
    int rt = rank_of(y_true), rp = rank_of(y_pred);
    int64_t t_last = last_dim(y_true), p_last = last_dim(y_pred);
    if (p_last == 1) {
      fn_ = [](const Tensor& y, const Tensor& p) { return binary_accuracy(y, p); };
    } else if ((rt >= 0 && rp >= 0 && rt < rp) || (t_last == 1 && p_last > 1)) {
      fn_ = sparse_categorical_accuracy;
    } else {
      fn_ = categorical_accuracy;
    }
  }
  MeanMetricWrapper::update_state(y_true, y_pred, sample_weight);
}

}  // namespace tfcc::keras::metrics
