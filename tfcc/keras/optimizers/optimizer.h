// keras::optimizers::Optimizer: the base of the Keras optimizers, with TF 2.11+ semantics.
//
// apply_gradients(grads, vars) follows Keras 3's BaseOptimizer.apply: it divides the gradients
// by `loss_scale_factor` (if set), clips them (clipnorm / global_clipnorm / clipvalue, at most
// one), applies decoupled weight decay (var -= var * weight_decay * lr), runs the optimizer's
// update on each variable, updates the exponential moving averages (use_ema) and then increments
// `iterations`. With gradient_accumulation_steps = n, n - 1 calls only add the gradients to
// accumulators and every n-th call updates with their mean (the step t the update rules see is
// then iterations // n + 1; schedules still see iterations). Slot variables (Adam's m and v, ...)
// are created the first time a variable is seen, after the EMA averages and the gradient
// accumulators of all the variables built together (Keras 3's variable order). Every step is
// made of ops (variable reads and Assign / AssignAdd / AssignSub, tfcc::cond for accumulation),
// so a training step traced with tfcc::function includes the update.
//
//   namespace optimizers = tfcc::keras::optimizers;
//   optimizers::Adam adam({.learning_rate = 1e-3, .clipnorm = 1.0});
//   tfcc::GradientTape tape;
//   auto loss = loss_fn(y, model(x));
//   adam.apply_gradients(tape.gradient(loss, vars), vars);
//   adam.minimize([&] { return loss_fn(y, model(x)); }, vars);   // the same in one call
//   adam.iterations();                                             // int64 Variable
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"
#include "tfcc/keras/optimizers/schedules/learning_rate_schedule.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc {
class GradientTape;
}

namespace tfcc::keras::optimizers {

/// A learning rate: a number or a schedule of the step.
class LearningRate {
 public:
  /// A constant rate.
  template <typename T>
  requires std::is_arithmetic_v<T> LearningRate(T value)  // NOLINT: implicit by design
      : value_(static_cast<double>(value)) {}
  /// A schedule (taken by value, shared).
  template <std::derived_from<schedules::LearningRateSchedule> S>
  LearningRate(S schedule)  // NOLINT: implicit by design
      : schedule_(std::make_shared<S>(std::move(schedule))) {}
  /// A schedule the caller keeps a handle to.
  LearningRate(std::shared_ptr<schedules::LearningRateSchedule> schedule)  // NOLINT
      : schedule_(std::move(schedule)) {}

  /// The constant value (when not a schedule).
  double value() const { return value_; }
  /// The schedule, or null.
  const std::shared_ptr<schedules::LearningRateSchedule>& schedule() const { return schedule_; }

 private:
  double value_ = 0;
  std::shared_ptr<schedules::LearningRateSchedule> schedule_;
};

class Optimizer;
template <typename Base>
class ConfigSchema;  // optimizer_schema.h
/// A new optimizer from `config` by `schema`.
std::shared_ptr<Optimizer> from_config(const ConfigSchema<Optimizer>& schema,
                                       const saving::Json& config);

/// Settings every optimizer shares (the common keyword arguments of tf.keras optimizers).
struct OptimizerConfig {
  std::string name;
  LearningRate learning_rate = 0.001;
  std::optional<double> weight_decay;
  std::optional<double> clipnorm;
  std::optional<double> clipvalue;
  std::optional<double> global_clipnorm;
  /// Keeps an exponential moving average of each variable (slot "average").
  bool use_ema = false;
  /// average = ema_momentum * average + (1 - ema_momentum) * var (the first step copies var).
  double ema_momentum = 0.99;
  /// Every this many steps the variables are overwritten by their averages (none: only
  /// finalize_variable_values does it).
  std::optional<int64_t> ema_overwrite_frequency;
  /// scale_loss multiplies the loss by it and apply_gradients divides the gradients by it.
  std::optional<double> loss_scale_factor;
  /// Update every this many calls (>= 2) with the mean of the accumulated gradients.
  std::optional<int64_t> gradient_accumulation_steps;
};

/// Base of the optimizers.
class Optimizer {
 public:
  /// InvalidArgumentError if more than one clipping option is set.
  explicit Optimizer(OptimizerConfig config);
  virtual ~Optimizer() = default;
  /// Movable (compile moves optimizer values into shared_ptrs); not copyable, since a copy would
  /// share iterations and slots with the original.
  Optimizer(Optimizer&&) = default;
  Optimizer& operator=(Optimizer&&) = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  /// Applies one update: grads[i] is the gradient for vars[i]; undefined gradients (None) are
  /// skipped with a warning, all undefined is an InvalidArgumentError. Returns `iterations`.
  virtual Variable apply_gradients(std::span<const Tensor> grads, std::span<const Variable> vars);
  /// The same with (gradient, variable) pairs.
  Variable apply_gradients(const std::vector<std::pair<Tensor, Variable>>& grads_and_vars);
  /// Gradients of `loss()` with respect to `var_list`, recorded on a fresh tape.
  std::vector<Tensor> compute_gradients(const std::function<Tensor()>& loss,
                                        const std::vector<Variable>& var_list);
  /// compute_gradients then apply_gradients.
  Variable minimize(const std::function<Tensor()>& loss, const std::vector<Variable>& var_list);
  /// apply_gradients of tape.gradient(loss, var_list).
  Variable minimize(const Tensor& loss, const std::vector<Variable>& var_list, GradientTape& tape);

