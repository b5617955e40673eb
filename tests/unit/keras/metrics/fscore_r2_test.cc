// F1Score / FBetaScore and R2Score against Keras 3.15.1: the expected values were printed by
// testdata/keras3_metric_values.py (run with /work/tf-venv/bin/python) for the same inputs.
#include <gtest/gtest.h>

#include "tests/unit/keras/metrics/metric_steps.h"
#include "tfcc/keras/metrics/fbeta.h"
#include "tfcc/keras/metrics/r2_score.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

using testing::expect_values;
using testing::reset;
using testing::run;
using testing::Step;

Tensor fy2() { return constant({{0.f, 1.f, 1.f}, {1.f, 0.f, 0.f}}); }
Tensor fp2() { return constant({{0.2f, 0.9f, 0.9f}, {0.6f, 0.1f, 0.55f}}); }

std::vector<Step> f_steps() {
  return {
      {constant({{1.f, 0.f, 1.f}, {0.f, 1.f, 0.f}, {1.f, 1.f, 0.f}, {0.f, 0.f, 1.f}}),
       constant({{0.7f, 0.2f, 0.6f}, {0.1f, 0.8f, 0.3f}, {0.4f, 0.45f, 0.1f}, {0.3f, 0.3f, 0.2f}}),
       constant({1.f, 0.5f, 2.f, 1.f})},
      {fy2(), fp2(), constant({1.f, 3.f})},
      reset(),
      {fy2(), fp2(), {}}};
}

TEST(FScoreTest, F1PerClassWithRowMaximumAsPrediction) {
  F1Score f1;
  EXPECT_EQ(f1.name(), "f1_score");
  EXPECT_TRUE(f1.variables().empty());  // built by the first batch
  EXPECT_THROW(f1.result(), FailedPreconditionError);
  expect_values(run(f1, f_steps()),
                {0.399999946, 0.833333313, 0, 0.727272689, 0.87499994, 0.49999997, 0.999999821,
                 0.999999821, 0.999999821},
                "f1_none");
  ASSERT_EQ(f1.variables().size(), 4u);
  EXPECT_EQ(f1.variables()[0].shape(), Shape({3}));
}

TEST(FScoreTest, AveragesBetaAndThreshold) {
  F1Score macro({.average = FScoreAverage::kMacro, .threshold = 0.5});
  expect_values(run(macro, f_steps()), {0.499999911, 0.633333266, 0.888888776}, "f1_macro_t05");
  FBetaScore micro({.average = FScoreAverage::kMicro, .beta = 2.0});
  EXPECT_EQ(micro.name(), "fbeta_score");
  expect_values(run(micro, f_steps()), {0.492957711, 0.702479362, 1}, "fbeta2_micro");
  EXPECT_EQ(micro.variables()[0].shape(), Shape({}));
  FBetaScore weighted({.average = FScoreAverage::kWeighted, .beta = 0.5, .threshold = 0.4});
  expect_values(run(weighted, f_steps()), {0.841269732, 0.820711374, 0.851851702},
                "fbeta05_weighted_t04");
}

TEST(FScoreTest, InvalidArguments) {
  EXPECT_THROW(FBetaScore({.beta = 0}), InvalidArgumentError);
  EXPECT_THROW(FBetaScore({.threshold = 0.0}), InvalidArgumentError);
  EXPECT_THROW(F1Score({.threshold = 1.5}), InvalidArgumentError);
  F1Score f1;
  EXPECT_THROW(f1.update_state(constant({1.f, 0.f}), constant({0.5f, 0.2f})),
               InvalidArgumentError);  // not [batch, classes]
}

TEST(FScoreTest, StatesMergeBySum) {
  FBetaScore a({.beta = 2.0}), b({.beta = 2.0}), both({.beta = 2.0});
  Tensor y1 = constant({{1.f, 0.f, 1.f}, {0.f, 1.f, 0.f}});
  Tensor p1 = constant({{0.7f, 0.2f, 0.6f}, {0.1f, 0.8f, 0.3f}});
  a.update_state(y1, p1, constant({1.f, 0.5f}));
  b.update_state(fy2(), fp2(), constant({1.f, 3.f}));
  both.update_state(y1, p1, constant({1.f, 0.5f}));
  both.update_state(fy2(), fp2(), constant({1.f, 3.f}));
  testing::expect_states_add(a, b, both);
}

