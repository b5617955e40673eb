// Optimizers that scale by accumulated squared gradients: RMSprop, Adagrad and Adadelta, with
// tf.keras (TF >= 2.11) defaults and update rules.
//
//   tfcc::keras::optimizers::RMSprop rms({.momentum = 0.9, .centered = true});
//
// RMSprop:  v = rho v + (1 - rho) g^2; centered: a = rho a + (1 - rho) g, den = v - a^2 + eps,
//           else den = v + eps (eps inside the sqrt); inc = lr g / sqrt(den);
//           momentum > 0: mom = momentum mom + inc, var -= mom; else var -= inc.
// Adagrad:  acc += g^2 (acc starts at 0.1); var -= lr g / sqrt(acc + eps).
// Adadelta: Eg = rho Eg + (1 - rho) g^2; d = -sqrt(Edx + eps) / sqrt(Eg + eps) g;
//           Edx = rho Edx + (1 - rho) d^2; var += lr d.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of RMSprop.
struct RMSpropOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.9;
  double momentum = 0.0;
  double epsilon = 1e-7;
  bool centered = false;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "RMSprop";
};

/// tf.keras.optimizers.RMSprop; slots "velocity", "momentum" (momentum > 0) and
/// "average_gradient" (centered).
class RMSprop : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(RMSprop)
 public:
  explicit RMSprop(RMSpropOptions options = {});

  std::string class_name() const override { return "RMSprop"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double rho_, momentum_, epsilon_;
  bool centered_;
};

/// Options of Adagrad.
struct AdagradOptions {
  LearningRate learning_rate = 0.001;
  double initial_accumulator_value = 0.1;
  double epsilon = 1e-7;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Adagrad";
};

/// tf.keras.optimizers.Adagrad; slot "accumulator".
class Adagrad : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Adagrad)
 public:
  explicit Adagrad(AdagradOptions options = {});

  std::string class_name() const override { return "Adagrad"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double initial_accumulator_value_, epsilon_;
};

/// Options of Adadelta.
struct AdadeltaOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.95;
  double epsilon = 1e-7;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Adadelta";
};

/// tf.keras.optimizers.Adadelta; slots "accumulated_grad", "accumulated_delta_var".
class Adadelta : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Adadelta)
 public:
  explicit Adadelta(AdadeltaOptions options = {});

  std::string class_name() const override { return "Adadelta"; }

 protected:
  void build(const Variable& var) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double rho_, epsilon_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