  /// Creates the slots of every variable of `var_list` not seen yet (Keras' optimizer.build), so
  /// that a checkpoint can restore them before the first update.
  virtual void build(std::span<const Variable> var_list);

  /// The loss times loss_scale_factor (the loss itself when none is set); Model::fit's train step
  /// calls it before taking gradients.
  virtual Tensor scale_loss(const Tensor& loss) const;
  /// With use_ema, overwrites each of `var_list` with its moving average (Keras calls it at the
  /// end of fit). InvalidArgumentError if the list differs in length from the built variables.
  virtual void finalize_variable_values(std::span<const Variable> var_list);

  /// The number of apply_gradients calls so far (int64 scalar variable "iteration"; Keras 3's
  /// `_iterations`: with gradient accumulation, Keras' `iterations` is this // steps).
  virtual const Variable& iterations() const { return iterations_; }
  /// The learning rate for the next update (float32 scalar; a schedule evaluated at iterations).
  virtual Tensor learning_rate() const;
  /// Sets a constant learning rate; FailedPreconditionError when built with a schedule.
  virtual void set_learning_rate(double learning_rate);
  /// The variable holding a constant learning rate (undefined with a schedule).
  const Variable& learning_rate_variable() const { return learning_rate_; }
  /// True when the learning rate is a schedule.
  virtual bool has_schedule() const { return schedule_ != nullptr; }
  /// iterations, then the slot variables in creation order.
  virtual std::vector<Variable> variables() const;
  /// The slot `slot_name` ("m", "v", ...) of `var`; NotFoundError if it does not exist.
  Variable get_slot(const Variable& var, const std::string& slot_name) const;
  /// The optimizer's name ("Adam", ...).
  const std::string& name() const { return config_.name; }
  /// Keras' class name ("Adam", "AdamW", ...), whatever the name given; serialization.h
  /// rebuilds an optimizer by it. Defaults to name() for optimizers defined outside tfcc.
  virtual std::string class_name() const { return name(); }
  /// Keras' optimizer.get_config(): name, weight_decay, clipnorm, global_clipnorm, clipvalue,
  /// the EMA settings (unused: false / 0.99 / null), jit_compile, is_legacy_optimizer, the
  /// current learning_rate (a number, or the serialized schedule) and then the optimizer's own
  /// hyperparameters (beta_1, momentum, ...).
  virtual saving::Json get_config() const;
  /// The shared settings.
  const OptimizerConfig& config() const { return config_; }
  /// Keeps weight decay off these variables, and off any whose name contains one of `names`.
  void exclude_from_weight_decay(const std::vector<Variable>& vars,
                                 const std::vector<std::string>& names = {});

 protected:
  /// Creates the slots of a variable seen for the first time (add_slot calls).
  virtual void build(const Variable& var) = 0;
  /// The declared config of the class (TFCC_KERAS_OPTIMIZER_CONFIG): get_config's keys after
  /// the shared ones (default: none).
  virtual const ConfigSchema<Optimizer>* schema() const { return nullptr; }
  /// Scalars shared by every variable of one dtype for this step, from the learning rate and
  /// the step t = iterations + 1 (both already in that dtype). Default: {lr}.
  virtual std::vector<Tensor> step_coefficients(const Tensor& lr, const Tensor& local_step);
  /// Once per apply_gradients, before the updates (Nadam's momentum-cache product).
  virtual void prepare_step(DType dtype);
  /// Updates one variable from its gradient; `coef` is step_coefficients for its dtype.
  virtual void update_step(const Tensor& gradient, const Variable& var,
                           std::span<const Tensor> coef) = 0;

