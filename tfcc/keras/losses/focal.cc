#include "tfcc/keras/losses/focal.h"

#include <utility>

#include "tfcc/keras/losses/loss_util.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::losses {

Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                 bool apply_class_balancing, double alpha, double gamma,
                                 bool from_logits, double label_smoothing, int64_t axis) {
  Tensor y = detail::as_pred_dtype(y_true, y_pred);
  if (label_smoothing > 0) y = add(multiply(y, 1.0 - label_smoothing), 0.5 * label_smoothing);
  Tensor p = from_logits ? sigmoid(y_pred) : y_pred;
  Tensor pc = clip_by_value(p, kEpsilon, 1.0 - kEpsilon);
  Tensor bce =
      negative(add(multiply(y, log(pc)), multiply(subtract(1.0, y), log(subtract(1.0, pc)))));
  Tensor p_t = add(multiply(y, p), multiply(subtract(1.0, y), subtract(1.0, p)));
  Tensor focal = multiply(pow(subtract(1.0, p_t), gamma), bce);
  if (apply_class_balancing) {
    focal = multiply(add(multiply(y, alpha), multiply(subtract(1.0, y), 1.0 - alpha)), focal);
  }
  return reduce_mean(focal, axis);
}

Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, double alpha,
                                      double gamma, bool from_logits, double label_smoothing,
                                      int64_t axis) {
  Tensor y = detail::as_pred_dtype(y_true, y_pred);
  if (label_smoothing > 0) {
    Tensor num_classes = detail::dim_as(y, -1, y.dtype());
    y = add(multiply(y, 1.0 - label_smoothing), divide(label_smoothing, num_classes));
  }
  Tensor p = from_logits ? softmax(y_pred, axis) : y_pred;
  p = clip_by_value(divide(p, reduce_sum(p, axis, true)), kEpsilon, 1.0 - kEpsilon);
  Tensor cce = negative(multiply(y, log(p)));
  Tensor weight = multiply(pow(subtract(1.0, p), gamma), alpha);
  return reduce_sum(multiply(weight, cce), axis);
}

BinaryFocalCrossentropy::BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions o)
    : LossFunctionWrapper(
          [o](const Tensor& t, const Tensor& p) {
            return binary_focal_crossentropy(t, p, o.apply_class_balancing, o.alpha, o.gamma,
                                             o.from_logits, o.label_smoothing, o.axis);
          },
          {.reduction = o.reduction, .name = o.name}),
      options_(std::move(o)) {}

CategoricalFocalCrossentropy::CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions o)
    : LossFunctionWrapper(
          [o](const Tensor& t, const Tensor& p) {
            return categorical_focal_crossentropy(t, p, o.alpha, o.gamma, o.from_logits,
                                                  o.label_smoothing, o.axis);
          },
          {.reduction = o.reduction, .name = o.name}),
      options_(std::move(o)) {}

}  // namespace tfcc::keras::losses
