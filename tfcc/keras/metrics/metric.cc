// Metric base, Reduce (Sum / Mean) and MeanMetricWrapper (keras/metrics/base_metric.py).
#include "tfcc/keras/metrics/metric.h"

#include "tfcc/keras/losses/loss.h"
#include "tfcc/keras/optimizers/concrete.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::metrics {

Metric::Metric(std::string name, DType dtype) : name_(std::move(name)), dtype_(dtype) {
  TFCC_CHECK_ARG(is_floating(dtype_), "Metric '", name_, "' needs a floating dtype, got ",
                 dtype_name(dtype_));
}

Metric::Metric(std::string name, DType dtype, IntegerStateAllowed)
    : name_(std::move(name)), dtype_(dtype) {
  TFCC_CHECK_ARG(is_floating(dtype_) || is_integer(dtype_), "Metric '", name_,
                 "' needs a floating or integer dtype, got ", dtype_name(dtype_));
}

saving::Json Metric::get_config() const {
  saving::Json c = saving::Json::object();
  c.set("name", saving::Json(name_));
  c.set("dtype", saving::Json(std::string(dtype_name(dtype_))));
  return c;
}

Variable Metric::add_weight(const std::string& name, const Shape& shape, double initial_value) {
  Variable v(detail::concrete_fill(dtype_, shape, initial_value),
             {.name = internal::str_cat(name_, "/", name), .trainable = false});
  variables_.push_back(v);
  initial_values_.push_back(initial_value);
  return v;
}

void Metric::reset_state() {
  for (size_t i = 0; i < variables_.size(); ++i) {
    const Variable& v = variables_[i];
    v.assign(detail::concrete_fill(v.dtype(), v.shape(), initial_values_[i]));
  }
}

Tensor Metric::operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  update_state(y_true, y_pred, sample_weight);
  return result();
}

Reduce::Reduce(ReduceKind kind, std::string name, DType dtype)
    : Metric(std::move(name), dtype), kind_(kind) {
  total_ = add_weight("total");
  if (kind_ != ReduceKind::kSum) count_ = add_weight("count");
}

void Reduce::update_state(const Tensor& values, const Tensor& sample_weight) {
  TFCC_CHECK_ARG(values.defined(), "Metric '", name(), "': update_state needs values");
  Tensor v = values.dtype() == dtype() ? values : cast(values, dtype());
  Tensor num_values;
  if (sample_weight.defined()) {
    Tensor w = sample_weight.dtype() == dtype() ? sample_weight : cast(sample_weight, dtype());
    w = losses::match_weight_rank(v, w);
    int rv = v.partial_shape().rank(), rw = w.partial_shape().rank();
    if (rw == 0 || rw == rv) {
      // tf broadcast_weights: weights of the values' rank (or scalar) broadcast to them.
      w = multiply(w, ones_like(v));
    } else if (rw < rv) {
      // Keras reduces the values to the weights' rank when the weights cannot broadcast.
      std::vector<int64_t> axes;
      for (int64_t a = rw; a < rv; ++a) axes.push_back(a);
      v = kind_ == ReduceKind::kSum ? reduce_sum(v, axes) : reduce_mean(v, axes);
    } else {
      throw InvalidArgumentError(internal::str_cat(
          "Metric '", name(), "': sample_weight of shape ", w.partial_shape().to_string(),
          " cannot be applied to values of shape ", v.partial_shape().to_string()));
    }
    v = multiply(v, w);
    if (kind_ == ReduceKind::kWeightedMean) num_values = reduce_sum(w);
  }
  total_.assign_add(reduce_sum(v));
  if (kind_ == ReduceKind::kSum) return;
  if (!num_values.defined()) num_values = cast(size(v), dtype());
  count_.assign_add(num_values);
}

void Reduce::update_state(const Tensor&, const Tensor&, const Tensor&) {
  throw InvalidArgumentError(internal::str_cat(
      "Metric '", name(), "' (Sum / Mean) takes update_state(values, sample_weight), not ",
      "(y_true, y_pred, sample_weight); wrap a per-sample function in MeanMetricWrapper"));
}

Tensor Reduce::operator()(const Tensor& values, const Tensor& sample_weight) {
  update_state(values, sample_weight);
  return result();
}

Tensor Reduce::result() const {
  if (kind_ == ReduceKind::kSum) return identity(total_.read_value());
  return losses::divide_no_nan(total_.read_value(), count_.read_value());
}

Sum::Sum(MetricOptions options)
    : Reduce(ReduceKind::kSum, options.name.value_or("sum"), options.dtype) {}

Mean::Mean(MetricOptions options)
    : Reduce(ReduceKind::kWeightedMean, options.name.value_or("mean"), options.dtype) {}

MeanMetricWrapper::MeanMetricWrapper(MetricFn fn, std::string name, DType dtype)
    : Mean({.name = std::move(name), .dtype = dtype}), fn_(std::move(fn)) {}

void MeanMetricWrapper::update_state(const Tensor& y_true, const Tensor& y_pred,
                                     const Tensor& sample_weight) {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(), "Metric '", name(),
                 "' needs both y_true and y_pred");
  TFCC_REQUIRE(FailedPreconditionError, fn_ != nullptr, "Metric '", name(), "' has no function");
  // Keras casts both to the metric's dtype first (so Accuracy compares 0.9 with 1, not 0 with 1).
  Tensor t = y_true.dtype() == dtype() ? y_true : cast(y_true, dtype());
  Tensor p = y_pred.dtype() == dtype() ? y_pred : cast(y_pred, dtype());
  losses::squeeze_or_expand_dimensions(p, t);
  Reduce::update_state(fn_(t, p), sample_weight);
}

}  // namespace tfcc::keras::metrics
