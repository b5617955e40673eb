// SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision
// (keras/metrics/confusion_metrics.py).
#include "tfcc/keras/metrics/sensitivity_specificity.h"

#include "tfcc/keras/losses/loss.h"
#include "tfcc/keras/metrics/config_util.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::metrics {
namespace {

struct KindInfo {
  const char* class_name;
  const char* default_name;
  const char* value_key;  // the constructor's target argument
};

KindInfo info(RateAtRate kind) {
  switch (kind) {
    case RateAtRate::kSensitivityAtSpecificity:
      return {"SensitivityAtSpecificity", "sensitivity_at_specificity", "specificity"};
    case RateAtRate::kSpecificityAtSensitivity:
      return {"SpecificityAtSensitivity", "specificity_at_sensitivity", "sensitivity"};
    case RateAtRate::kPrecisionAtRecall:
      return {"PrecisionAtRecall", "precision_at_recall", "recall"};
    case RateAtRate::kRecallAtPrecision:
      return {"RecallAtPrecision", "recall_at_precision", "precision"};
  }
  return {"", "", ""};
}

}  // namespace

SensitivitySpecificityBase::SensitivitySpecificityBase(RateAtRate kind, double value,
                                                       SensitivitySpecificityOptions options)
    : Metric(options.name.value_or(info(kind).default_name), options.dtype),
      kind_(kind),
      value_(value),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(value >= 0 && value <= 1, "Argument `", info(kind).value_key,
                 "` must be in the range [0, 1]. Received: ", info(kind).value_key, "=", value);
  int64_t n = options_.num_thresholds;
  TFCC_CHECK_ARG(
      n > 0, "Argument `num_thresholds` must be an integer > 0. Received: ", "num_thresholds=", n);
  if (n == 1) {
    thresholds_ = {0.5};
  } else {
    thresholds_.push_back(0.0);
    for (int64_t i = 0; i < n - 2; ++i) {
      thresholds_.push_back(static_cast<double>(i + 1) / static_cast<double>(n - 1));
    }
    thresholds_.push_back(1.0);
  }
  Shape s{static_cast<int64_t>(thresholds_.size())};
  true_positives_ = add_weight("true_positives", s);
  false_positives_ = add_weight("false_positives", s);
  true_negatives_ = add_weight("true_negatives", s);
  false_negatives_ = add_weight("false_negatives", s);
}

void SensitivitySpecificityBase::update_state(const Tensor& y_true, const Tensor& y_pred,
                                              const Tensor& sample_weight) {
  update_confusion_matrix_variables(
      {true_positives_, true_negatives_, false_positives_, false_negatives_}, y_true, y_pred,
      thresholds_,
      {.class_id = options_.class_id,
       .thresholds_distributed_evenly = thresholds_.size() > 1,
       .check_probabilities = false},
      sample_weight);
}

Tensor SensitivitySpecificityBase::result() const {
  Tensor tp = true_positives_.read_value(), fp = false_positives_.read_value();
  Tensor tn = true_negatives_.read_value(), fn = false_negatives_.read_value();
  Tensor constrained, dependent;
  auto sensitivity = [&] { return losses::divide_no_nan(tp, add(tp, fn)); };
  auto specificity = [&] { return losses::divide_no_nan(tn, add(tn, fp)); };
  auto precision = [&] { return losses::divide_no_nan(tp, add(tp, fp)); };
  switch (kind_) {
    case RateAtRate::kSensitivityAtSpecificity:
      constrained = specificity(), dependent = sensitivity();
      break;
    case RateAtRate::kSpecificityAtSensitivity:
      constrained = sensitivity(), dependent = specificity();
      break;
    case RateAtRate::kPrecisionAtRecall:
      constrained = sensitivity(), dependent = precision();
      break;
    case RateAtRate::kRecallAtPrecision:
      constrained = precision(), dependent = sensitivity();
      break;
  }
  // _find_max_under_constraint: max(where(constrained >= value, dependent, 0), initial=0).
  Tensor feasible = greater_equal(constrained, value_);
  return maximum(reduce_max(where(feasible, dependent, 0.0)), 0.0);
}

std::string SensitivitySpecificityBase::class_name() const { return info(kind_).class_name; }

saving::Json SensitivitySpecificityBase::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("class_id", config_util::optional(options_.class_id));
  c.set("num_thresholds", saving::Json(options_.num_thresholds));
  c.set(info(kind_).value_key, saving::Json(value_));
  return c;
}

}  // namespace tfcc::keras::metrics
