// SGD: gradient descent with optional (Nesterov) momentum, tf.keras.optimizers.SGD (TF >= 2.11).
//
//   tfcc::keras::optimizers::SGD sgd({.learning_rate = 0.1, .momentum = 0.9, .nesterov = true});
//
// Without momentum: var -= lr * g. With momentum: m = momentum * m - lr * g, then var += m, or
// with Nesterov var += momentum * m - lr * g (using the new m).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of SGD.
struct SGDOptions {
  LearningRate learning_rate = 0.01;
  double momentum = 0.0;
  bool nesterov = false;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "SGD";
};

/// tf.keras.optimizers.SGD. The momentum slot "m" exists only when momentum > 0 (with 0 Keras'
/// update reduces to plain descent, which is what runs).
class SGD : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(SGD)
 public:
  explicit SGD(SGDOptions options = {});
  explicit SGD(LearningRate learning_rate) : SGD(SGDOptions{.learning_rate = learning_rate}) {}

  std::string class_name() const override { return "SGD"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double momentum_;
  bool nesterov_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
