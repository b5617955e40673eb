// The optimizer through Model.save / load_model: class, every hyperparameter (a schedule
// included), iterations and slots come back, so training continues bit for bit.
#include <gtest/gtest.h>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/keras/optimizers/serialization.h"
#include "tfcc/keras/saving/model_saving.h"

namespace tfcc::keras {
namespace {

namespace opt = optimizers;
namespace sch = optimizers::schedules;

// One optimizer per class, each with non-default hyperparameters (so a load that fell back to
// Keras' defaults would train differently).
std::vector<std::shared_ptr<opt::Optimizer>> all_optimizers() {
  return {
      std::make_shared<opt::SGD>(
          opt::SGDOptions{.learning_rate = sch::ExponentialDecay(0.05, 3, 0.5, {.staircase = true}),
                          .momentum = 0.8,
                          .nesterov = true,
                          .clipnorm = 0.5}),
      std::make_shared<opt::Adam>(opt::AdamOptions{
          .learning_rate = sch::PiecewiseConstantDecay({2, 5}, {0.01, 0.005, 0.001}),
          .beta_1 = 0.8,
          .beta_2 = 0.99,
          .epsilon = 1e-5,
          .amsgrad = true,
          .global_clipnorm = 1.0,
          .name = "my_adam"}),
      std::make_shared<opt::AdamW>(opt::AdamWOptions{
          .learning_rate =
              sch::CosineDecay(0.01, 20, {.alpha = 0.1, .warmup_target = 0.02, .warmup_steps = 3}),
          .weight_decay = 0.05,
          .beta_1 = 0.85,
          .clipvalue = 0.1}),
      std::make_shared<opt::Adamax>(
          opt::AdamaxOptions{.learning_rate = sch::PolynomialDecay(
                                 0.02, 10, {.end_learning_rate = 0.001, .power = 2, .cycle = true}),
                             .beta_2 = 0.95,
                             .epsilon = 1e-4}),
      std::make_shared<opt::Nadam>(opt::NadamOptions{
          .learning_rate = 0.003, .beta_1 = 0.7, .beta_2 = 0.9, .weight_decay = 0.01}),
      std::make_shared<opt::RMSprop>(opt::RMSpropOptions{
          .learning_rate = 0.002, .rho = 0.8, .momentum = 0.5, .epsilon = 1e-6, .centered = true}),
      std::make_shared<opt::Adagrad>(opt::AdagradOptions{
          .learning_rate = 0.05, .initial_accumulator_value = 0.3, .epsilon = 1e-5}),
      std::make_shared<opt::Adadelta>(
          opt::AdadeltaOptions{.learning_rate = 0.5, .rho = 0.8, .epsilon = 1e-5}),
      std::make_shared<opt::Ftrl>(opt::FtrlOptions{.learning_rate = 0.05,
                                                   .learning_rate_power = -0.6,
                                                   .initial_accumulator_value = 0.2,
                                                   .l1_regularization_strength = 0.001,
                                                   .l2_regularization_strength = 0.002,
                                                   .l2_shrinkage_regularization_strength = 0.003,
                                                   .beta = 0.1}),
      // Keras 3's optimizers and shared options: EMA averages, gradient accumulators and the
      // loss-scale variables are saved with the slots.
      std::make_shared<opt::Lion>(opt::LionOptions{.learning_rate = 0.002,
                                                   .beta_1 = 0.85,
                                                   .weight_decay = 0.01,
                                                   .use_ema = true,
                                                   .ema_momentum = 0.9,
                                                   .ema_overwrite_frequency = 4}),
      std::make_shared<opt::Lamb>(opt::LambOptions{.learning_rate = 0.01,
                                                   .beta_2 = 0.99,
                                                   .clipnorm = 1.0,
                                                   .gradient_accumulation_steps = 4}),
      std::make_shared<opt::Adafactor>(opt::AdafactorOptions{
          .learning_rate = 0.05, .relative_step = false, .loss_scale_factor = 4.0}),
      std::make_shared<opt::LossScaleOptimizer>(
          std::make_shared<opt::Adam>(opt::AdamOptions{.learning_rate = 0.01, .beta_1 = 0.8}),
          opt::LossScaleOptimizerOptions{.initial_scale = 64.0, .dynamic_growth_steps = 3}),
  };
}

TEST(OptimizerSaving, EveryOptimizerContinuesBitwiseAfterLoadModel) {
  auto [x, y] = test::mlp_data();
  for (const auto& optimizer : all_optimizers()) {
    SCOPED_TRACE(optimizer->class_name());
    auto model = test::mlp(false);
    model->compile({.optimizer = optimizer,
                    .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                    .metrics = {"accuracy"}});
    model->fit(x, y, {.batch_size = 32, .epochs = 2, .verbose = 0});
    const std::string dir = test::temp_dir("optimizer_" + optimizer->class_name());
    model->save(dir + "/model");
    auto loaded = models::load_model(dir + "/model");

    // The same class, name and hyperparameters (the schedule's too), and the same state.
    ASSERT_TRUE(loaded->optimizer());
    EXPECT_EQ(loaded->optimizer()->class_name(), optimizer->class_name());
    EXPECT_EQ(loaded->optimizer()->name(), optimizer->name());
    EXPECT_EQ(opt::serialize(*loaded->optimizer()).dump(), opt::serialize(*optimizer).dump());
    EXPECT_EQ(loaded->optimizer()->iterations().read_value().item<int64_t>(), 6);
    EXPECT_EQ(test::state_bytes(*loaded), test::state_bytes(*model));

    // Continue both: bitwise equal weights, slots and iterations.
    const Tensor state = random::get_global_state();
    model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0, .shuffle = false});
    random::set_global_state(state);
    loaded->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0, .shuffle = false});
    EXPECT_EQ(test::state_bytes(*loaded), test::state_bytes(*model));
  }
}

