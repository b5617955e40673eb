// Ftrl's update (keras/optimizers/ftrl.py).
#include "tfcc/keras/optimizers/ftrl.h"

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

Ftrl::Ftrl(FtrlOptions o) : Optimizer(config_of(o)), options_(std::move(o)) {
  TFCC_CHECK_ARG(options_.initial_accumulator_value >= 0,
                 "`initial_accumulator_value` needs to be positive or zero. Received: "
                 "initial_accumulator_value=",
                 options_.initial_accumulator_value);
  TFCC_CHECK_ARG(options_.learning_rate_power <= 0,
                 "`learning_rate_power` needs to be negative or zero. Received: "
                 "learning_rate_power=",
                 options_.learning_rate_power);
  TFCC_CHECK_ARG(options_.l1_regularization_strength >= 0,
                 "`l1_regularization_strength` needs to be positive or zero. Received: "
                 "l1_regularization_strength=",
                 options_.l1_regularization_strength);
  TFCC_CHECK_ARG(options_.l2_regularization_strength >= 0,
                 "`l2_regularization_strength` needs to be positive or zero. Received: "
                 "l2_regularization_strength=",
                 options_.l2_regularization_strength);
  TFCC_CHECK_ARG(options_.l2_shrinkage_regularization_strength >= 0,
                 "`l2_shrinkage_regularization_strength` needs to be positive or zero. "
                 "Received: l2_shrinkage_regularization_strength=",
                 options_.l2_shrinkage_regularization_strength);
}

void Ftrl::build(const Variable& var) {
  add_slot(var, "accumulator", options_.initial_accumulator_value);
  add_slot(var, "linear");
}

void Ftrl::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  DType d = var.dtype();
  const Variable& accum = slot(var, "accumulator");
  const Variable& linear = slot(var, "linear");
  Tensor neg_power = scalar_tensor(-options_.learning_rate_power, d);
  Tensor l2_reg =
      add(divide(options_.beta, multiply(lr, 2.0)), options_.l2_regularization_strength);
  Tensor value = var.read_value();
  Tensor grad_to_use = add(g, multiply(value, 2 * options_.l2_shrinkage_regularization_strength));
  Tensor old_accum = accum.read_value();
  Tensor new_accum = add(old_accum, square(g));
  Tensor new_pow = pow(new_accum, neg_power);
  Tensor sigma = divide(subtract(new_pow, pow(old_accum, neg_power)), lr);
  linear.assign_add(subtract(grad_to_use, multiply(sigma, value)));
  Tensor quadratic = add(divide(new_pow, lr), multiply(l2_reg, 2.0));
  Tensor z = linear.read_value();
  double l1 = options_.l1_regularization_strength;
  var.assign(divide(subtract(clip_by_value(z, -l1, l1), z), quadratic));
  accum.assign(new_accum);
}

const ConfigSchema<Optimizer>& Ftrl::config_schema() {
  // Ftrl keeps its options struct: each key is read from the same field it is written to.
  auto opt = [](auto field) { return [field](const Ftrl& f) { return f.options_.*field; }; };
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Ftrl, FtrlOptions>()
          .option("learning_rate_power", opt(&FtrlOptions::learning_rate_power),
                  &FtrlOptions::learning_rate_power)
          .option("initial_accumulator_value", opt(&FtrlOptions::initial_accumulator_value),
                  &FtrlOptions::initial_accumulator_value)
          .option("l1_regularization_strength", opt(&FtrlOptions::l1_regularization_strength),
                  &FtrlOptions::l1_regularization_strength)
          .option("l2_regularization_strength", opt(&FtrlOptions::l2_regularization_strength),
                  &FtrlOptions::l2_regularization_strength)
          .option("l2_shrinkage_regularization_strength",
                  opt(&FtrlOptions::l2_shrinkage_regularization_strength),
                  &FtrlOptions::l2_shrinkage_regularization_strength)
          .option("beta", opt(&FtrlOptions::beta), &FtrlOptions::beta);
  return schema;
}

}  // namespace tfcc::keras::optimizers
