// Adafactor, keras.optimizers.Adafactor (Keras 3): second moments kept factored (a row and a
// column mean of the squared gradient) for variables of rank >= 2, with a step size relative to
// the variable's RMS.
//
//   tfcc::keras::optimizers::Adafactor adafactor({.learning_rate = 0.01});
//
// t is the step (iterations + 1); rms(x) = sqrt(mean(x^2)):
//   lr' = min(lr, 1 / sqrt(t)) when relative_step and lr is not a schedule;
//   rho = min(lr', 1 / sqrt(t));  alpha = max(epsilon_2, rms(var)) * rho;
//   G = g^2 + epsilon_1;  b = 1 - t^beta_2_decay;
//   rank >= 2: r = b r + (1 - b) mean(G, -1);  c = b c + (1 - b) mean(G, -2);
//              v = (r / mean(r, -1))[..., None] * c[..., None, :]
//   otherwise: v = b v + (1 - b) G;
//   u = g / sqrt(v);  var -= alpha * u / max(1, rms(u) / clip_threshold).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <unordered_map>

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of Adafactor (Keras 3's arguments and defaults).
struct AdafactorOptions {
  LearningRate learning_rate = 0.001;
  double beta_2_decay = -0.8;
  double epsilon_1 = 1e-30;
  double epsilon_2 = 1e-3;
  double clip_threshold = 1.0;
  bool relative_step = true;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Adafactor";
};

/// keras.optimizers.Adafactor. Per variable, in Keras 3's order: "r" and "c" (the factored
/// moments; for a variable of rank < 2, int32 scalar placeholders as Keras keeps), then
/// "velocity".
class Adafactor : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Adafactor)
 public:
  explicit Adafactor(AdafactorOptions options = {});

  std::string class_name() const override { return "Adafactor"; }

 protected:
  void build(const Variable& var) override;
  std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double beta_2_decay_, epsilon_1_, epsilon_2_, clip_threshold_;
  bool relative_step_;
  std::unordered_map<uint64_t, std::pair<Variable, Variable>> factors_;  // var id -> (r, c)
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
