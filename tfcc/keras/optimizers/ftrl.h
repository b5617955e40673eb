// Ftrl: "Follow The Regularized Leader" (McMahan et al. 2013), tf.keras.optimizers.Ftrl
// (TF >= 2.11), with online L1/L2 and shrinkage-type L2 regularization.
//
//   tfcc::keras::optimizers::Ftrl ftrl({.l1_regularization_strength = 0.01});
//
// With p = -learning_rate_power, l2' = l2 + beta / (2 lr), g' = g + 2 l2_shrinkage var:
//   n' = n + g^2;  z += g' - (n'^p - n^p) / lr * var;  q = n'^p / lr + 2 l2';
//   var = (clip(z, -l1, l1) - z) / q;  n = n'.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of Ftrl.
struct FtrlOptions {
  LearningRate learning_rate = 0.001;
  double learning_rate_power = -0.5;
  double initial_accumulator_value = 0.1;
  double l1_regularization_strength = 0.0;
  double l2_regularization_strength = 0.0;
  double l2_shrinkage_regularization_strength = 0.0;
  double beta = 0.0;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Ftrl";
};

/// tf.keras.optimizers.Ftrl; slots "accumulator" (starting at initial_accumulator_value) and
/// "linear".
class Ftrl : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Ftrl)
 public:
  explicit Ftrl(FtrlOptions options = {});

  std::string class_name() const override { return "Ftrl"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  FtrlOptions options_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
