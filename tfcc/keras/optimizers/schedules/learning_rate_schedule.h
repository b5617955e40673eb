// Learning-rate schedules (tf.keras.optimizers.schedules): a function of the optimizer's step
// (its `iterations` before the update), written with ops so a traced training step follows it.
//
//   namespace schedules = tfcc::keras::optimizers::schedules;
//   auto lr = schedules::ExponentialDecay(0.1, 1000, 0.96, {.staircase = true});
//   tfcc::keras::optimizers::SGD sgd({.learning_rate = lr});
//   lr(tfcc::constant(int64_t{2000}));      // 0.1 * 0.96^2
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::optimizers {
template <typename Base>
class ConfigSchema;  // optimizer_schema.h
}  // namespace tfcc::keras::optimizers

namespace tfcc::keras::optimizers::schedules {

class LearningRateSchedule;
/// A new schedule from `config` by `schema`.
std::shared_ptr<LearningRateSchedule> from_config(const ConfigSchema<LearningRateSchedule>& schema,
                                                  const saving::Json& config);

/// Declares a schedule class's config (optimizer_schema.h): get_config and the static
/// from_config come from `Type::config_schema()`, which the .cc defines with schedule_schema.
#define TFCC_KERAS_SCHEDULE_CONFIG(Type)                                                          \
 public:                                                                                          \
  static const ::tfcc::keras::optimizers::ConfigSchema<                                           \
      ::tfcc::keras::optimizers::schedules::LearningRateSchedule>&                                \
  config_schema();                                                                                \
  static std::shared_ptr<::tfcc::keras::optimizers::schedules::LearningRateSchedule> from_config( \
      const ::tfcc::keras::saving::Json& c) {                                                     \
    return ::tfcc::keras::optimizers::schedules::from_config(config_schema(), c);                 \
  }                                                                                               \
  const ::tfcc::keras::optimizers::ConfigSchema<                                                  \
      ::tfcc::keras::optimizers::schedules::LearningRateSchedule>*                                \
  schema() const override {                                                                       \
    return &config_schema();                                                                      \
  }                                                                                               \
                                                                                                  \
 public:

/// Base of the schedules: a float32 scalar learning rate for an integer or float step.
class LearningRateSchedule {
 public:
  virtual ~LearningRateSchedule() = default;
  /// The learning rate at `step` (a scalar of any numeric dtype).
  virtual Tensor operator()(const Tensor& step) const = 0;
  /// Keras' class name ("ExponentialDecay", ...).
  virtual std::string name() const = 0;
  /// Keras' get_config(): the constructor's arguments by name, so serialization.h can rebuild
  /// the schedule: the keys its class declares (TFCC_KERAS_SCHEDULE_CONFIG); empty without
  /// (a schedule defined outside tfcc cannot be rebuilt).
  virtual saving::Json get_config() const;
  /// The declared config of the class, or null.
  virtual const ConfigSchema<LearningRateSchedule>* schema() const { return nullptr; }
};

/// Options of ExponentialDecay.
struct ExponentialDecayOptions {
  bool staircase = false;  ///< decay in whole steps: floor(step / decay_steps)
};
/// initial_learning_rate * decay_rate ^ (step / decay_steps).
class ExponentialDecay : public LearningRateSchedule {
  TFCC_KERAS_SCHEDULE_CONFIG(ExponentialDecay)
 public:
  ExponentialDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                   ExponentialDecayOptions options = {});
  Tensor operator()(const Tensor& step) const override;
  std::string name() const override { return "ExponentialDecay"; }

 private:
  double initial_, decay_steps_, decay_rate_;
  bool staircase_;
};

/// values[0] while step <= boundaries[0], values[i] while boundaries[i-1] < step <=
/// boundaries[i], values.back() after the last boundary.
class PiecewiseConstantDecay : public LearningRateSchedule {
  TFCC_KERAS_SCHEDULE_CONFIG(PiecewiseConstantDecay)
 public:
  PiecewiseConstantDecay(std::vector<double> boundaries, std::vector<double> values);
  Tensor operator()(const Tensor& step) const override;
  std::string name() const override { return "PiecewiseConstantDecay"; }

 private:
  std::vector<double> boundaries_, values_;
};

/// Options of CosineDecay.
struct CosineDecayOptions {
  double alpha = 0.0;  ///< the floor, as a fraction of the starting rate
  /// With a target, the rate first rises linearly from initial_learning_rate to it over
  /// warmup_steps, then decays from it.
  std::optional<double> warmup_target;
  double warmup_steps = 0;
};
/// initial * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha).
class CosineDecay : public LearningRateSchedule {
  TFCC_KERAS_SCHEDULE_CONFIG(CosineDecay)
 public:
  CosineDecay(double initial_learning_rate, double decay_steps, CosineDecayOptions options = {});
  Tensor operator()(const Tensor& step) const override;
  std::string name() const override { return "CosineDecay"; }

 private:
  double initial_, decay_steps_;
  CosineDecayOptions options_;
};

/// Options of PolynomialDecay.
struct PolynomialDecayOptions {
  double end_learning_rate = 0.0001;
  double power = 1.0;
  bool cycle = false;  ///< restart after decay_steps (decay_steps * ceil(step / decay_steps))
};
/// (initial - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end.
class PolynomialDecay : public LearningRateSchedule {
  TFCC_KERAS_SCHEDULE_CONFIG(PolynomialDecay)
 public:
  PolynomialDecay(double initial_learning_rate, double decay_steps,
                  PolynomialDecayOptions options = {});
  Tensor operator()(const Tensor& step) const override;
  std::string name() const override { return "PolynomialDecay"; }

 private:
  double initial_, decay_steps_;
  PolynomialDecayOptions options_;
};

}  // namespace tfcc::keras::optimizers::schedules
#pragma GCC visibility pop
