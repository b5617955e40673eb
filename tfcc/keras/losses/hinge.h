// Hinge losses (maximum-margin classifiers), with Keras 3's formulas and names.
//
//   namespace losses = tfcc::keras::losses;
//   model.compile({.optimizer = "sgd", .loss = std::make_shared<losses::SquaredHinge>()});
//   Tensor per_sample = losses::hinge(labels, scores);   // labels in {-1, 1} or {0, 1}
//
// Binary labels {0, 1} are turned into {-1, 1} when every label is 0 or 1, as Keras does.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/losses/loss.h"

namespace tfcc::keras::losses {

/// mean(max(1 - y_true * y_pred, 0), axis=-1).
Tensor hinge(const Tensor& y_true, const Tensor& y_pred);
/// mean(max(1 - y_true * y_pred, 0)^2, axis=-1).
Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred);
/// max(max((1 - y_true) * y_pred, axis=-1) - sum(y_true * y_pred, axis=-1) + 1, 0), one-hot
/// y_true.
Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred);

/// tf.keras.losses.Hinge ("hinge").
class Hinge : public LossFunctionWrapper {
 public:
  explicit Hinge(SimpleLossOptions options = {});
};
/// tf.keras.losses.SquaredHinge ("squared_hinge").
class SquaredHinge : public LossFunctionWrapper {
 public:
  explicit SquaredHinge(SimpleLossOptions options = {});
};
/// tf.keras.losses.CategoricalHinge ("categorical_hinge").
class CategoricalHinge : public LossFunctionWrapper {
 public:
  explicit CategoricalHinge(SimpleLossOptions options = {});
};

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
