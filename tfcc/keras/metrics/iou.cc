// IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU (keras/metrics/iou_metrics.py).
#include "tfcc/keras/metrics/iou.h"

#include <algorithm>
#include <numeric>

#include "tfcc/keras/metrics/config_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/segment/segment.h"

namespace tfcc::keras::metrics {
namespace {

constexpr double kEpsilon = 1e-7;  // backend.epsilon()

std::vector<int64_t> all_classes(int64_t n) {
  TFCC_CHECK_ARG(n > 0, "IoU metrics need num_classes > 0, got ", n);
  std::vector<int64_t> ids(static_cast<size_t>(n));
  std::iota(ids.begin(), ids.end(), int64_t{0});
  return ids;
}

IoUOptions one_hot_options(OneHotIoUOptions o, const char* default_name) {
  return {.name = o.name.value_or(default_name),
          .dtype = o.dtype,
          .ignore_class = o.ignore_class,
          .sparse_y_true = false,
          .sparse_y_pred = o.sparse_y_pred,
          .axis = o.axis};
}

// Keras' MeanIoU / OneHot* / BinaryIoU configs start with their own keys, then name and dtype.
saving::Json head(int64_t num_classes) {
  saving::Json c = saving::Json::object();
  c.set("num_classes", saving::Json(num_classes));
  return c;
}
void set_name_dtype(const Metric& m, saving::Json& c) {
  c.set("name", saving::Json(m.name()));
  c.set("dtype", saving::Json(std::string(dtype_name(m.dtype()))));
}

Tensor flat(const Tensor& x) { return x.partial_shape().rank() == 1 ? x : reshape(x, {-1}); }

}  // namespace

IoU::IoU(int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options)
    : Metric(options.name.value_or("io_u"), options.dtype, IntegerStateAllowed{}),
      num_classes_(num_classes),
      target_class_ids_(std::move(target_class_ids)),
      options_(std::move(options)) {
  // The confusion matrix has num_classes^2 entries, indexed by label * num_classes + prediction.
  TFCC_CHECK_ARG(num_classes_ > 0 && num_classes_ <= 3037000499, "Metric '", name(),
                 "' needs 0 < num_classes <= 3037000499 (its square indexes the confusion "
                 "matrix), got ",
                 num_classes_);
  TFCC_CHECK_ARG(!target_class_ids_.empty(), "Metric '", name(),
                 "' needs at least one target class id");
  for (int64_t id : target_class_ids_) {
    TFCC_CHECK_ARG(id >= 0 && id < num_classes_, "Target class id ", id,
                   " is out of range, which is [0, ", num_classes_, ").");
  }
  total_cm_ = add_weight("total_confusion_matrix", Shape{num_classes_, num_classes_});
}

void IoU::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(), "Metric '", name(),
                 "' needs both y_true and y_pred");
  Tensor t = options_.sparse_y_true ? y_true : argmax(y_true, options_.axis);
  Tensor p = options_.sparse_y_pred ? y_pred : argmax(y_pred, options_.axis);
  // Keras converts both to the metric's dtype (floats truncate when it is an integer).
  t = flat(cast(t, dtype()));
  p = flat(cast(p, dtype()));
  TFCC_CHECK_ARG(t.partial_shape().is_compatible_with(p.partial_shape()), "Metric '", name(),
                 "': labels of shape ", y_true.partial_shape().to_string(),
                 " and predictions of shape ", y_pred.partial_shape().to_string(),
                 " hold different numbers of values");
  Tensor w = sample_weight.defined() ? cast(sample_weight, dtype()) : ones_like(t);
  if (w.partial_shape().rank() > 1) w = reshape(w, {-1});
  w = multiply(w, ones_like(t));  // broadcast_to(shape(y_true))
  double c = static_cast<double>(num_classes_);
  Tensor in_bounds = logical_and(logical_and(greater_equal(t, 0.0), less(t, c)),
                                 logical_and(greater_equal(p, 0.0), less(p, c)));
  if (options_.ignore_class) {
    in_bounds = logical_and(in_bounds, not_equal(t, static_cast<double>(*options_.ignore_class)));
  }
  // Out-of-bounds entries become (0, 0) with weight 0, as Keras does.
  Tensor ids = add(multiply(cast(where(in_bounds, t, 0.0), int64), num_classes_),
                   cast(where(in_bounds, p, 0.0), int64));
  w = where(in_bounds, w, 0.0);
  Tensor cm = reshape(unsorted_segment_sum(w, ids, num_classes_ * num_classes_),
                      {num_classes_, num_classes_});
  total_cm_.assign_add(cm);
}

