// Lion (EvoLved Sign Momentum), keras.optimizers.Lion (Keras 3): the update is the sign of an
// interpolation between the momentum and the gradient.
//
//   tfcc::keras::optimizers::Lion lion({.learning_rate = 1e-4, .weight_decay = 0.1});
//   lion.apply_gradients(grads, vars);
//
// With b1 = beta_1 and b2 = beta_2 in the variable's dtype:
//   var -= lr * sign(b1 m + (1 - b1) g);   m = b2 m + (1 - b2) g   (m updated after var).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of Lion (Keras 3's arguments and defaults).
struct LionOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.99;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Lion";
};

/// keras.optimizers.Lion; slot "momentum". InvalidArgumentError unless 0 < beta_1 <= 1.
class Lion : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Lion)
 public:
  explicit Lion(LionOptions options = {});

  std::string class_name() const override { return "Lion"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double beta_1_, beta_2_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
