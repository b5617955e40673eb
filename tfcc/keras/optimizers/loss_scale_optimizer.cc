// LossScaleOptimizer (keras/src/optimizers/loss_scale_optimizer.py, the TensorFlow path).
#include "tfcc/keras/optimizers/loss_scale_optimizer.h"

#include "tfcc/control_flow/control_flow.h"
#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/optimizers/serialization.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers {

using saving::Json;

LossScaleOptimizer::LossScaleOptimizer(std::shared_ptr<Optimizer> inner,
                                       LossScaleOptimizerOptions o)
    : Optimizer({.name = o.name, .learning_rate = 0.0}),
      inner_(std::move(inner)),
      initial_scale_(o.initial_scale),
      dynamic_growth_steps_(o.dynamic_growth_steps) {
  TFCC_CHECK_ARG(inner_ != nullptr, "LossScaleOptimizer: `inner_optimizer` is null");
  TFCC_CHECK_ARG(
      dynamic_growth_steps_ >= 1,
      "LossScaleOptimizer: `dynamic_growth_steps` must be >= 1. Received: ", dynamic_growth_steps_);
}

void LossScaleOptimizer::build(std::span<const Variable> var_list) {
  if (!step_counter_.defined()) {
    step_counter_ = add_variable(Tensor::scalar<int64_t>(0), "step_counter");
    dynamic_scale_ =
        add_variable(Tensor::scalar<float>(static_cast<float>(initial_scale_)), "dynamic_scale");
  }
  inner_->build(var_list);
  Optimizer::build(var_list);
}

std::vector<Variable> LossScaleOptimizer::variables() const {
  std::vector<Variable> out = Optimizer::variables();  // iteration, step_counter, dynamic_scale
  std::vector<Variable> inner = inner_->variables();
  out.push_back(inner.front());
  // Keras 3 lists the inner optimizer's learning-rate variable after its iteration.
  if (inner_->learning_rate_variable().defined()) out.push_back(inner_->learning_rate_variable());
  out.insert(out.end(), inner.begin() + 1, inner.end());
  return out;
}

Tensor LossScaleOptimizer::scale_loss(const Tensor& loss) const {
  if (!dynamic_scale_.defined()) return multiply(loss, initial_scale_);
  return multiply(loss, cast(dynamic_scale_.read_value(), loss.dtype()));
}

void LossScaleOptimizer::finalize_variable_values(std::span<const Variable> var_list) {
  inner_->finalize_variable_values(var_list);
}

Variable LossScaleOptimizer::apply_gradients(std::span<const Tensor> grads,
                                             std::span<const Variable> vars) {
  TFCC_CHECK_ARG(grads.size() == vars.size(), "apply_gradients: got ", grads.size(),
                 " gradients for ", vars.size(), " variables");
  build(vars);
  std::vector<Tensor> finite;
  for (const Tensor& g : grads) {
    if (g.defined()) finite.push_back(reduce_all(is_finite(g)));
  }
  TFCC_CHECK_ARG(!finite.empty(), "No gradients provided for any variable.");
  Tensor all_finite = finite.front();
  for (size_t i = 1; i < finite.size(); ++i) all_finite = logical_and(all_finite, finite[i]);
  cond(
      all_finite,
      [&] {
        Tensor scale = dynamic_scale_.read_value();
        std::vector<Tensor> unscaled;
        for (const Tensor& g : grads) {
          unscaled.push_back(g.defined() ? divide(g, cast(scale, g.dtype())) : g);
        }
        inner_->apply_gradients(unscaled, vars);
        // Double the scale after dynamic_growth_steps finite steps in a row.
        Tensor grow = equal(step_counter_.read_value(), dynamic_growth_steps_ - 1);
        Tensor counter =
            where(grow, Tensor::scalar<int64_t>(0), add(step_counter_.read_value(), int64_t{1}));
        step_counter_.assign(counter);
        dynamic_scale_.assign(
            where(grow, multiply(dynamic_scale_.read_value(), 2.0), dynamic_scale_.read_value()));
        return std::vector<Tensor>{};
      },
      [&] {
        step_counter_.assign(Tensor::scalar<int64_t>(0));
        dynamic_scale_.assign(multiply(dynamic_scale_.read_value(), 0.5));
        return std::vector<Tensor>{};
      });
  return inner_->iterations();
}

Json LossScaleOptimizer::get_config() const {
  Json c = Json::object();
  c.set("name", Json(name()));
  // Without tf.keras 2's keys, which Keras 3 refuses (tfcc reads the config either way).
  Json inner = serialize(*inner_);
  Json kept = Json::object();
  for (const auto& [key, value] : inner.at("config").members()) {
    if (key != "jit_compile" && key != "is_legacy_optimizer") kept.set(key, value);
  }
  inner.set("config", kept);
  c.set("inner_optimizer", inner);
  c.set("initial_scale", Json(initial_scale_));
  c.set("dynamic_growth_steps", Json(dynamic_growth_steps_));
  return c;
}

std::shared_ptr<Optimizer> LossScaleOptimizer::from_config(const Json& c) {
  LossScaleOptimizerOptions o;
  if (const Json* n = c.find("name"); n && !n->is_null()) o.name = n->as_string("name");
  if (const Json* v = c.find("initial_scale")) {
    config::Codec<double>::read(*v, o.initial_scale, "initial_scale");
  }
  if (const Json* v = c.find("dynamic_growth_steps")) {
    config::Codec<int64_t>::read(*v, o.dynamic_growth_steps, "dynamic_growth_steps");
  }
  if (const Json* v = c.find("dynamic")) {
    TFCC_CHECK_ARG(v->is_null() || v->as_bool("dynamic"),
                   "LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                   "`loss_scale_factor` directly on the `inner_optimizer`.");
  }
  // Keras 3 accepts the shared keys only at their defaults (older configs wrote them).
  for (const char* key :
       {"weight_decay", "clipnorm", "global_clipnorm", "clipvalue", "ema_overwrite_frequency",
        "loss_scale_factor", "gradient_accumulation_steps"}) {
    const Json* v = c.find(key);
    TFCC_CHECK_ARG(!v || v->is_null(), "LossScaleOptimizer does not support `", key,
                   "`. Instead, set `", key, "` on the `inner_optimizer`.");
  }
  const Json* ema = c.find("use_ema");
  TFCC_CHECK_ARG(!ema || ema->is_null() || !ema->as_bool("use_ema"),
                 "LossScaleOptimizer does not support `use_ema`. Instead, set `use_ema` on the "
                 "`inner_optimizer`.");
  const Json* momentum = c.find("ema_momentum");
  TFCC_CHECK_ARG(!momentum || momentum->is_null() || momentum->as_number() == 0.99,
                 "LossScaleOptimizer does not support `ema_momentum`. Instead, set "
                 "`ema_momentum` on the `inner_optimizer`.");
  return std::make_shared<LossScaleOptimizer>(
      deserialize(c.at("inner_optimizer", "LossScaleOptimizer config")), std::move(o));
}

}  // namespace tfcc::keras::optimizers
