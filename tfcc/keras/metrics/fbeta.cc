// FBetaScore and F1Score (keras/metrics/f_score_metrics.py).
#include "tfcc/keras/metrics/fbeta.h"

#include "tfcc/keras/metrics/config_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {
namespace {

constexpr double kEpsilon = 1e-7;  // backend.epsilon()

}  // namespace

saving::Json fscore_average_to_json(FScoreAverage average) {
  switch (average) {
    case FScoreAverage::kNone:
      return saving::Json();
    case FScoreAverage::kMicro:
      return saving::Json("micro");
    case FScoreAverage::kMacro:
      return saving::Json("macro");
    case FScoreAverage::kWeighted:
      return saving::Json("weighted");
  }
  return saving::Json();
}

FScoreAverage fscore_average_from_json(const saving::Json& value) {
  if (value.is_null()) return FScoreAverage::kNone;
  const std::string& s = value.as_string("average");
  if (s == "micro") return FScoreAverage::kMicro;
  if (s == "macro") return FScoreAverage::kMacro;
  if (s == "weighted") return FScoreAverage::kWeighted;
  throw InvalidArgumentError(internal::str_cat(
      "Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
      "'weighted'}. Received: average=",
      s));
}

FBetaScore::FBetaScore(FBetaScoreOptions options)
    : Metric(options.name.value_or("fbeta_score"), options.dtype), options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.beta > 0, "Invalid `beta` argument value. It should be > 0. Received: ",
                 "beta=", options_.beta);
  if (options_.threshold) {
    double t = *options_.threshold;
    TFCC_CHECK_ARG(t > 0 && t <= 1,
                   "Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                   "Received: threshold=",
                   t);
  }
}

void FBetaScore::update_state(const Tensor& y_true, const Tensor& y_pred,
                              const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(), "Metric '", name(),
                 "' needs both y_true and y_pred");
  Tensor t = cast(y_true, dtype()), p = cast(y_pred, dtype());
  PartialShape ts = t.partial_shape(), ps = p.partial_shape();
  bool micro = options_.average == FScoreAverage::kMicro;
  if (!true_positives_.defined()) {
    // Keras' _build: the state's shape comes from the first batch.
    TFCC_CHECK_ARG(ps.rank() == 2 && ts.rank() == 2,
                   "FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received "
                   "input shapes: y_pred.shape=",
                   ps.to_string(), " and y_true.shape=", ts.to_string(), ".");
    TFCC_CHECK_ARG(ps.dim(1) >= 0 && ts.dim(1) >= 0,
                   "FBetaScore expects 2D inputs with shape (batch_size, output_dim), with "
                   "output_dim fully defined (not None). Received input shapes: y_pred.shape=",
                   ps.to_string(), " and y_true.shape=", ts.to_string(), ".");
    Shape s = micro ? Shape{} : Shape{ps.dim(1)};
    true_positives_ = add_weight("true_positives", s);
    false_positives_ = add_weight("false_positives", s);
    false_negatives_ = add_weight("false_negatives", s);
    intermediate_weights_ = add_weight("intermediate_weights", s);
  }
  TFCC_CHECK_ARG(ps.is_compatible_with(ts), "Metric '", name(), "': y_true of shape ",
                 ts.to_string(), " and y_pred of shape ", ps.to_string(), " differ");
  Tensor positive = options_.threshold ? greater(p, *options_.threshold)
                                       : logical_and(greater_equal(p, reduce_max(p, {-1}, true)),
                                                     greater(abs(p), 1e-9));
  p = cast(positive, dtype());
  Tensor w;
  if (sample_weight.defined()) w = expand_dims(cast(sample_weight, dtype()), 1);
  auto weighted_sum = [&](const Tensor& v) {
    Tensor x = w.defined() ? multiply(v, w) : v;
    return micro ? reduce_sum(x) : reduce_sum(x, {0});
  };
  Tensor not_t = subtract(1.0, t), not_p = subtract(1.0, p);
  true_positives_.assign_add(weighted_sum(multiply(p, t)));
  false_positives_.assign_add(weighted_sum(multiply(p, not_t)));
  false_negatives_.assign_add(weighted_sum(multiply(not_p, t)));
  intermediate_weights_.assign_add(weighted_sum(t));
}

Tensor FBetaScore::result() const {
  TFCC_REQUIRE(FailedPreconditionError, true_positives_.defined(), "Metric '", name(),
               "' has no state before its first update_state (the class count comes from it)");
  Tensor tp = true_positives_.read_value();
  Tensor precision = divide(tp, add(add(tp, false_positives_.read_value()), kEpsilon));
  Tensor recall = divide(tp, add(add(tp, false_negatives_.read_value()), kEpsilon));
  double b2 = options_.beta * options_.beta;
  Tensor mean =
      divide(multiply(precision, recall), add(add(multiply(precision, b2), recall), kEpsilon));
  Tensor f = multiply(mean, 1 + b2);
  switch (options_.average) {
    case FScoreAverage::kWeighted: {
      Tensor iw = intermediate_weights_.read_value();
      Tensor weights = divide(iw, add(reduce_sum(iw), kEpsilon));
      return reduce_sum(multiply(f, weights));
    }
    case FScoreAverage::kMicro:
    case FScoreAverage::kMacro:
      return reduce_mean(f);
    case FScoreAverage::kNone:
      break;
  }
  return f;
}

saving::Json FBetaScore::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("average", fscore_average_to_json(options_.average));
  c.set("beta", saving::Json(options_.beta));
  c.set("threshold", config_util::optional(options_.threshold));
  return c;
}

F1Score::F1Score(F1ScoreOptions o)
    : FBetaScore({.average = o.average,
                  .beta = 1.0,
                  .threshold = o.threshold,
                  .name = o.name.value_or("f1_score"),
                  .dtype = o.dtype}) {}

saving::Json F1Score::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("average", fscore_average_to_json(options().average));
  c.set("threshold", config_util::optional(options().threshold));
  return c;
}

}  // namespace tfcc::keras::metrics
