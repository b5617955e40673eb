// TruePositives, TrueNegatives, FalsePositives, FalseNegatives
// (keras/metrics/confusion_metrics.py).
#include "tfcc/keras/metrics/confusion_counts.h"

#include "tfcc/keras/metrics/config_util.h"

namespace tfcc::keras::metrics {
namespace {

const char* condition_name(ConfusionCondition c) {
  switch (c) {
    case ConfusionCondition::kTruePositives:
      return "true_positives";
    case ConfusionCondition::kTrueNegatives:
      return "true_negatives";
    case ConfusionCondition::kFalsePositives:
      return "false_positives";
    case ConfusionCondition::kFalseNegatives:
      return "false_negatives";
  }
  return "";
}

}  // namespace

ConfusionCount::ConfusionCount(ConfusionCondition condition, ConfusionCountOptions options)
    : Metric(options.name.value_or(condition_name(condition)), options.dtype),
      condition_(condition),
      options_(std::move(options)) {
  for (double t : options_.thresholds) {
    TFCC_CHECK_ARG(t >= 0 && t <= 1, "Threshold values must be in [0, 1]. Received: ", t);
  }
  thresholds_ = options_.thresholds.empty() ? std::vector<double>{0.5} : options_.thresholds;
  evenly_ = is_evenly_distributed_thresholds(thresholds_);
  accumulator_ = add_weight("accumulator", Shape{static_cast<int64_t>(thresholds_.size())});
}

void ConfusionCount::update_state(const Tensor& y_true, const Tensor& y_pred,
                                  const Tensor& sample_weight) {
  ConfusionVariables vars;
  switch (condition_) {
    case ConfusionCondition::kTruePositives:
      vars.true_positives = accumulator_;
      break;
    case ConfusionCondition::kTrueNegatives:
      vars.true_negatives = accumulator_;
      break;
    case ConfusionCondition::kFalsePositives:
      vars.false_positives = accumulator_;
      break;
    case ConfusionCondition::kFalseNegatives:
      vars.false_negatives = accumulator_;
      break;
  }
  update_confusion_matrix_variables(
      vars, y_true, y_pred, thresholds_,
      {.thresholds_distributed_evenly = evenly_, .check_probabilities = false}, sample_weight);
}

Tensor ConfusionCount::result() const {
  Tensor v = accumulator_.read_value();
  return thresholds_.size() == 1 ? v(0) : v;
}

std::string ConfusionCount::class_name() const {
  switch (condition_) {
    case ConfusionCondition::kTruePositives:
      return "TruePositives";
    case ConfusionCondition::kTrueNegatives:
      return "TrueNegatives";
    case ConfusionCondition::kFalsePositives:
      return "FalsePositives";
    case ConfusionCondition::kFalseNegatives:
      return "FalseNegatives";
  }
  return "";
}

saving::Json ConfusionCount::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("thresholds", config_util::numbers_or_none(options_.thresholds));
  return c;
}

}  // namespace tfcc::keras::metrics
