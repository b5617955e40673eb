// LossScaleOptimizer, keras.optimizers.LossScaleOptimizer (Keras 3): dynamic loss scaling around
// an inner optimizer, for mixed-precision training where small gradients would underflow.
//
//   namespace optimizers = tfcc::keras::optimizers;
//   optimizers::LossScaleOptimizer opt(std::make_shared<optimizers::Adam>());
//   tfcc::GradientTape tape;
//   tfcc::Tensor loss = opt.scale_loss(loss_fn(y, model(x)));   // loss * dynamic_scale
//   opt.apply_gradients(tape.gradient(loss, vars), vars);
//
// apply_gradients: when every gradient is finite, the inner optimizer applies them divided by
// the scale, and the scale doubles after dynamic_growth_steps such steps in a row; otherwise no
// variable changes and the scale halves (the run of finite steps restarts either way). The
// learning rate, iterations and EMA are the inner optimizer's. Variables in Keras 3's order: its
// own iteration (never incremented, as in Keras), "step_counter", "dynamic_scale", then the inner
// optimizer's iteration, learning rate and slots.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>

#include "tfcc/keras/optimizers/optimizer.h"

namespace tfcc::keras::optimizers {

/// Options of LossScaleOptimizer (Keras 3's arguments and defaults).
struct LossScaleOptimizerOptions {
  double initial_scale = 32768.0;  // 2^15
  int64_t dynamic_growth_steps = 2000;
  std::string name = "LossScaleOptimizer";
};

/// keras.optimizers.LossScaleOptimizer; InvalidArgumentError if `inner_optimizer` is null.
class LossScaleOptimizer : public Optimizer {
 public:
  explicit LossScaleOptimizer(std::shared_ptr<Optimizer> inner_optimizer,
                              LossScaleOptimizerOptions options = {});

  std::string class_name() const override { return "LossScaleOptimizer"; }
  /// Keras 3's config: name, inner_optimizer (serialized), initial_scale, dynamic_growth_steps.
  saving::Json get_config() const override;
  /// A LossScaleOptimizer from get_config's object; the shared optimizer keys are accepted only
  /// with their default values (Keras 3: "set them on the inner_optimizer").
  static std::shared_ptr<Optimizer> from_config(const saving::Json& config);

  Variable apply_gradients(std::span<const Tensor> grads, std::span<const Variable> vars) override;
  using Optimizer::apply_gradients;
  void build(std::span<const Variable> var_list) override;
  /// loss * the current scale (initial_scale before the first build).
  Tensor scale_loss(const Tensor& loss) const override;
  void finalize_variable_values(std::span<const Variable> var_list) override;
  std::vector<Variable> variables() const override;
  const Variable& iterations() const override { return inner_->iterations(); }
  Tensor learning_rate() const override { return inner_->learning_rate(); }
  void set_learning_rate(double rate) override { inner_->set_learning_rate(rate); }
  bool has_schedule() const override { return inner_->has_schedule(); }

  /// The wrapped optimizer.
  const std::shared_ptr<Optimizer>& inner_optimizer() const { return inner_; }
  /// The current loss scale (float32 scalar variable; undefined before build).
  const Variable& dynamic_scale() const { return dynamic_scale_; }
  /// Finite steps since the scale last changed (int64 scalar variable; undefined before build).
  const Variable& step_counter() const { return step_counter_; }

 protected:
  void build(const Variable&) override {}
  void update_step(const Tensor&, const Variable&, std::span<const Tensor>) override {}

 private:
  std::shared_ptr<Optimizer> inner_;
  double initial_scale_;
  int64_t dynamic_growth_steps_;
  Variable step_counter_, dynamic_scale_;
};

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
