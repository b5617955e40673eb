// Lamb's update (keras/src/optimizers/lamb.py).
#include "tfcc/keras/optimizers/lamb.h"

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

Lamb::Lamb(LambOptions o)
    : Optimizer(config_of(o)), beta_1_(o.beta_1), beta_2_(o.beta_2), epsilon_(o.epsilon) {}

void Lamb::build(const Variable& var) {
  add_slot(var, "momentum");
  add_slot(var, "velocity");
}

std::vector<Tensor> Lamb::step_coefficients(const Tensor& lr, const Tensor& t) {
  DType d = t.dtype();
  return {lr, pow(scalar_tensor(beta_1_, d), t), pow(scalar_tensor(beta_2_, d), t)};
}

void Lamb::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  const Variable& m = slot(var, "momentum");
  const Variable& v = slot(var, "velocity");
  Tensor dm = multiply(subtract(g, m.read_value()), 1 - beta_1_);
  m.assign_add(dm);
  Tensor dv = multiply(subtract(square(g), v.read_value()), 1 - beta_2_);
  v.assign_add(dv);
  Tensor m_hat = divide(m.read_value(), subtract(1, coef[1]));
  Tensor v_sqrt = add(sqrt(divide(v.read_value(), subtract(1, coef[2]))), epsilon_);
  Tensor update = divide(m_hat, v_sqrt);
  Tensor w_norm = sqrt(reduce_sum(square(var.read_value())));
  Tensor g_norm = sqrt(reduce_sum(square(update)));
  Tensor one = scalar_tensor(1, var.dtype());
  Tensor ratio =
      where(greater(w_norm, 0), where(greater(g_norm, 0), divide(w_norm, g_norm), one), one);
  var.assign_sub(multiply(multiply(ratio, lr), update));
}

const ConfigSchema<Optimizer>& Lamb::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Lamb, LambOptions>()
          .option("beta_1", &Lamb::beta_1_, &LambOptions::beta_1)
          .option("beta_2", &Lamb::beta_2_, &LambOptions::beta_2)
          .option("epsilon", &Lamb::epsilon_, &LambOptions::epsilon);
  return schema;
}

}  // namespace tfcc::keras::optimizers