Tensor ry1() { return constant({{1.f, 2.f}, {2.f, 0.5f}, {3.f, 1.f}, {4.f, 3.f}}); }
Tensor rp1() { return constant({{1.1f, 1.5f}, {1.8f, 0.7f}, {3.3f, 1.2f}, {3.6f, 2.f}}); }

std::vector<Step> r_steps() {
  return {{ry1(), rp1(), constant({1.f, 2.f, 0.5f, 1.f})},
          {constant({{0.5f, 1.5f}, {5.f, 2.5f}}), constant({{1.f, 1.f}, {4.5f, 2.f}}), {}},
          reset(),
          {ry1(), rp1(), {}}};
}

TEST(R2ScoreTest, Aggregations) {
  R2Score uniform;
  EXPECT_EQ(uniform.name(), "r2_score");
  expect_values(run(uniform, r_steps()), {0.824114442, 0.80711627, 0.78966105}, "r2_uniform");
  R2Score variance({.class_aggregation = R2Aggregation::kVarianceWeightedAverage});
  expect_values(run(variance, r_steps()), {0.828843951, 0.87346822, 0.812374115}, "r2_variance");
  R2Score none({.class_aggregation = R2Aggregation::kNone});
  expect_values(run(none, r_steps()),
                {0.940999985, 0.707228959, 0.948260307, 0.665972233, 0.939999998, 0.639322042},
                "r2_none");
}

TEST(R2ScoreTest, AdjustedAndItsFallback) {
  R2Score adjusted({.num_regressors = 2});
  expect_values(run(adjusted, r_steps()), {0.753760219, 0.764253199, 0.705525458}, "r2_adjusted");
  // 7 regressors against 8 values: n - p - 1 = 0, Keras falls back to the plain score.
  R2Score fallback({.num_regressors = 7});
  expect_values(run(fallback, {{ry1(), rp1(), constant({1.f, 2.f, 0.5f, 1.f})}}), {0.824114442},
                "r2_adjusted_fallback");
  EXPECT_THROW(R2Score({.num_regressors = -1}), InvalidArgumentError);
}

TEST(R2ScoreTest, StatesMergeBySum) {
  R2Score a, b, both;
  Tensor y2 = constant({{0.5f, 1.5f}, {5.f, 2.5f}}), p2 = constant({{1.f, 1.f}, {4.5f, 2.f}});
  a.update_state(ry1(), rp1(), constant({1.f, 2.f, 0.5f, 1.f}));
  b.update_state(y2, p2);
  both.update_state(ry1(), rp1(), constant({1.f, 2.f, 0.5f, 1.f}));
  both.update_state(y2, p2);
  testing::expect_states_add(a, b, both);
}

// The state variables are created by the first update_state, here inside a trace.
TEST(R2ScoreTest, FirstUpdateInsideATrace) {
  R2Score eager, traced;
  Tensor w = constant({1.f, 2.f, 0.5f, 1.f});
  eager.update_state(ry1(), rp1(), w);
  auto step = tfcc::function([&](const Tensor& y, const Tensor& p, const Tensor& wt) {
    traced.update_state(y, p, wt);
    return traced.result();
  });
  EXPECT_NEAR(step(ry1(), rp1(), w).item<double>(), 0.824114442, 1e-6);
  EXPECT_NEAR(
      step(ry1(), rp1(), w).item<double>(),
      [&] {
        eager.update_state(ry1(), rp1(), w);
        return eager.result().item<double>();
      }(),
      1e-6);
  EXPECT_EQ(traced.variables().size(), 5u);
}

}  // namespace
}  // namespace tfcc::keras::metrics
