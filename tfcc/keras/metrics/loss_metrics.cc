#include "tfcc/keras/metrics/loss_metrics.h"

#include "tfcc/keras/losses/losses.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::metrics {

BinaryCrossentropy::BinaryCrossentropy(CrossentropyOptions o)
    : MeanMetricWrapper(
          [o](const Tensor& t, const Tensor& p) {
            return losses::binary_crossentropy(t, p, o.from_logits, o.label_smoothing, o.axis);
          },
          o.name.value_or("binary_crossentropy"), o.dtype) {}

CategoricalCrossentropy::CategoricalCrossentropy(CrossentropyOptions o)
    : MeanMetricWrapper(
          [o](const Tensor& t, const Tensor& p) {
            return losses::categorical_crossentropy(t, p, o.from_logits, o.label_smoothing, o.axis);
          },
          o.name.value_or("categorical_crossentropy"), o.dtype) {}

SparseCategoricalCrossentropy::SparseCategoricalCrossentropy(CrossentropyOptions o)
    : MeanMetricWrapper(
          [o](const Tensor& t, const Tensor& p) {
            return losses::sparse_categorical_crossentropy(t, p, o.from_logits);
          },
          o.name.value_or("sparse_categorical_crossentropy"), o.dtype) {}

KLDivergence::KLDivergence(MetricOptions o)
    : MeanMetricWrapper(losses::kl_divergence, o.name.value_or("kl_divergence"), o.dtype) {}

Poisson::Poisson(MetricOptions o)
    : MeanMetricWrapper(losses::poisson, o.name.value_or("poisson"), o.dtype) {}

Hinge::Hinge(MetricOptions o)
    : MeanMetricWrapper(losses::hinge, o.name.value_or("hinge"), o.dtype) {}

SquaredHinge::SquaredHinge(MetricOptions o)
    : MeanMetricWrapper(losses::squared_hinge, o.name.value_or("squared_hinge"), o.dtype) {}

CategoricalHinge::CategoricalHinge(MetricOptions o)
    : MeanMetricWrapper(losses::categorical_hinge, o.name.value_or("categorical_hinge"), o.dtype) {}

MeanSquaredLogarithmicError::MeanSquaredLogarithmicError(MetricOptions o)
    : MeanMetricWrapper(losses::mean_squared_logarithmic_error,
                        o.name.value_or("mean_squared_logarithmic_error"), o.dtype) {}

MeanAbsolutePercentageError::MeanAbsolutePercentageError(MetricOptions o)
    : MeanMetricWrapper(losses::mean_absolute_percentage_error,
                        o.name.value_or("mean_absolute_percentage_error"), o.dtype) {}

LogCoshError::LogCoshError(MetricOptions o)
    : MeanMetricWrapper(losses::log_cosh, o.name.value_or("logcosh"), o.dtype) {}

CosineSimilarity::CosineSimilarity(CosineSimilarityOptions o)
    : MeanMetricWrapper(
          [axis = o.axis](const Tensor& t, const Tensor& p) {
            return negative(losses::cosine_similarity(t, p, axis));
          },
          o.name.value_or("cosine_similarity"), o.dtype) {}

RootMeanSquaredError::RootMeanSquaredError(MetricOptions o)
    : Mean({.name = o.name.value_or("root_mean_squared_error"), .dtype = o.dtype}) {}

void RootMeanSquaredError::update_state(const Tensor& y_true, const Tensor& y_pred,
                                        const Tensor& sample_weight) {
  Tensor t = y_true.dtype() == dtype() ? y_true : cast(y_true, dtype());
  Tensor p = y_pred.dtype() == dtype() ? y_pred : cast(y_pred, dtype());
  losses::squeeze_or_expand_dimensions(p, t);
  Reduce::update_state(square(subtract(p, t)), sample_weight);
}

Tensor RootMeanSquaredError::result() const { return sqrt(Mean::result()); }

}  // namespace tfcc::keras::metrics
