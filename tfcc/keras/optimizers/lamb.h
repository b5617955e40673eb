// Lamb (Layer-wise Adaptive Moments), keras.optimizers.Lamb (Keras 3): Adam's direction scaled
// per variable by the trust ratio ||var|| / ||direction||.
//
//   tfcc::keras::optimizers::Lamb lamb({.learning_rate = 1e-3, .weight_decay = 0.01});
//
// t is the step (iterations + 1):
//   m += (g - m)(1 - b1);  v += (g^2 - v)(1 - b2);
//   u = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps);
//   ratio = ||var|| / ||u|| when both norms are > 0, else 1;  var -= ratio * lr * u.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of Lamb (Keras 3's arguments and defaults).
struct LambOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Lamb";
};

/// keras.optimizers.Lamb; slots "momentum" and "velocity".
class Lamb : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Lamb)
 public:
  explicit Lamb(LambOptions options = {});

  std::string class_name() const override { return "Lamb"; }

 protected:
  void build(const Variable& var) override;
  std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double beta_1_, beta_2_, epsilon_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
