#include "tfcc/keras/losses/hinge.h"

#include "tfcc/keras/losses/loss_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::losses {
namespace {

// {0, 1} labels become {-1, 1} when all of them are 0 or 1; other labels pass unchanged.
Tensor hinge_labels(const Tensor& y_true) {
  Tensor is_binary = reduce_all(logical_or(equal(y_true, 0.0), equal(y_true, 1.0)));
  return where(is_binary, subtract(multiply(y_true, 2.0), 1.0), y_true);
}

Tensor margin(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  detail::same_rank_targets(t, p);
  return maximum(subtract(1.0, multiply(hinge_labels(t), p)), 0.0);
}

}  // namespace

Tensor hinge(const Tensor& y_true, const Tensor& y_pred) {
  return reduce_mean(margin(y_true, y_pred), -1);
}

Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred) {
  return reduce_mean(square(margin(y_true, y_pred)), -1);
}

Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = y_true, p = y_pred;
  detail::same_rank_targets(t, p);
  Tensor pos = reduce_sum(multiply(t, p), -1);
  Tensor neg = reduce_max(multiply(subtract(1.0, t), p), -1);
  return maximum(add(subtract(neg, pos), 1.0), 0.0);
}

Hinge::Hinge(SimpleLossOptions o)
    : LossFunctionWrapper(hinge, {.reduction = o.reduction, .name = o.name.value_or("hinge")}) {}

SquaredHinge::SquaredHinge(SimpleLossOptions o)
    : LossFunctionWrapper(squared_hinge,
                          {.reduction = o.reduction, .name = o.name.value_or("squared_hinge")}) {}

CategoricalHinge::CategoricalHinge(SimpleLossOptions o)
    : LossFunctionWrapper(categorical_hinge, {.reduction = o.reduction,
                                              .name = o.name.value_or("categorical_hinge")}) {}

}  // namespace tfcc::keras::losses
