// Adam, AdamW, Adamax and Nadam updates (keras/optimizers/{adam,adamw,adamax,nadam}.py).
// Slot updates are written as "compute the delta, then assign_add it" in separate statements so
// that no read of the slot is alive during the update, letting AssignAddVariableOp work in place.
#include "tfcc/keras/optimizers/adam.h"

#include "tfcc/keras/optimizers/concrete.h"
#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/training/training.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {
namespace {

// m += (g - m) * rate, in place.
void move_towards(const Variable& m, const Tensor& g, double rate) {
  Tensor delta = multiply(subtract(g, m.read_value()), rate);
  m.assign_add(delta);
}

// v += (g^2 - v) * rate, in place.
void move_square_towards(const Variable& v, const Tensor& g, double rate) {
  Tensor delta = multiply(subtract(square(g), v.read_value()), rate);
  v.assign_add(delta);
}

Tensor power(double base, const Tensor& exponent) {
  return pow(scalar_tensor(base, exponent.dtype()), exponent);
}

}  // namespace

Adam::Adam(AdamOptions o) : Adam(config_of(o), o.beta_1, o.beta_2, o.epsilon, o.amsgrad) {}

Adam::Adam(OptimizerConfig config, double beta_1, double beta_2, double epsilon, bool amsgrad)
    : Optimizer(std::move(config)),
      beta_1_(beta_1),
      beta_2_(beta_2),
      epsilon_(epsilon),
      amsgrad_(amsgrad) {}

void Adam::build(const Variable& var) {
  add_slot(var, "m");
  add_slot(var, "v");
  if (amsgrad_) add_slot(var, "vhat");
}

std::vector<Tensor> Adam::step_coefficients(const Tensor& lr, const Tensor& t) {
  Tensor beta_1_power = power(beta_1_, t), beta_2_power = power(beta_2_, t);
  if (!amsgrad_) return {lr, beta_1_power, beta_2_power};
  Tensor alpha = divide(multiply(lr, sqrt(subtract(1, beta_2_power))), subtract(1, beta_1_power));
  return {alpha};
}

void Adam::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Variable& m = slot(var, "m");
  const Variable& v = slot(var, "v");
  if (!amsgrad_) {
    // The same formulas in one fused pass over var, m and v (TF's ResourceApplyAdam).
    training::apply_adam(var, m, v, coef[1], coef[2], coef[0], beta_1_, beta_2_, epsilon_, g);
    return;
  }
  const Tensor& alpha = coef[0];
  move_towards(m, g, 1 - beta_1_);
  move_square_towards(v, g, 1 - beta_2_);
  Tensor v_used;
  if (amsgrad_) {
    const Variable& v_hat = slot(var, "vhat");
    v_hat.assign(maximum(v_hat.read_value(), v.read_value()));
    v_used = v_hat.read_value();
  } else {
    v_used = v.read_value();
  }
  Tensor update = divide(multiply(m.read_value(), alpha), add(sqrt(v_used), epsilon_));
  v_used = Tensor();
  var.assign_sub(update);
}

AdamW::AdamW(AdamWOptions o)
    : Adam({.name = o.name,
            .learning_rate = o.learning_rate,
            .weight_decay = o.weight_decay,
            .clipnorm = o.clipnorm,
            .clipvalue = o.clipvalue,
            .global_clipnorm = o.global_clipnorm,
            .use_ema = o.use_ema,
            .ema_momentum = o.ema_momentum,
            .ema_overwrite_frequency = o.ema_overwrite_frequency,
            .loss_scale_factor = o.loss_scale_factor,
            .gradient_accumulation_steps = o.gradient_accumulation_steps},
           o.beta_1, o.beta_2, o.epsilon, o.amsgrad) {}

Adamax::Adamax(AdamaxOptions o)
    : Optimizer(config_of(o)), beta_1_(o.beta_1), beta_2_(o.beta_2), epsilon_(o.epsilon) {}

void Adamax::build(const Variable& var) {
  add_slot(var, "m");
  add_slot(var, "u");
}

std::vector<Tensor> Adamax::step_coefficients(const Tensor& lr, const Tensor& t) {
  return {lr, subtract(1, power(beta_1_, t))};
}

void Adamax::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Tensor& bias = coef[1];  // 1 - b1^t
  const Variable& m = slot(var, "m");
  const Variable& u = slot(var, "u");
  move_towards(m, g, 1 - beta_1_);
  u.assign(maximum(multiply(u.read_value(), beta_2_), abs(g)));
  Tensor update =
      divide(multiply(m.read_value(), lr), multiply(add(u.read_value(), epsilon_), bias));
  var.assign_sub(update);
}

