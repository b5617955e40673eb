// SGD's update (keras/optimizers/sgd.py).
#include "tfcc/keras/optimizers/sgd.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

SGD::SGD(SGDOptions o) : Optimizer(config_of(o)), momentum_(o.momentum), nesterov_(o.nesterov) {
  TFCC_CHECK_ARG(momentum_ >= 0 && momentum_ <= 1,
                 "`momentum` must be between [0, 1]. Received: momentum=", momentum_);
}

void SGD::build(const Variable& var) {
  if (momentum_ != 0) add_slot(var, "m");
}

void SGD::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& lr = coef[0];
  if (momentum_ == 0) {
    var.assign_sub(multiply(g, lr));
    return;
  }
  const Variable& m = slot(var, "m");
  Tensor step = multiply(negative(g), lr);  // -g * lr
  m.assign(add(step, multiply(m.read_value(), momentum_)));
  if (nesterov_) {
    Tensor delta = add(step, multiply(m.read_value(), momentum_));
    var.assign_add(delta);
  } else {
    var.assign_add(m.read_value());
  }
}

}  // namespace tfcc::keras::optimizers
