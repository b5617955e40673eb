// A training step traced with tfcc::function (loss, gradients, optimizer update, metric update)
// gives the same variables, slots and metric values as the same step run eagerly, and keeps
// following a learning-rate schedule without retracing.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tfcc/keras/losses/losses.h"
#include "tfcc/keras/metrics/metrics.h"
#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

// A linear classifier's parameters with the optimizer and metric that train it.
struct Trainee {
  Variable w{constant({{0.1f, -0.2f, 0.3f}, {0.0f, 0.5f, -0.1f}}), {.name = "w"}};
  Variable b{constant({0.f, 0.1f, -0.1f}), {.name = "b"}};
  std::shared_ptr<optimizers::Optimizer> opt;
  metrics::SparseCategoricalAccuracy acc;
  metrics::Mean mean_loss;
  losses::SparseCategoricalCrossentropy loss_fn{{.from_logits = true}};

  explicit Trainee(std::shared_ptr<optimizers::Optimizer> o) : opt(std::move(o)) {}

  Tensor step(const Tensor& x, const Tensor& y) {
    std::vector<Variable> vars = {w, b};
    GradientTape tape;
    Tensor logits = matmul(x, w) + b;
    Tensor loss = loss_fn(y, logits);
    std::vector<Tensor> grads = tape.gradient(loss, vars);
    opt->apply_gradients(grads, vars);
    acc.update_state(y, logits);
    mean_loss.update_state(loss);
    return loss;
  }
};

void expect_near(const Tensor& a, const Tensor& b, double tol = 1e-5) {
  auto va = a.to_vector<double>(), vb = b.to_vector<double>();
  ASSERT_EQ(va.size(), vb.size());
  for (size_t i = 0; i < va.size(); ++i) EXPECT_NEAR(va[i], vb[i], tol) << "element " << i;
}

void run_both(const std::function<std::shared_ptr<optimizers::Optimizer>()>& make,
              const std::vector<std::string>& slots) {
  Trainee eager(make()), traced(make());
  auto traced_step = function([&](Tensor x, Tensor y) { return traced.step(x, y); });
  Tensor x = constant({{1.f, 2.f}, {-1.f, 0.5f}, {0.3f, -0.7f}, {2.f, 1.f}});
  Tensor y = constant({2, 0, 1, 2});
  for (int i = 0; i < 4; ++i) {
    Tensor le = eager.step(x, y);
    Tensor lt = traced_step(x, y);
    expect_near(le, lt);
  }
  EXPECT_EQ(traced_step.tracing_count(), 1);
  expect_near(eager.w, traced.w);
  expect_near(eager.b, traced.b);
  for (const auto& s : slots) {
    expect_near(eager.opt->get_slot(eager.w, s).read_value(),
                traced.opt->get_slot(traced.w, s).read_value());
  }
  EXPECT_EQ(traced.opt->iterations().read_value().item<int64_t>(), 4);
  expect_near(eager.acc.result(), traced.acc.result());
  expect_near(eager.mean_loss.result(), traced.mean_loss.result());
}

TEST(TracedStepTest, AdamMatchesEager) {
  run_both(
      [] {
        return std::make_shared<optimizers::Adam>(
            optimizers::AdamOptions{.learning_rate = 0.1, .amsgrad = true, .clipnorm = 1.0});
      },
      {"m", "v", "vhat"});
}

TEST(TracedStepTest, NadamRmspropFtrlMatchEager) {
  run_both(
      [] {
        return std::make_shared<optimizers::Nadam>(optimizers::NadamOptions{.learning_rate = 0.1});
      },
      {"m", "v"});
  run_both(
      [] {
        return std::make_shared<optimizers::RMSprop>(
            optimizers::RMSpropOptions{.learning_rate = 0.1, .momentum = 0.9, .centered = true});
      },
      {"velocity", "momentum", "average_gradient"});
  run_both(
      [] {
        return std::make_shared<optimizers::Ftrl>(
            optimizers::FtrlOptions{.learning_rate = 0.1, .l1_regularization_strength = 0.01});
      },
      {"accumulator", "linear"});
}

TEST(TracedStepTest, SgdWithScheduleAndWeightDecayMatchesEager) {
  run_both(
      [] {
        return std::make_shared<optimizers::SGD>(optimizers::SGDOptions{
            .learning_rate =
                optimizers::schedules::PiecewiseConstantDecay({1, 2}, {0.5, 0.1, 0.01}),
            .momentum = 0.9,
            .weight_decay = 0.1});
      },
      {"m"});
}

// Gradient accumulation updates inside a tfcc::cond (an If node whose branches write variables);
// EMA and the new optimizers trace too.
TEST(TracedStepTest, AccumulationEmaLionLambAdafactorMatchEager) {
  run_both(
      [] {
        return std::make_shared<optimizers::Adam>(
            optimizers::AdamOptions{.learning_rate = 0.1, .gradient_accumulation_steps = 3});
      },
      {"m", "v", "gradient_accumulator"});
  run_both(
      [] {
        return std::make_shared<optimizers::Lion>(optimizers::LionOptions{
            .learning_rate = 0.05, .use_ema = true, .ema_overwrite_frequency = 2});
      },
      {"momentum", "average"});
  run_both(
      [] {
        return std::make_shared<optimizers::Lamb>(
            optimizers::LambOptions{.learning_rate = 0.05, .weight_decay = 0.1});
      },
      {"momentum", "velocity"});
  run_both(
      [] {
        return std::make_shared<optimizers::Adafactor>(
            optimizers::AdafactorOptions{.learning_rate = 0.05, .gradient_accumulation_steps = 2});
      },
      {"velocity"});
}

TEST(TracedStepTest, MetricsUpdateInsideATrace) {
  metrics::AUC auc;
  metrics::Precision precision;
  auto update = function([&](Tensor y, Tensor p) {
    auc.update_state(y, p);
    precision.update_state(y, p);
    return auc.result();
  });
  update(constant({0.f, 0.f, 1.f, 1.f}), constant({0.1f, 0.4f, 0.35f, 0.8f}));
  update(constant({0.f, 1.f}), constant({0.2f, 0.9f}));
  metrics::AUC eager_auc;
  eager_auc.update_state(constant({0.f, 0.f, 1.f, 1.f, 0.f, 1.f}),
                         constant({0.1f, 0.4f, 0.35f, 0.8f, 0.2f, 0.9f}));
  expect_near(auc.result(), eager_auc.result());
  EXPECT_NEAR(precision.result().item<double>(), 2 / 2.0, 1e-6);  // > 0.5: 0.8, 0.9
  EXPECT_EQ(update.tracing_count(), 2);                           // the second call has new shapes
}

}  // namespace
}  // namespace tfcc::keras
