// RMSprop, Adagrad and Adadelta updates (keras/optimizers/{rmsprop,adagrad,adadelta}.py).
#include "tfcc/keras/optimizers/rmsprop.h"

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

RMSprop::RMSprop(RMSpropOptions o)
    : Optimizer(config_of(o)),
      rho_(o.rho),
      momentum_(o.momentum),
      epsilon_(o.epsilon),
      centered_(o.centered) {}

void RMSprop::build(const Variable& var) {
  add_slot(var, "velocity");
  if (momentum_ > 0) add_slot(var, "momentum");
  if (centered_) add_slot(var, "average_gradient");
}

void RMSprop::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Variable& velocity = slot(var, "velocity");
  velocity.assign(add(multiply(velocity.read_value(), rho_), multiply(square(g), 1 - rho_)));
  Tensor denominator;
  if (centered_) {
    const Variable& average = slot(var, "average_gradient");
    average.assign(add(multiply(average.read_value(), rho_), multiply(g, 1 - rho_)));
    denominator = add(subtract(velocity.read_value(), square(average.read_value())), epsilon_);
  } else {
    denominator = add(velocity.read_value(), epsilon_);
  }
  Tensor increment = multiply(multiply(lr, g), rsqrt(denominator));
  denominator = Tensor();
  if (momentum_ > 0) {
    const Variable& mom = slot(var, "momentum");
    mom.assign(add(multiply(mom.read_value(), momentum_), increment));
    var.assign_sub(mom.read_value());
  } else {
    var.assign_sub(increment);
  }
}

Adagrad::Adagrad(AdagradOptions o)
    : Optimizer(config_of(o)),
      initial_accumulator_value_(o.initial_accumulator_value),
      epsilon_(o.epsilon) {
  TFCC_CHECK_ARG(initial_accumulator_value_ >= 0,
                 "`initial_accumulator_value` needs to be positive or zero. Received: "
                 "initial_accumulator_value=",
                 initial_accumulator_value_);
}

void Adagrad::build(const Variable& var) {
  add_slot(var, "accumulator", initial_accumulator_value_);
}

void Adagrad::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Variable& accumulator = slot(var, "accumulator");
  Tensor g2 = multiply(g, g);
  accumulator.assign_add(g2);
  g2 = Tensor();
  Tensor update = divide(multiply(lr, g), sqrt(add(accumulator.read_value(), epsilon_)));
  var.assign_sub(update);
}

Adadelta::Adadelta(AdadeltaOptions o) : Optimizer(config_of(o)), rho_(o.rho), epsilon_(o.epsilon) {}

void Adadelta::build(const Variable& var) {
  add_slot(var, "accumulated_grad");
  add_slot(var, "accumulated_delta_var");
}

void Adadelta::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Variable& grad_acc = slot(var, "accumulated_grad");
  const Variable& delta_acc = slot(var, "accumulated_delta_var");
  auto rms = [&](const Tensor& x) { return sqrt(add(x, epsilon_)); };
  grad_acc.assign(add(multiply(grad_acc.read_value(), rho_), multiply(multiply(g, g), 1 - rho_)));
  Tensor delta =
      divide(multiply(negative(rms(delta_acc.read_value())), g), rms(grad_acc.read_value()));
  delta_acc.assign(
      add(multiply(delta_acc.read_value(), rho_), multiply(multiply(delta, delta), 1 - rho_)));
  var.assign_add(multiply(lr, delta));
}

// ---- configs ------------------------------------------------------------------------------

const ConfigSchema<Optimizer>& RMSprop::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<RMSprop, RMSpropOptions>()
          .option("rho", &RMSprop::rho_, &RMSpropOptions::rho)
          .option("momentum", &RMSprop::momentum_, &RMSpropOptions::momentum)
          .option("epsilon", &RMSprop::epsilon_, &RMSpropOptions::epsilon)
          .option("centered", &RMSprop::centered_, &RMSpropOptions::centered);
  return schema;
}

const ConfigSchema<Optimizer>& Adagrad::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Adagrad, AdagradOptions>()
          .option("initial_accumulator_value", &Adagrad::initial_accumulator_value_,
                  &AdagradOptions::initial_accumulator_value)
          .option("epsilon", &Adagrad::epsilon_, &AdagradOptions::epsilon);
  return schema;
}

const ConfigSchema<Optimizer>& Adadelta::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Adadelta, AdadeltaOptions>()
          .option("rho", &Adadelta::rho_, &AdadeltaOptions::rho)
          .option("epsilon", &Adadelta::epsilon_, &AdadeltaOptions::epsilon);
  return schema;
}

}  // namespace tfcc::keras::optimizers