Nadam::Nadam(NadamOptions o)
    : Optimizer(config_of(o)), beta_1_(o.beta_1), beta_2_(o.beta_2), epsilon_(o.epsilon) {}

void Nadam::build(std::span<const Variable> var_list) {
  Optimizer::build(var_list);
  // Keras 3 creates the running product after the slots, in the first variable's dtype.
  if (!u_product_.defined() && !var_list.empty()) {
    u_product_ =
        add_variable(detail::concrete_fill(var_list[0].dtype(), Shape{}, 1.0), "u_product");
  }
}

void Nadam::build(const Variable& var) {
  add_slot(var, "m");
  add_slot(var, "v");
}

void Nadam::prepare_step(DType) {
  // The running product of the momentum schedule advances once per step, for all variables.
  DType d = u_product_.dtype();
  Tensor t = cast(local_step(), d);
  Tensor u_t = multiply(subtract(1, multiply(power(0.96, t), 0.5)), beta_1_);
  u_product_.assign(multiply(u_product_.read_value(), u_t));
}

std::vector<Tensor> Nadam::step_coefficients(const Tensor& lr, const Tensor& t) {
  DType d = t.dtype();
  Tensor u_t = multiply(subtract(1, multiply(power(0.96, t), 0.5)), beta_1_);
  Tensor u_t1 = multiply(subtract(1, multiply(power(0.96, add(t, 1)), 0.5)), beta_1_);
  Tensor u_product_t = u_product_.read_value();
  if (u_product_t.dtype() != d) u_product_t = cast(u_product_t, d);
  Tensor m_coef = divide(u_t1, subtract(1, multiply(u_product_t, u_t1)));
  Tensor g_coef = divide(subtract(1, u_t), subtract(1, u_product_t));
  Tensor v_coef = reciprocal(subtract(1, power(beta_2_, t)));
  return {lr, m_coef, g_coef, v_coef};
}

void Nadam::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Variable& m = slot(var, "m");
  const Variable& v = slot(var, "v");
  move_towards(m, g, 1 - beta_1_);
  move_square_towards(v, g, 1 - beta_2_);
  Tensor m_hat = add(multiply(m.read_value(), coef[1]), multiply(g, coef[2]));
  Tensor v_hat = multiply(v.read_value(), coef[3]);
  Tensor update = divide(multiply(m_hat, coef[0]), add(sqrt(v_hat), epsilon_));
  var.assign_sub(update);
}

// ---- configs: beta_1, beta_2, epsilon (and amsgrad), in Keras' order ----------------------

const ConfigSchema<Optimizer>& Adam::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Adam, AdamOptions>()
          .option("beta_1", &Adam::beta_1_, &AdamOptions::beta_1)
          .option("beta_2", &Adam::beta_2_, &AdamOptions::beta_2)
          .option("epsilon", &Adam::epsilon_, &AdamOptions::epsilon)
          .option("amsgrad", &Adam::amsgrad_, &AdamOptions::amsgrad);
  return schema;
}

const ConfigSchema<Optimizer>& AdamW::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<AdamW, AdamWOptions>()
          .option("beta_1", &AdamW::beta_1_, &AdamWOptions::beta_1)
          .option("beta_2", &AdamW::beta_2_, &AdamWOptions::beta_2)
          .option("epsilon", &AdamW::epsilon_, &AdamWOptions::epsilon)
          .option("amsgrad", &AdamW::amsgrad_, &AdamWOptions::amsgrad);
  return schema;
}

const ConfigSchema<Optimizer>& Adamax::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Adamax, AdamaxOptions>()
          .option("beta_1", &Adamax::beta_1_, &AdamaxOptions::beta_1)
          .option("beta_2", &Adamax::beta_2_, &AdamaxOptions::beta_2)
          .option("epsilon", &Adamax::epsilon_, &AdamaxOptions::epsilon);
  return schema;
}

const ConfigSchema<Optimizer>& Nadam::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Nadam, NadamOptions>()
          .option("beta_1", &Nadam::beta_1_, &NadamOptions::beta_1)
          .option("beta_2", &Nadam::beta_2_, &NadamOptions::beta_2)
          .option("epsilon", &Nadam::epsilon_, &NadamOptions::epsilon);
  return schema;
}

}  // namespace tfcc::keras::optimizers
