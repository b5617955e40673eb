// Keras 3's shared optimizer options (use_ema, gradient_accumulation_steps, loss_scale_factor)
// and the optimizers Lion, Lamb, Adafactor and LossScaleOptimizer: argument checks, configs,
// variables and hand-computed steps. trajectory_test.cc compares whole trajectories with Keras.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::optimizers {
namespace {

using saving::Json;

void apply(Optimizer& opt, const Variable& var, std::vector<float> g) {
  Tensor grads[] = {constant(g)};
  Variable vars[] = {var};
  opt.apply_gradients(grads, vars);
}

std::vector<float> values(const Variable& v) { return v.read_value().to_vector<float>(); }

TEST(Keras3Options, InvalidArgumentsAreRejectedWithKerasMessages) {
  EXPECT_THROW(SGD({.gradient_accumulation_steps = 1}), InvalidArgumentError);
  EXPECT_THROW(Adam({.use_ema = true, .ema_momentum = 1.5}), InvalidArgumentError);
  EXPECT_THROW(Adam({.use_ema = true, .ema_overwrite_frequency = 0}), InvalidArgumentError);
  EXPECT_NO_THROW(Adam({.ema_momentum = 1.5}));  // checked only with use_ema, as Keras
  EXPECT_THROW(Lion({.beta_1 = 0}), InvalidArgumentError);
  EXPECT_THROW(Lion({.clipnorm = 1.0, .clipvalue = 1.0}), InvalidArgumentError);
  EXPECT_THROW(LossScaleOptimizer(nullptr), InvalidArgumentError);
}

TEST(Keras3Options, GetAndConfigRoundTripOfTheNewOptimizers) {
  EXPECT_EQ(get("Lion")->class_name(), "Lion");
  EXPECT_EQ(get("lamb")->class_name(), "Lamb");
  EXPECT_EQ(get("adafactor")->class_name(), "Adafactor");
  Lion lion({.learning_rate = 0.5,
             .beta_2 = 0.9,
             .use_ema = true,
             .ema_momentum = 0.5,
             .ema_overwrite_frequency = 3,
             .loss_scale_factor = 2.0,
             .gradient_accumulation_steps = 4});
  Json c = lion.get_config();
  EXPECT_TRUE(c.at("use_ema").as_bool());
  EXPECT_EQ(c.at("ema_momentum").as_number(), 0.5);
  EXPECT_EQ(c.at("ema_overwrite_frequency").as_int(), 3);
  EXPECT_EQ(c.at("loss_scale_factor").as_number(), 2.0);
  EXPECT_EQ(c.at("gradient_accumulation_steps").as_int(), 4);
  EXPECT_EQ(c.at("beta_1").as_number(), 0.9);
  EXPECT_EQ(c.at("beta_2").as_number(), 0.9);
  auto back = deserialize(Json::parse(serialize(lion).dump(), "test"));
  EXPECT_EQ(serialize(*back).dump(), serialize(lion).dump());

  Adafactor ada({.epsilon_1 = 1e-29, .relative_step = false});
  Json ac = ada.get_config();
  EXPECT_EQ(ac.at("beta_2_decay").as_number(), -0.8);
  EXPECT_EQ(ac.at("epsilon_1").as_number(), 1e-29);
  EXPECT_FALSE(ac.at("relative_step").as_bool());
  EXPECT_EQ(serialize(*deserialize(serialize(ada))).dump(), serialize(ada).dump());

  LossScaleOptimizer lso(std::make_shared<Lamb>(LambOptions{.epsilon = 1e-5}),
                         {.initial_scale = 8.0, .dynamic_growth_steps = 10});
  Json lc = lso.get_config();
  EXPECT_EQ(lc.at("inner_optimizer").at("class_name").as_string(), "Lamb");
  EXPECT_EQ(lc.at("inner_optimizer").at("config").at("epsilon").as_number(), 1e-5);
  EXPECT_EQ(lc.at("initial_scale").as_number(), 8.0);
  EXPECT_EQ(lc.at("dynamic_growth_steps").as_int(), 10);
  EXPECT_EQ(lc.find("clipnorm"), nullptr);  // Keras 3 writes only these four keys
  EXPECT_EQ(serialize(*deserialize(serialize(lso))).dump(), serialize(lso).dump());
}

// Hand-computed: Lion with lr 0.1, b1 0.9, b2 0.99 from w = 1, g = 0.5 then -2:
// step 1: sign(0 + 0.1 * 0.5) = 1 -> w = 0.9; m = 0.01 * 0.5 = 0.005;
// step 2: sign(0.9 * 0.005 + 0.1 * -2) = -1 -> w = 1.0; m = 0.99 * 0.005 + 0.01 * -2 = -0.01505.
TEST(Keras3Options, LionByHand) {
  Lion lion({.learning_rate = 0.1});
  Variable w(constant({1.f}), {.name = "w"});
  apply(lion, w, {0.5f});
  EXPECT_NEAR(values(w)[0], 0.9, 1e-6);
  apply(lion, w, {-2.f});
  EXPECT_NEAR(values(w)[0], 1.0, 1e-6);
  EXPECT_NEAR(lion.get_slot(w, "momentum").read_value().to_vector<float>()[0], -0.01505, 1e-7);
}

// Hand-computed: Lamb's first step moves each variable by lr * ||w|| in the direction of
// sign-like m_hat / (sqrt(v_hat) + eps) = g / (|g| + eps): w = [3, 4] (norm 5), g = [1, -1]:
// u = [1, -1] (up to eps), ||u|| = sqrt(2), w -= 0.1 * 5 / sqrt(2) * u.
TEST(Keras3Options, LambTrustRatioByHand) {
  Lamb lamb({.learning_rate = 0.1});
  Variable w(constant({3.f, 4.f}), {.name = "w"});
  apply(lamb, w, {1.f, -1.f});
  const double step = 0.1 * 5 / std::sqrt(2.0);
  EXPECT_NEAR(values(w)[0], 3 - step, 1e-5);
  EXPECT_NEAR(values(w)[1], 4 + step, 1e-5);
  // A zero variable takes the plain Adam-like step (ratio 1).
  Lamb zero({.learning_rate = 0.1});
  Variable z(constant({0.f, 0.f}), {.name = "z"});
  apply(zero, z, {1.f, -1.f});
  EXPECT_NEAR(values(z)[0], -0.1, 1e-5);
  EXPECT_NEAR(values(z)[1], 0.1, 1e-5);
}

// Gradient accumulation by hand with SGD (lr 1): two calls make one update with the mean.
TEST(Keras3Options, GradientAccumulationUpdatesWithTheMeanEveryNSteps) {
  SGD sgd({.learning_rate = 1.0, .gradient_accumulation_steps = 2});
  Variable w(constant({1.f}), {.name = "w"});
  apply(sgd, w, {0.25f});
  EXPECT_EQ(values(w)[0], 1.f);  // accumulated only
  EXPECT_EQ(sgd.get_slot(w, "gradient_accumulator").read_value().to_vector<float>()[0], 0.25f);
  apply(sgd, w, {0.75f});
  EXPECT_EQ(values(w)[0], 0.5f);  // 1 - (0.25 + 0.75) / 2
  EXPECT_EQ(sgd.get_slot(w, "gradient_accumulator").read_value().to_vector<float>()[0], 0.f);
  EXPECT_EQ(sgd.iterations().read_value().item<int64_t>(), 2);
  // Keras' order: iteration, the accumulators, then the slots.
  EXPECT_EQ(sgd.variables().size(), 2u);
}

// EMA by hand: the first step copies the variable, later ones mix with ema_momentum;
// finalize_variable_values writes the averages into the variables.
TEST(Keras3Options, EmaAveragesAndFinalize) {
  SGD sgd({.learning_rate = 1.0, .use_ema = true, .ema_momentum = 0.5});
  Variable w(constant({4.f}), {.name = "w"});
  apply(sgd, w, {1.f});  // w = 3, average = 3
  apply(sgd, w, {1.f});  // w = 2, average = 0.5 * 3 + 0.5 * 2 = 2.5
  EXPECT_EQ(sgd.get_slot(w, "average").read_value().to_vector<float>()[0], 2.5f);
  EXPECT_EQ(values(w)[0], 2.f);
  Variable vars[] = {w};
  sgd.finalize_variable_values(vars);
  EXPECT_EQ(values(w)[0], 2.5f);
  Variable other(constant({0.f}), {.name = "other"});
  Variable two[] = {w, other};
  EXPECT_THROW(sgd.finalize_variable_values(two), InvalidArgumentError);
}

TEST(Keras3Options, LossScaleFactorScalesTheLossAndUnscalesTheGradients) {
  SGD sgd({.learning_rate = 1.0, .loss_scale_factor = 4.0});
  EXPECT_EQ(sgd.scale_loss(constant(1.5f)).item<float>(), 6.f);
  Variable w(constant({1.f}), {.name = "w"});
  apply(sgd, w, {2.f});  // the gradient of the scaled loss: 2 / 4 is applied
  EXPECT_EQ(values(w)[0], 0.5f);
  EXPECT_EQ(SGD().scale_loss(constant(1.5f)).item<float>(), 1.5f);
}

// Dynamic loss scaling by hand: growth after `dynamic_growth_steps` finite steps, halving and
// no update on a non-finite gradient.
TEST(Keras3Options, LossScaleOptimizerScalesDynamically) {
  LossScaleOptimizer lso(std::make_shared<SGD>(SGDOptions{.learning_rate = 1.0}),
                         {.initial_scale = 4.0, .dynamic_growth_steps = 2});
  EXPECT_EQ(lso.scale_loss(constant(1.f)).item<float>(), 4.f);
  Variable w(constant({1.f}), {.name = "w"});
  apply(lso, w, {2.f});  // w -= 2 / 4
  EXPECT_EQ(values(w)[0], 0.5f);
  EXPECT_EQ(lso.dynamic_scale().read_value().item<float>(), 4.f);
  apply(lso, w, {2.f});  // w -= 2 / 4, then the scale doubles
  EXPECT_EQ(values(w)[0], 0.f);
  EXPECT_EQ(lso.dynamic_scale().read_value().item<float>(), 8.f);
  EXPECT_EQ(lso.step_counter().read_value().item<int64_t>(), 0);
  apply(lso, w, {INFINITY});
  EXPECT_EQ(values(w)[0], 0.f);
  EXPECT_EQ(lso.dynamic_scale().read_value().item<float>(), 4.f);
  EXPECT_EQ(lso.iterations().read_value().item<int64_t>(), 2);  // the inner optimizer's
  EXPECT_EQ(lso.scale_loss(constant(1.f)).item<float>(), 4.f);
  // iteration, step_counter, dynamic_scale, the inner iteration and learning rate.
  EXPECT_EQ(lso.variables().size(), 5u);
  lso.set_learning_rate(0.25);
  EXPECT_EQ(lso.inner_optimizer()->learning_rate().item<float>(), 0.25f);
}

}  // namespace
}  // namespace tfcc::keras::optimizers