TEST(OptimizerSaving, ConfigRoundTripsAndNamesKerasKeys) {
  opt::Adam adam({.learning_rate = 0.02, .beta_1 = 0.8, .amsgrad = true, .clipnorm = 1.5});
  saving::Json j = opt::serialize(adam);
  EXPECT_EQ(j.at("class_name").as_string(), "Adam");
  const saving::Json& c = j.at("config");
  EXPECT_EQ(c.at("beta_1").as_number(), 0.8);
  EXPECT_EQ(c.at("beta_2").as_number(), 0.999);
  EXPECT_TRUE(c.at("amsgrad").as_bool());
  EXPECT_EQ(c.at("clipnorm").as_number(), 1.5);
  EXPECT_TRUE(c.at("clipvalue").is_null());
  EXPECT_EQ(c.at("learning_rate").as_number(), static_cast<double>(0.02f));
  // The current rate is what is saved, as Keras does.
  adam.set_learning_rate(0.5);
  EXPECT_EQ(opt::serialize(adam).at("config").at("learning_rate").as_number(), 0.5);
  auto back = opt::deserialize(saving::Json::parse(opt::serialize(adam).dump(), "test"));
  EXPECT_EQ(opt::serialize(*back).dump(), opt::serialize(adam).dump());
  // Missing keys take the defaults; a bare name works as optimizers::get.
  auto sgd = opt::deserialize(saving::Json::parse(R"({"class_name": "SGD"})", "test"));
  EXPECT_EQ(sgd->config().learning_rate.value(), 0.01);
  EXPECT_EQ(opt::deserialize(saving::Json("rmsprop"))->class_name(), "RMSprop");
}

TEST(OptimizerSaving, BadConfigsAreRejected) {
  auto parse = [](const char* text) { return saving::Json::parse(text, "test"); };
  EXPECT_THROW(opt::deserialize(parse(R"({"class_name": "Muon", "config": {}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(R"({"class_name": "Adam", "config": {"beta_1": "x"}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(
                   R"({"class_name": "Adam", "config": {"use_ema": true, "ema_momentum": 1.5}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(
                   R"({"class_name": "Adam", "config": {"gradient_accumulation_steps": 1}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(R"({"class_name": "LossScaleOptimizer", "config":
      {"inner_optimizer": "sgd", "clipnorm": 1.0}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(
                   R"({"class_name": "SGD", "config": {"learning_rate": {"class_name": "X",
                       "config": {}}}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(R"({"class_name": "SGD", "config": {"learning_rate":
      {"class_name": "ExponentialDecay", "config": {"initial_learning_rate": 0.1}}}})")),
               InvalidArgumentError);
  EXPECT_THROW(opt::deserialize(parse(R"({"class_name": "SGD", "config": {"clipnorm": 1,
      "clipvalue": 1}})")),
               InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