  /// A slot variable shaped like `var`, filled with `initial_value`, named "<slot>/<var name>".
  Variable add_slot(const Variable& var, const std::string& slot_name, double initial_value = 0);
  /// A non-trainable optimizer variable that is not per-model-variable (listed in variables()).
  Variable add_variable(const Tensor& initial_value, const std::string& name);
  /// The slot `slot_name` of `var` (created by build).
  const Variable& slot(const Variable& var, const std::string& slot_name) const;
  /// The step t of the update rules (int64 scalar): iterations + 1, or iterations // steps + 1
  /// with gradient accumulation.
  Tensor local_step() const;

 private:
  std::vector<Tensor> clip_gradients(std::vector<Tensor> grads) const;
  void apply_weight_decay(std::span<const Variable> vars, const Tensor& lr);
  // Clipping, weight decay and the update rule (Keras' update branch).
  void update(std::vector<Tensor> grads, std::span<const Variable> vars, const Tensor& lr);
  void update_moving_averages();
  bool accumulating() const {
    return config_.gradient_accumulation_steps && *config_.gradient_accumulation_steps != 0;
  }

  OptimizerConfig config_;
  std::shared_ptr<schedules::LearningRateSchedule> schedule_;
  Variable iterations_;
  Variable learning_rate_;  // when constant
  std::unordered_map<uint64_t, std::map<std::string, Variable>> slots_;
  std::vector<Variable> slot_order_;
  std::vector<Variable> built_vars_;  // in build order (Keras' _trainable_variables)
  std::unordered_map<uint64_t, bool> no_decay_ids_;
  std::vector<std::string> no_decay_names_;
};

/// Declares an optimizer class's config (optimizer_schema.h): get_config's own keys and the
/// static from_config come from `Type::config_schema()`, which the .cc defines with
/// optimizer_schema. One line in the class body.
#define TFCC_KERAS_OPTIMIZER_CONFIG(Type)                                                       \
 public:                                                                                        \
  static const ::tfcc::keras::optimizers::ConfigSchema<::tfcc::keras::optimizers::Optimizer>&   \
  config_schema();                                                                              \
  static std::shared_ptr<::tfcc::keras::optimizers::Optimizer> from_config(                     \
      const ::tfcc::keras::saving::Json& c) {                                                   \
    return ::tfcc::keras::optimizers::from_config(config_schema(), c);                          \
  }                                                                                             \
                                                                                                \
 protected:                                                                                     \
  const ::tfcc::keras::optimizers::ConfigSchema<::tfcc::keras::optimizers::Optimizer>* schema() \
      const override {                                                                          \
    return &config_schema();                                                                    \
  }                                                                                             \
                                                                                                \
 public:

/// The settings every optimizer's options struct carries after its own (Keras' common keyword
/// arguments), so that designated initialisers can set them: {.learning_rate = .., .clipnorm = ..}.
#define TFCC_KERAS_OPTIMIZER_COMMON_FIELDS        \
  std::optional<double> weight_decay;             \
  std::optional<double> clipnorm;                 \
  std::optional<double> clipvalue;                \
  std::optional<double> global_clipnorm;          \
  bool use_ema = false;                           \
  double ema_momentum = 0.99;                     \
  std::optional<int64_t> ema_overwrite_frequency; \
  std::optional<double> loss_scale_factor;        \
  std::optional<int64_t> gradient_accumulation_steps;

/// The OptimizerConfig of an options struct.
template <typename Options>
OptimizerConfig config_of(const Options& o) {
  return {.name = o.name,
          .learning_rate = o.learning_rate,
          .weight_decay = o.weight_decay,
          .clipnorm = o.clipnorm,
          .clipvalue = o.clipvalue,
          .global_clipnorm = o.global_clipnorm,
          .use_ema = o.use_ema,
          .ema_momentum = o.ema_momentum,
          .ema_overwrite_frequency = o.ema_overwrite_frequency,
          .loss_scale_factor = o.loss_scale_factor,
          .gradient_accumulation_steps = o.gradient_accumulation_steps};
}

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
