// The Adam family: Adam (with AMSGrad), AdamW, Adamax and Nadam, with tf.keras (TF >= 2.11)
// defaults and update rules. t is iterations + 1.
//
//   tfcc::keras::optimizers::Adam adam;                                  // lr 0.001
//   tfcc::keras::optimizers::AdamW adamw({.learning_rate = 3e-4, .weight_decay = 0.01});
//
// Adam:   m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2);
//         var -= m * lr sqrt(1 - b2^t) / (1 - b1^t) / (sqrt(v) + eps)   (eps outside the sqrt,
//         added to the uncorrected sqrt(v): Keras' "epsilon hat"); amsgrad uses max(v_hat, v).
// Adamax: m as Adam; u = max(b2 u, |g|); var -= lr m / ((1 - b1^t)(u + eps)).
// Nadam:  mu_t = b1 (1 - 0.5 * 0.96^t); with the running product P_t of mu,
//         m_hat = mu_{t+1} m / (1 - P_t mu_{t+1}) + (1 - mu_t) g / (1 - P_t);
//         var -= lr m_hat / (sqrt(v / (1 - b2^t)) + eps).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of Adam.
struct AdamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Adam";
};

/// tf.keras.optimizers.Adam; slots "m", "v" (and "vhat" with amsgrad).
class Adam : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Adam)
 public:
  explicit Adam(AdamOptions options = {});
  explicit Adam(LearningRate learning_rate) : Adam(AdamOptions{.learning_rate = learning_rate}) {}

  std::string class_name() const override { return "Adam"; }

 protected:
  Adam(OptimizerConfig config, double beta_1, double beta_2, double epsilon, bool amsgrad);
  void build(const Variable& var) override;
  std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 protected:
  double beta_1_, beta_2_, epsilon_;
  bool amsgrad_;
};

/// Options of AdamW (weight_decay defaults to 0.004 and is required).
struct AdamWOptions {
  LearningRate learning_rate = 0.001;
  double weight_decay = 0.004;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  std::optional<double> clipnorm;
  std::optional<double> clipvalue;
  std::optional<double> global_clipnorm;
  bool use_ema = false;
  double ema_momentum = 0.99;
  std::optional<int64_t> ema_overwrite_frequency;
  std::optional<double> loss_scale_factor;
  std::optional<int64_t> gradient_accumulation_steps;
  std::string name = "AdamW";
};

/// tf.keras.optimizers.AdamW: Adam with decoupled weight decay var -= var * wd * lr before the
/// Adam update.
class AdamW : public Adam {
  TFCC_KERAS_OPTIMIZER_CONFIG(AdamW)
 public:
  explicit AdamW(AdamWOptions options = {});
  std::string class_name() const override { return "AdamW"; }
};

/// Options of Adamax.
struct AdamaxOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Adamax";
};

/// tf.keras.optimizers.Adamax; slots "m", "u".
class Adamax : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Adamax)
 public:
  explicit Adamax(AdamaxOptions options = {});

  std::string class_name() const override { return "Adamax"; }

 protected:
  void build(const Variable& var) override;
  std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double beta_1_, beta_2_, epsilon_;
};

/// Options of Nadam.
struct NadamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  TFCC_KERAS_OPTIMIZER_COMMON_FIELDS
  std::string name = "Nadam";
};

/// tf.keras.optimizers.Nadam; slots "m", "v", then (after the slots of the first variables
/// built, as Keras 3 orders them) the scalar "u_product".
class Nadam : public Optimizer {
  TFCC_KERAS_OPTIMIZER_CONFIG(Nadam)
 public:
  explicit Nadam(NadamOptions options = {});
  void build(std::span<const Variable> var_list) override;

  std::string class_name() const override { return "Nadam"; }

 protected:
  void build(const Variable& var) override;
  void prepare_step(DType dtype) override;
  std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step) override;
  void update_step(const Tensor& gradient, const Variable& var,
                   std::span<const Tensor> coef) override;

 private:
  double beta_1_, beta_2_, epsilon_;
  Variable u_product_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
