#include "tfcc/keras/losses/regression.h"

#include <cmath>
#include <utility>

#include "tfcc/keras/losses/loss_util.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::losses {

using detail::same_rank_targets;

Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  same_rank_targets(t, p);
  Tensor first = log(add(maximum(p, kEpsilon), 1.0));
  Tensor second = log(add(maximum(t, kEpsilon), 1.0));
  return reduce_mean(square(subtract(first, second)), -1);
}

Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  same_rank_targets(t, p);
  Tensor diff = abs(divide(subtract(t, p), maximum(abs(t), kEpsilon)));
  return multiply(reduce_mean(diff, -1), 100.0);
}

Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  same_rank_targets(t, p);
  Tensor x = subtract(p, t);
  Tensor lc = subtract(add(x, softplus(multiply(x, -2.0))), std::log(2.0));
  return reduce_mean(lc, -1);
}

Tensor poisson(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  same_rank_targets(t, p);
  return reduce_mean(subtract(p, multiply(t, log(add(p, kEpsilon)))), -1);
}

namespace {

// Keras 3's normalize(x, axis, order=2): x * min(rsqrt(sum(x^2)), 1 / eps).
Tensor l2_normalized(const Tensor& x, int64_t axis) {
  Tensor inv = rsqrt(reduce_sum(square(x), axis, /*keepdims=*/true));
  return multiply(x, minimum(inv, 1.0 / kEpsilon));
}

}  // namespace

Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int64_t axis) {
  Tensor t = y_true, p = y_pred;
  same_rank_targets(t, p);
  return negative(reduce_sum(multiply(l2_normalized(t, axis), l2_normalized(p, axis)), axis));
}

MeanSquaredLogarithmicError::MeanSquaredLogarithmicError(SimpleLossOptions o)
    : LossFunctionWrapper(
          mean_squared_logarithmic_error,
          {.reduction = o.reduction, .name = o.name.value_or("mean_squared_logarithmic_error")}) {}

MeanAbsolutePercentageError::MeanAbsolutePercentageError(SimpleLossOptions o)
    : LossFunctionWrapper(
          mean_absolute_percentage_error,
          {.reduction = o.reduction, .name = o.name.value_or("mean_absolute_percentage_error")}) {}

LogCosh::LogCosh(SimpleLossOptions o)
    : LossFunctionWrapper(log_cosh,
                          {.reduction = o.reduction, .name = o.name.value_or("log_cosh")}) {}

Poisson::Poisson(SimpleLossOptions o)
    : LossFunctionWrapper(poisson, {.reduction = o.reduction, .name = o.name.value_or("poisson")}) {
}

CosineSimilarity::CosineSimilarity(CosineSimilarityOptions options)
    : LossFunctionWrapper(
          [axis = options.axis](const Tensor& t, const Tensor& p) {
            return cosine_similarity(t, p, axis);
          },
          {.reduction = options.reduction, .name = options.name}),
      options_(std::move(options)) {}

}  // namespace tfcc::keras::losses
