// Adafactor's update (keras/src/optimizers/adafactor.py).
#include "tfcc/keras/optimizers/adafactor.h"

#include "tfcc/keras/optimizers/concrete.h"
#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {
namespace {

Tensor rms(const Tensor& x) { return sqrt(reduce_mean(square(x))); }

}  // namespace

Adafactor::Adafactor(AdafactorOptions o)
    : Optimizer(config_of(o)),
      beta_2_decay_(o.beta_2_decay),
      epsilon_1_(o.epsilon_1),
      epsilon_2_(o.epsilon_2),
      clip_threshold_(o.clip_threshold),
      relative_step_(o.relative_step) {}

void Adafactor::build(const Variable& var) {
  const Shape& shape = var.shape();
  const std::string& name = var.name();
  if (shape.rank() < 2) {
    // Keras keeps int32 zero scalars in their place, saved with the other variables.
    factors_[var.id()] = {add_variable(Tensor::scalar<int32_t>(0), "r/" + name),
                          add_variable(Tensor::scalar<int32_t>(0), "c/" + name)};
  } else {
    std::vector<int64_t> dims = shape.dims();
    std::vector<int64_t> r_dims(dims.begin(), dims.end() - 1);
    std::vector<int64_t> c_dims(dims.begin(), dims.end() - 2);
    c_dims.push_back(dims.back());
    factors_[var.id()] = {
        add_variable(detail::concrete_fill(var.dtype(), Shape(r_dims), 0), "r/" + name),
        add_variable(detail::concrete_fill(var.dtype(), Shape(c_dims), 0), "c/" + name)};
  }
  add_slot(var, "velocity");
}

std::vector<Tensor> Adafactor::step_coefficients(const Tensor& lr, const Tensor& t) {
  Tensor inv_sqrt_t = divide(1, sqrt(t));
  Tensor rate = !has_schedule() && relative_step_ ? minimum(lr, inv_sqrt_t) : lr;
  Tensor rho = minimum(rate, inv_sqrt_t);
  Tensor beta_2_t = subtract(1, pow(t, beta_2_decay_));
  return {rho, beta_2_t};
}

void Adafactor::update_step(const Tensor& g, const Variable& var, std::span<const Tensor> coef) {
  const Tensor& rho = coef[0];
  const Tensor& b = coef[1];
  Tensor one_minus_b = subtract(1, b);
  const Variable& v = slot(var, "velocity");
  Tensor alpha =
      multiply(maximum(scalar_tensor(epsilon_2_, var.dtype()), rms(var.read_value())), rho);
  Tensor regulated = add(square(g), epsilon_1_);
  if (var.shape().rank() >= 2) {
    const auto& [r, c] = factors_.at(var.id());
    r.assign(add(multiply(b, r.read_value()), multiply(one_minus_b, reduce_mean(regulated, -1))));
    c.assign(add(multiply(b, c.read_value()), multiply(one_minus_b, reduce_mean(regulated, -2))));
    Tensor rv = r.read_value();
    Tensor row = expand_dims(divide(rv, reduce_mean(rv, -1, true)), -1);
    v.assign(multiply(row, expand_dims(c.read_value(), -2)));
  } else {
    v.assign(add(multiply(b, v.read_value()), multiply(one_minus_b, regulated)));
  }
  Tensor u = divide(g, sqrt(v.read_value()));
  Tensor u_hat = divide(u, maximum(scalar_tensor(1, var.dtype()), divide(rms(u), clip_threshold_)));
  var.assign_sub(multiply(alpha, u_hat));
}

const ConfigSchema<Optimizer>& Adafactor::config_schema() {
  static const ConfigSchema<Optimizer> schema =
      optimizer_schema<Adafactor, AdafactorOptions>()
          .option("beta_2_decay", &Adafactor::beta_2_decay_, &AdafactorOptions::beta_2_decay)
          .option("epsilon_1", &Adafactor::epsilon_1_, &AdafactorOptions::epsilon_1)
          .option("epsilon_2", &Adafactor::epsilon_2_, &AdafactorOptions::epsilon_2)
          .option("clip_threshold", &Adafactor::clip_threshold_, &AdafactorOptions::clip_threshold)
          .option("relative_step", &Adafactor::relative_step_, &AdafactorOptions::relative_step);
  return schema;
}

}  // namespace tfcc::keras::optimizers
