// SGD's update (keras/optimizers/sgd.py).
#include "tfcc/keras/optimizers/sgd.h"

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/training/training.h"

namespace tfcc::keras::optimizers {

SGD::SGD(SGDOptions o) : Optimizer(config_of(o)), momentum_(o.momentum), nesterov_(o.nesterov) {
  TFCC_CHECK_ARG(momentum_ >= 0 && momentum_ <= 1,
                 "`momentum` must be between [0, 1]. Received: momentum=", momentum_);
}

void SGD::build(const Variable& var) {
  if (momentum_ != 0) add_slot(var, "m");
}

void SGD::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  // One fused pass over the variable (and its slot), in place: TF's ResourceApply* kernels.
  const Tensor& lr = coef[0];
  if (momentum_ == 0) {
    training::apply_gradient_descent(var, lr, g);  // var -= lr * g
    return;
  }
  // m = momentum * m - lr * g; var += m (nesterov: var += momentum * m - lr * g)
  training::apply_keras_momentum(var, slot(var, "m"), lr, g, momentum_, nesterov_);
}

const ConfigSchema<Optimizer>& SGD::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<SGD, SGDOptions>()
          .option("momentum", &SGD::momentum_, &SGDOptions::momentum)
          .option("nesterov", &SGD::nesterov_, &SGDOptions::nesterov);
  return schema;
}

}  // namespace tfcc::keras::optimizers
