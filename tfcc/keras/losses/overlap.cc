#include "tfcc/keras/losses/overlap.h"

#include <utility>

#include "tfcc/keras/losses/loss_util.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::losses {
namespace {

Tensor sum_over(const Tensor& x, const std::optional<Axes>& axis) {
  return axis ? reduce_sum(x, *axis) : reduce_sum(x);
}

}  // namespace

Tensor dice(const Tensor& y_true, const Tensor& y_pred, const std::optional<Axes>& axis) {
  Tensor t = detail::as_pred_dtype(y_true, y_pred);
  Tensor intersection = sum_over(multiply(t, y_pred), axis);
  Tensor denominator = add(add(sum_over(t, axis), sum_over(y_pred, axis)), kEpsilon);
  return subtract(1.0, divide(multiply(intersection, 2.0), denominator));
}

Tensor tversky(const Tensor& y_true, const Tensor& y_pred, double alpha, double beta,
               const std::optional<Axes>& axis) {
  Tensor t = detail::as_pred_dtype(y_true, y_pred);
  Tensor intersection = sum_over(multiply(t, y_pred), axis);
  // Keras 3 names these fp and fn the other way round; the weights follow its formula.
  Tensor missed = sum_over(multiply(subtract(1.0, y_pred), t), axis);
  Tensor extra = sum_over(multiply(y_pred, subtract(1.0, t)), axis);
  Tensor denominator =
      add(add(add(intersection, multiply(missed, alpha)), multiply(extra, beta)), kEpsilon);
  return subtract(1.0, divide(intersection, denominator));
}

Dice::Dice(DiceOptions o)
    : LossFunctionWrapper(
          [axis = o.axis](const Tensor& t, const Tensor& p) { return dice(t, p, axis); },
          {.reduction = o.reduction, .name = o.name}),
      options_(std::move(o)) {}

Tversky::Tversky(TverskyOptions o)
    : LossFunctionWrapper(
          [o](const Tensor& t, const Tensor& p) { return tversky(t, p, o.alpha, o.beta, o.axis); },
          {.reduction = o.reduction, .name = o.name}),
      options_(std::move(o)) {}

}  // namespace tfcc::keras::losses
