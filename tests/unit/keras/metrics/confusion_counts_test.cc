// TruePositives / TrueNegatives / FalsePositives / FalseNegatives and the rate-at-rate metrics
// against Keras 3.15.1: the expected values were printed by testdata/keras3_metric_values.py
// (run with /work/tf-venv/bin/python) for the same inputs.
#include "tfcc/keras/metrics/confusion_counts.h"

#include <gtest/gtest.h>

#include <functional>

#include "tests/unit/keras/metrics/metric_steps.h"
#include "tfcc/keras/metrics/sensitivity_specificity.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

using testing::expect_values;
using testing::reset;
using testing::run;
using testing::Step;

Tensor cy1() { return constant({1.f, 0.f, 1.f, 1.f, 0.f, 0.f}); }
Tensor cp1() { return constant({0.9f, 0.6f, 0.5f, 0.2f, 0.1f, 0.75f}); }

// Predictions outside [0, 1] in the second batch: Keras 3 counts them (clipped by bucket).
std::vector<Step> c_steps() {
  return {{cy1(), cp1(), constant({1.f, 2.f, 0.5f, 1.f, 3.f, 1.f})},
          {constant({{1.f, 0.f}, {0.f, 1.f}}), constant({{1.5f, -0.2f}, {0.25f, 0.f}}), {}},
          reset(),
          {cy1(), cp1(), {}}};
}

struct CountCase {
  const char* key;
  std::function<std::unique_ptr<Metric>(ConfusionCountOptions)> make;
  std::vector<double> by_default, three, even;
};

TEST(ConfusionCountTest, DefaultListedAndEvenlySpacedThresholds) {
  std::vector<CountCase> cases = {
      {"tp",
       [](auto o) { return std::make_unique<TruePositives>(o); },
       {1, 2, 1},
       {1.5, 1, 1, 2.5, 2, 2, 2, 1, 1},
       {2.5, 1, 0, 3.5, 2, 0, 3, 1, 0}},
      {"tn",
       [](auto o) { return std::make_unique<TrueNegatives>(o); },
       {3, 5, 1},
       {3, 3, 6, 5, 5, 8, 1, 1, 3},
       {0, 3, 6, 1, 5, 8, 0, 1, 3}},
      {"fp",
       [](auto o) { return std::make_unique<FalsePositives>(o); },
       {3, 3, 2},
       {3, 3, 0, 3, 3, 0, 2, 2, 0},
       {6, 3, 0, 7, 3, 0, 3, 2, 0}},
      {"fn",
       [](auto o) { return std::make_unique<FalseNegatives>(o); },
       {1.5, 2.5, 2},
       {1, 1.5, 1.5, 2, 2.5, 2.5, 1, 2, 2},
       {0, 1.5, 2.5, 1, 2.5, 4.5, 0, 2, 3}},
  };
  for (const CountCase& c : cases) {
    auto by_default = c.make({});
    EXPECT_EQ(by_default->result().partial_shape().rank(), 0) << c.key;
    expect_values(run(*by_default, c_steps()), c.by_default, std::string(c.key) + "_default");
    auto three = c.make({.thresholds = {0.25, 0.5, 0.75}});
    expect_values(run(*three, c_steps()), c.three, std::string(c.key) + "_three");
    auto even = c.make({.thresholds = {0.0, 0.5, 1.0}});
    expect_values(run(*even, c_steps()), c.even, std::string(c.key) + "_even");
  }
  EXPECT_EQ(TruePositives().name(), "true_positives");
  EXPECT_EQ(FalseNegatives().name(), "false_negatives");
  EXPECT_THROW(TruePositives({.thresholds = {1.5}}), InvalidArgumentError);
}

TEST(ConfusionCountTest, StatesMergeBySum) {
  FalsePositives a({.thresholds = {0.0, 0.5, 1.0}}), b({.thresholds = {0.0, 0.5, 1.0}}),
      both({.thresholds = {0.0, 0.5, 1.0}});
  Tensor w = constant({1.f, 2.f, 0.5f, 1.f, 3.f, 1.f});
  Tensor y2 = constant({0.f, 0.f, 1.f}), p2 = constant({0.7f, 0.3f, 0.9f});
  a.update_state(cy1(), cp1(), w);
  b.update_state(y2, p2);
  both.update_state(cy1(), cp1(), w);
  both.update_state(y2, p2);
  testing::expect_states_add(a, b, both);
}

