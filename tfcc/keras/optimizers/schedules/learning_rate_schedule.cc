// Schedule formulas from keras/optimizers/schedules/learning_rate_schedule.py.
#include "tfcc/keras/optimizers/schedules/learning_rate_schedule.h"

#include <cmath>
#include <numbers>

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::optimizers::schedules {
namespace {

Tensor as_float(const Tensor& step) {
  TFCC_CHECK_ARG(step.defined(), "A learning-rate schedule needs a step");
  return step.dtype() == float32 ? step : cast(step, float32);
}

}  // namespace

ExponentialDecay::ExponentialDecay(double initial_learning_rate, double decay_steps,
                                   double decay_rate, ExponentialDecayOptions options)
    : initial_(initial_learning_rate),
      decay_steps_(decay_steps),
      decay_rate_(decay_rate),
      staircase_(options.staircase) {
  TFCC_CHECK_ARG(decay_steps > 0, "ExponentialDecay: decay_steps must be > 0, got ", decay_steps);
}

Tensor ExponentialDecay::operator()(const Tensor& step) const {
  Tensor p = divide(as_float(step), decay_steps_);
  if (staircase_) p = floor(p);
  return multiply(pow(scalar_tensor(decay_rate_, float32), p), initial_);
}

PiecewiseConstantDecay::PiecewiseConstantDecay(std::vector<double> boundaries,
                                               std::vector<double> values)
    : boundaries_(std::move(boundaries)), values_(std::move(values)) {
  TFCC_CHECK_ARG(values_.size() == boundaries_.size() + 1,
                 "The length of boundaries should be 1 less than the length of values. "
                 "Received: boundaries of length ",
                 boundaries_.size(), " and values of length ", values_.size());
}

Tensor PiecewiseConstantDecay::operator()(const Tensor& step) const {
  Tensor x = as_float(step);
  // From the last interval back: each boundary b_i selects values[i] for step <= b_i.
  Tensor lr = scalar_tensor(values_.back(), float32);
  for (size_t i = boundaries_.size(); i-- > 0;) {
    lr = where(less_equal(x, boundaries_[i]), scalar_tensor(values_[i], float32), lr);
  }
  return lr;
}

CosineDecay::CosineDecay(double initial_learning_rate, double decay_steps,
                         CosineDecayOptions options)
    : initial_(initial_learning_rate), decay_steps_(decay_steps), options_(options) {
  TFCC_CHECK_ARG(decay_steps > 0, "CosineDecay: decay_steps must be > 0, got ", decay_steps);
}

Tensor CosineDecay::operator()(const Tensor& step) const {
  Tensor x = as_float(step);
  auto decay = [&](const Tensor& s, double from_lr) {
    Tensor completed = divide(s, decay_steps_);
    Tensor cosine = multiply(add(cos(multiply(completed, std::numbers::pi)), 1.0), 0.5);
    Tensor decayed = add(multiply(cosine, 1.0 - options_.alpha), options_.alpha);
    return multiply(decayed, from_lr);
  };
  if (!options_.warmup_target) return decay(minimum(x, decay_steps_), initial_);
  double warmup = options_.warmup_steps, target = *options_.warmup_target;
  x = minimum(x, decay_steps_ + warmup);
  Tensor decayed = decay(subtract(x, warmup), target);
  if (warmup <= 0) return decayed;
  Tensor warming = add(multiply(divide(x, warmup), target - initial_), initial_);
  return where(less(x, warmup), warming, decayed);
}

PolynomialDecay::PolynomialDecay(double initial_learning_rate, double decay_steps,
                                 PolynomialDecayOptions options)
    : initial_(initial_learning_rate), decay_steps_(decay_steps), options_(options) {
  TFCC_CHECK_ARG(decay_steps > 0, "PolynomialDecay: decay_steps must be > 0, got ", decay_steps);
}

Tensor PolynomialDecay::operator()(const Tensor& step) const {
  Tensor x = as_float(step);
  Tensor steps = scalar_tensor(decay_steps_, float32);
  if (options_.cycle) {
    // Step 0 uses the first cycle (ceil(0) would give a zero-length one).
    Tensor multiplier = where(equal(x, 0), 1, ceil(divide(x, decay_steps_)));
    steps = multiply(steps, multiplier);
  } else {
    x = minimum(x, decay_steps_);
  }
  Tensor p = divide(x, steps);
  Tensor remaining = pow(subtract(1, p), scalar_tensor(options_.power, float32));
  return add(multiply(remaining, initial_ - options_.end_learning_rate),
             options_.end_learning_rate);
}

// ---- configs: Keras 3's keys and order; "name" is Keras 3's default name --------------------

const ConfigSchema<LearningRateSchedule>& ExponentialDecay::config_schema() {
  static const ConfigSchema<LearningRateSchedule> schema =
      schedule_schema<ExponentialDecay, ExponentialDecayOptions>()
          .arg<double>("initial_learning_rate", &ExponentialDecay::initial_)
          .arg<double>("decay_steps", &ExponentialDecay::decay_steps_)
          .arg<double>("decay_rate", &ExponentialDecay::decay_rate_)
          .option("staircase", &ExponentialDecay::staircase_, &ExponentialDecayOptions::staircase)
          .constant("name", Json("ExponentialDecay"));
  return schema;
}

const ConfigSchema<LearningRateSchedule>& PiecewiseConstantDecay::config_schema() {
  static const ConfigSchema<LearningRateSchedule> schema =
      schedule_schema<PiecewiseConstantDecay>()
          .arg<std::vector<double>>("boundaries", &PiecewiseConstantDecay::boundaries_)
          .arg<std::vector<double>>("values", &PiecewiseConstantDecay::values_)
          .constant("name", Json("PiecewiseConstant"));
  return schema;
}

const ConfigSchema<LearningRateSchedule>& CosineDecay::config_schema() {
  auto opt = [](auto field) { return [field](const CosineDecay& d) { return d.options_.*field; }; };
  static const ConfigSchema<LearningRateSchedule> schema =
      schedule_schema<CosineDecay, CosineDecayOptions>()
          .arg<double>("initial_learning_rate", &CosineDecay::initial_)
          .arg<double>("decay_steps", &CosineDecay::decay_steps_)
          .option("alpha", opt(&CosineDecayOptions::alpha), &CosineDecayOptions::alpha)
          .constant("name", Json("CosineDecay"))
          .option("warmup_target", opt(&CosineDecayOptions::warmup_target),
                  &CosineDecayOptions::warmup_target)
          .option("warmup_steps", opt(&CosineDecayOptions::warmup_steps),
                  &CosineDecayOptions::warmup_steps);
  return schema;
}

const ConfigSchema<LearningRateSchedule>& PolynomialDecay::config_schema() {
  auto opt = [](auto field) {
    return [field](const PolynomialDecay& d) { return d.options_.*field; };
  };
  static const ConfigSchema<LearningRateSchedule> schema =
      schedule_schema<PolynomialDecay, PolynomialDecayOptions>()
          .arg<double>("initial_learning_rate", &PolynomialDecay::initial_)
          .arg<double>("decay_steps", &PolynomialDecay::decay_steps_)
          .option("end_learning_rate", opt(&PolynomialDecayOptions::end_learning_rate),
                  &PolynomialDecayOptions::end_learning_rate)
          .option("power", opt(&PolynomialDecayOptions::power), &PolynomialDecayOptions::power)
          .option("cycle", opt(&PolynomialDecayOptions::cycle), &PolynomialDecayOptions::cycle)
          .constant("name", Json("PolynomialDecay"));
  return schema;
}

}  // namespace tfcc::keras::optimizers::schedules