Tensor IoU::result() const {
  Tensor cm = total_cm_.read_value();
  Tensor predicted = reduce_sum(cm, 0);  // Keras' sum_over_row
  Tensor labelled = reduce_sum(cm, 1);   // sum_over_col
  Tensor diag = reduce_sum(multiply(cm, eye(num_classes_, num_classes_, dtype())), 1);
  Tensor denominator = subtract(add(predicted, labelled), diag);
  Tensor ids = Tensor::from_vector(target_class_ids_);
  Tensor tp = cast(gather(diag, ids), float32);
  Tensor den = cast(gather(denominator, ids), float32);
  Tensor valid = greater(den, 1e-9);
  Tensor num_valid = reduce_sum(cast(valid, float32));
  Tensor iou = where(valid, divide(tp, add(den, kEpsilon)), 0.0);
  return divide(reduce_sum(iou), add(num_valid, kEpsilon));
}

saving::Json IoU::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("num_classes", saving::Json(num_classes_));
  c.set("target_class_ids", config_util::ints(target_class_ids_));
  c.set("ignore_class", config_util::optional(options_.ignore_class));
  c.set("sparse_y_true", saving::Json(options_.sparse_y_true));
  c.set("sparse_y_pred", saving::Json(options_.sparse_y_pred));
  c.set("axis", saving::Json(options_.axis));
  return c;
}

MeanIoU::MeanIoU(int64_t num_classes, IoUOptions options)
    : IoU(num_classes, all_classes(num_classes),
          (options.name = options.name.value_or("mean_io_u"), std::move(options))) {}

saving::Json MeanIoU::get_config() const {
  saving::Json c = head(num_classes());
  set_name_dtype(*this, c);
  c.set("ignore_class", config_util::optional(options().ignore_class));
  c.set("sparse_y_true", saving::Json(options().sparse_y_true));
  c.set("sparse_y_pred", saving::Json(options().sparse_y_pred));
  c.set("axis", saving::Json(options().axis));
  return c;
}

OneHotIoU::OneHotIoU(int64_t num_classes, std::vector<int64_t> target_class_ids,
                     OneHotIoUOptions options)
    : IoU(num_classes, std::move(target_class_ids),
          one_hot_options(std::move(options), "one_hot_io_u")) {}

saving::Json OneHotIoU::get_config() const {
  saving::Json c = head(num_classes());
  c.set("target_class_ids", config_util::ints(target_class_ids()));
  set_name_dtype(*this, c);
  c.set("ignore_class", config_util::optional(options().ignore_class));
  c.set("sparse_y_pred", saving::Json(options().sparse_y_pred));
  c.set("axis", saving::Json(options().axis));
  return c;
}

OneHotMeanIoU::OneHotMeanIoU(int64_t num_classes, OneHotIoUOptions options)
    : IoU(num_classes, all_classes(num_classes),
          one_hot_options(std::move(options), "one_hot_mean_io_u")) {}

saving::Json OneHotMeanIoU::get_config() const {
  saving::Json c = head(num_classes());
  set_name_dtype(*this, c);
  c.set("ignore_class", config_util::optional(options().ignore_class));
  c.set("sparse_y_pred", saving::Json(options().sparse_y_pred));
  c.set("axis", saving::Json(options().axis));
  return c;
}

BinaryIoU::BinaryIoU(BinaryIoUOptions options)
    : IoU(2, options.target_class_ids,
          {.name = options.name.value_or("binary_io_u"), .dtype = options.dtype}),
      threshold_(options.threshold) {}

void BinaryIoU::update_state(const Tensor& y_true, const Tensor& y_pred,
                             const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_pred.defined(), "Metric '", name(), "' needs y_pred");
  // Keras: predictions in float32 compared with >= threshold, then the metric's dtype.
  Tensor p = cast(greater_equal(cast(y_pred, float32), threshold_), dtype());
  IoU::update_state(y_true, p, sample_weight);
}

saving::Json BinaryIoU::get_config() const {
  saving::Json c = saving::Json::object();
  c.set("target_class_ids", config_util::ints(target_class_ids()));
  c.set("threshold", saving::Json(threshold_));
  set_name_dtype(*this, c);
  return c;
}

}  // namespace tfcc::keras::metrics
