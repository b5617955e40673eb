// Lion's update (keras/src/optimizers/lion.py).
#include "tfcc/keras/optimizers/lion.h"

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

Lion::Lion(LionOptions o) : Optimizer(config_of(o)), beta_1_(o.beta_1), beta_2_(o.beta_2) {
  TFCC_CHECK_ARG(beta_1_ > 0 && beta_1_ <= 1,
                 "Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer "
                 "degenerates to SignSGD. Received: beta_1=",
                 beta_1_, ".");
}

void Lion::build(const Variable& var) { add_slot(var, "momentum"); }

void Lion::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Variable& m = slot(var, "momentum");
  // The betas and 1 - beta in the variable's dtype, as Keras computes them.
  Tensor b1 = scalar_tensor(beta_1_, var.dtype()), b2 = scalar_tensor(beta_2_, var.dtype());
  Tensor direction = sign(add(multiply(m.read_value(), b1), multiply(g, subtract(1, b1))));
  var.assign_sub(multiply(lr, direction));
  direction = Tensor();
  m.assign(add(multiply(m.read_value(), b2), multiply(g, subtract(1, b2))));
}

const ConfigSchema<Optimizer>& Lion::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Lion, LionOptions>()
          .option("beta_1", &Lion::beta_1_, &LionOptions::beta_1)
          .option("beta_2", &Lion::beta_2_, &LionOptions::beta_2);
  return schema;
}

}  // namespace tfcc::keras::optimizers
