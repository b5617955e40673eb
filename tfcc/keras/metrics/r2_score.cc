// R2Score (keras/metrics/regression_metrics.py).
#include "tfcc/keras/metrics/r2_score.h"

#include "tfcc/keras/losses/loss.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {

saving::Json r2_aggregation_to_json(R2Aggregation aggregation) {
  switch (aggregation) {
    case R2Aggregation::kNone:
      return saving::Json();
    case R2Aggregation::kUniformAverage:
      return saving::Json("uniform_average");
    case R2Aggregation::kVarianceWeightedAverage:
      return saving::Json("variance_weighted_average");
  }
  return saving::Json();
}

R2Aggregation r2_aggregation_from_json(const saving::Json& value) {
  if (value.is_null()) return R2Aggregation::kNone;
  const std::string& s = value.as_string("class_aggregation");
  if (s == "uniform_average") return R2Aggregation::kUniformAverage;
  if (s == "variance_weighted_average") return R2Aggregation::kVarianceWeightedAverage;
  throw InvalidArgumentError(internal::str_cat(
      "Invalid value for argument `class_aggregation`. Expected one of (None, "
      "'uniform_average', 'variance_weighted_average'). Received: class_aggregation=",
      s));
}

R2Score::R2Score(R2ScoreOptions options)
    : Metric(options.name.value_or("r2_score"), options.dtype), options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.num_regressors >= 0,
                 "Invalid value for argument `num_regressors`. Expected a value >= 0. "
                 "Received: num_regressors=",
                 options_.num_regressors);
  num_samples_ = add_weight("num_samples");
}

void R2Score::update_state(const Tensor& y_true, const Tensor& y_pred,
                           const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(), "Metric '", name(),
                 "' needs both y_true and y_pred");
  Tensor t = cast(y_true, dtype()), p = cast(y_pred, dtype());
  losses::squeeze_or_expand_dimensions(p, t);
  PartialShape ts = t.partial_shape(), ps = p.partial_shape();
  if (!sum_.defined()) {
    TFCC_CHECK_ARG(ps.rank() == 2 && ts.rank() == 2,
                   "R2Score expects 2D inputs with shape (batch_size, output_dim). Received "
                   "input shapes: y_pred.shape=",
                   ps.to_string(), " and y_true.shape=", ts.to_string(), ".");
    TFCC_CHECK_ARG(ps.dim(1) >= 0 && ts.dim(1) >= 0,
                   "R2Score expects 2D inputs with shape (batch_size, output_dim), with "
                   "output_dim fully defined (not None). Received input shapes: y_pred.shape=",
                   ps.to_string(), " and y_true.shape=", ts.to_string(), ".");
    Shape s{ps.dim(1)};
    squared_sum_ = add_weight("squared_sum", s);
    sum_ = add_weight("sum", s);
    total_mse_ = add_weight("residual", s);
    count_ = add_weight("count", s);
  }
  TFCC_CHECK_ARG(ps.is_compatible_with(ts), "Metric '", name(), "': y_true of shape ",
                 ts.to_string(), " and y_pred of shape ", ps.to_string(), " differ");
  Tensor w = sample_weight.defined() ? cast(sample_weight, dtype()) : ones_like(t);
  if (w.partial_shape().rank() == 1) w = expand_dims(w, 1);  // a per-sample weight
  w = multiply(w, ones_like(t));                             // broadcast_to(shape(y_true))
  Tensor weighted = multiply(t, w);
  sum_.assign_add(reduce_sum(weighted, {0}));
  squared_sum_.assign_add(reduce_sum(multiply(t, weighted), {0}));
  Tensor err = subtract(t, p);
  total_mse_.assign_add(reduce_sum(multiply(multiply(err, err), w), {0}));
  count_.assign_add(reduce_sum(w, {0}));
  num_samples_.assign_add(cast(size(t), dtype()));
}

Tensor R2Score::result() const {
  TFCC_REQUIRE(FailedPreconditionError, sum_.defined(), "Metric '", name(),
               "' has no state before its first update_state (the output count comes from it)");
  Tensor sum = sum_.read_value();
  Tensor mean = divide(sum, count_.read_value());
  Tensor total = subtract(squared_sum_.read_value(), multiply(sum, mean));
  Tensor raw = subtract(1.0, divide(total_mse_.read_value(), total));
  Tensor is_inf = logical_and(logical_not(is_finite(raw)), logical_not(is_nan(raw)));
  raw = where(is_inf, 0.0, raw);
  Tensor r2;
  switch (options_.class_aggregation) {
    case R2Aggregation::kUniformAverage:
      r2 = reduce_mean(raw);
      break;
    case R2Aggregation::kVarianceWeightedAverage:
      r2 = divide(reduce_sum(multiply(total, raw)), reduce_sum(total));
      break;
    case R2Aggregation::kNone:
      r2 = raw;
      break;
  }
  if (options_.num_regressors == 0) return r2;
  // Keras falls back to the plain score (with a warning) when p >= n - 1.
  Tensor n = cast(num_samples_.read_value(), float32);
  auto p = static_cast<double>(options_.num_regressors);
  Tensor adjusted =
      cast(subtract(1.0, divide(multiply(subtract(1.0, cast(r2, float32)), subtract(n, 1.0)),
                                subtract(subtract(n, p), 1.0))),
           r2.dtype());
  return where(less(p, subtract(n, 1.0)), adjusted, r2);
}

saving::Json R2Score::get_config() const {
  saving::Json c = Metric::get_config();
  c.set("class_aggregation", r2_aggregation_to_json(options_.class_aggregation));
  c.set("num_regressors", saving::Json(options_.num_regressors));
  return c;
}

}  // namespace tfcc::keras::metrics