Tensor sy1() { return constant({0.f, 0.f, 1.f, 1.f, 1.f, 0.f, 1.f, 0.f}); }
Tensor sp1() { return constant({0.1f, 0.4f, 0.35f, 0.8f, 0.5f, 0.55f, 0.9f, 0.2f}); }

std::vector<Step> s_steps() {
  return {{sy1(), sp1(), constant({1.f, 2.f, 1.f, 0.5f, 1.f, 1.f, 2.f, 1.f})},
          {constant({1.f, 0.f, 0.f, 1.f}), constant({0.6f, 0.7f, 0.05f, 0.3f}), {}},
          reset(),
          {sy1(), sp1(), {}}};
}

TEST(RateAtRateTest, FourMetrics) {
  SensitivityAtSpecificity sens(0.8);
  EXPECT_EQ(sens.name(), "sensitivity_at_specificity");
  EXPECT_EQ(sens.thresholds().size(), 200u);
  expect_values(run(sens, s_steps()), {0.777777791, 0.538461566, 0.5}, "sens_at_spec_08");
  SpecificityAtSensitivity spec(0.7);
  expect_values(run(spec, s_steps()), {0.800000012, 0.428571433, 0.75}, "spec_at_sens_07");
  PrecisionAtRecall prec(0.6);
  EXPECT_EQ(prec.name(), "precision_at_recall");
  expect_values(run(prec, s_steps()), {0.777777791, 0.692307711, 0.75}, "prec_at_rec_06");
  RecallAtPrecision rec(0.75);
  expect_values(run(rec, s_steps()), {0.777777791, 0.538461566, 0.75}, "rec_at_prec_075");
}

TEST(RateAtRateTest, ThresholdCountsAndClassId) {
  RecallAtPrecision one(0.5, {.num_thresholds = 1});
  EXPECT_EQ(one.thresholds(), std::vector<double>{0.5});
  expect_values(run(one, s_steps()), {0.555555582, 0.538461566, 0.5}, "rec_at_prec_n1");
  SensitivityAtSpecificity seven(0.5, {.num_thresholds = 7});
  expect_values(run(seven, s_steps()), {0.555555582, 0.538461566, 1}, "sens_at_spec_n7");
  // class_id on [batch, 2] predictions with a per-sample weight [batch].
  PrecisionAtRecall cls(0.5, {.class_id = 1});
  expect_values(run(cls, {{constant({{0.f, 1.f}, {1.f, 0.f}, {0.f, 1.f}, {1.f, 0.f}}),
                           constant({{0.3f, 0.7f}, {0.6f, 0.4f}, {0.8f, 0.2f}, {0.45f, 0.55f}}),
                           constant({1.f, 2.f, 0.5f, 1.f})}}),
                {1}, "prec_at_rec_class1");
  EXPECT_THROW(PrecisionAtRecall(1.5), InvalidArgumentError);
  EXPECT_THROW(SensitivityAtSpecificity(0.5, {.num_thresholds = 0}), InvalidArgumentError);
}

TEST(RateAtRateTest, StatesMergeBySum) {
  SpecificityAtSensitivity a(0.7), b(0.7), both(0.7);
  Tensor w = constant({1.f, 2.f, 1.f, 0.5f, 1.f, 1.f, 2.f, 1.f});
  Tensor y2 = constant({1.f, 0.f, 0.f, 1.f}), p2 = constant({0.6f, 0.7f, 0.05f, 0.3f});
  a.update_state(sy1(), sp1(), w);
  b.update_state(y2, p2);
  both.update_state(sy1(), sp1(), w);
  both.update_state(y2, p2);
  testing::expect_states_add(a, b, both);
}

}  // namespace
}  // namespace tfcc::keras::metrics
