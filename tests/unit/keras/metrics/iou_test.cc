// IoU metrics against Keras 3.15.1: the expected values were printed by
// testdata/keras3_metric_values.py (run with /work/tf-venv/bin/python) for the same inputs.
#include "tfcc/keras/metrics/iou.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/metrics/metric_steps.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

using testing::expect_values;
using testing::reset;
using testing::run;
using testing::Step;

Tensor y1() { return constant({0, 1, 2, 2, 1, 0}); }
Tensor p1() { return constant({0, 2, 2, 1, 1, 0}); }
Tensor y2() { return constant({{2, 0}, {1, 1}}); }
Tensor p2() { return constant({{2, 1}, {1, 0}}); }

std::vector<Step> steps() {
  return {{y1(), p1(), constant({1.f, 2.f, 1.f, 3.f, 1.f, 0.f})},
          {y2(), p2(), constant({{1.f, 1.f}, {2.f, 1.f}})},
          reset(),
          {y1(), p1(), {}}};
}

std::vector<Step> fractional() {
  return {{y1(), p1(), constant({0.5f, 1.5f, 1.f, 2.5f, 0.25f, 1.f})},
          {y2(), p2(), constant({{0.3f, 0.7f}, {1.2f, 0.9f}})}};
}

TEST(IoUTest, MeanIoUOverBatchesAndReset) {
  MeanIoU m(3);
  EXPECT_EQ(m.name(), "mean_io_u");
  EXPECT_EQ(m.dtype(), int64);  // Keras 3's "int"
  ASSERT_EQ(m.variables().size(), 1u);
  EXPECT_EQ(m.variables()[0].shape(), Shape({3, 3}));
  expect_values(run(m, steps()), {0.444444388, 0.306349188, 0.555555582}, "mean_iou_int");
  // Batch 1: cm = [[1, 0, 0], [0, 1, 2], [0, 3, 1]] (rows: labels, weight 0 drops the last 0).
  MeanIoU hand(3);
  hand.update_state(y1(), p1(), constant({1.f, 2.f, 1.f, 3.f, 1.f, 0.f}));
  std::vector<int64_t> cm = hand.variables()[0].read_value().to_vector<int64_t>();
  EXPECT_EQ(cm, (std::vector<int64_t>{1, 0, 0, 0, 1, 2, 0, 3, 1}));
}

TEST(IoUTest, IntegerStateTruncatesWeightsFloatStateKeepsThem) {
  MeanIoU truncated(3);
  expect_values(run(truncated, fractional()), {0.416666627, 0.49999997}, "mean_iou_int_frac");
  MeanIoU exact(3, {.dtype = float32});
  expect_values(run(exact, fractional()), {0.419607848, 0.311609238}, "mean_iou_float_frac");
}

TEST(IoUTest, IgnoreClassAndOutOfRangeValues) {
  MeanIoU m(3, {.dtype = float32, .ignore_class = 255});
  expect_values(run(m, {{constant({0, 1, 255, 2, 1, 0}), constant({0, 2, 2, 3, -1, 0}),
                         constant({1.f, 2.f, 1.f, 3.f, 1.f, 1.f})},
                        {constant({255, 2, 2}), constant({1, 2, 0}), {}}}),
                {0.333333343, 0.305555552}, "mean_iou_ignore");
}

TEST(IoUTest, TargetClassIds) {
  IoU two(3, {0, 2}, {.dtype = float32});
  EXPECT_EQ(two.name(), "io_u");
  expect_values(run(two, fractional()), {0.599999964, 0.364576936}, "iou_0_2");
  IoU one(3, {1});
  expect_values(run(one, steps()), {0.166666657, 0.299999982, 0.333333313}, "iou_1");
  EXPECT_THROW(IoU(3, {3}), InvalidArgumentError);
  EXPECT_THROW(IoU(3, {-1}), InvalidArgumentError);
  EXPECT_THROW(IoU(3, {}), InvalidArgumentError);
  EXPECT_THROW(MeanIoU(0), InvalidArgumentError);
}

TEST(IoUTest, BinaryIoUThresholdIsInclusive) {
  std::vector<Step> s = {
      {constant({0, 1, 0, 1, 1}), constant({0.1f, 0.2f, 0.4f, 0.7f, 0.3f}),
       constant({0.2f, 0.3f, 0.4f, 0.1f, 1.f})},
      {constant({{1, 0}, {0, 1}}), constant({{0.9f, 0.3f}, {0.05f, 0.31f}}), {}}};
  BinaryIoU f({.threshold = 0.3, .dtype = float32});
  EXPECT_EQ(f.name(), "binary_io_u");
  expect_values(run(f, s), {0.416666627, 0.52981329}, "binary_iou_float");
  BinaryIoU i({.target_class_ids = {1}});
  expect_values(run(i, s), {0, 0.333333313}, "binary_iou_int_1");
}

TEST(IoUTest, OneHotLabelsAndScores) {
  std::vector<Step> s = {
      {constant({{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}}),
       constant({{0.1f, 0.2f, 0.7f}, {0.2f, 0.7f, 0.1f}, {0.1f, 0.6f, 0.3f}, {0.5f, 0.4f, 0.1f}}),
       constant({1.f, 2.f, 1.f, 3.f})},
      {constant({{0, 1, 0}, {0, 0, 1}}), constant({{0.3f, 0.3f, 0.4f}, {0.2f, 0.1f, 0.7f}}),
       constant({2.f, 1.f})}};
  OneHotIoU iou(3, {0, 1}, {.dtype = float32});
  EXPECT_EQ(iou.name(), "one_hot_io_u");
  expect_values(run(iou, s), {0.466666698, 0.400000006}, "one_hot_iou_0_1");
  OneHotMeanIoU mean(3);
  EXPECT_EQ(mean.name(), "one_hot_mean_io_u");
  expect_values(run(mean, s), {0.644444406, 0.433333308}, "one_hot_mean_iou");
}

TEST(IoUTest, StatesMergeBySum) {
  MeanIoU a(3, {.dtype = float32}), b(3, {.dtype = float32}), both(3, {.dtype = float32});
  Tensor w1 = constant({0.5f, 1.5f, 1.f, 2.5f, 0.25f, 1.f});
  Tensor w2 = constant({{0.3f, 0.7f}, {1.2f, 0.9f}});
  a.update_state(y1(), p1(), w1);
  b.update_state(y2(), p2(), w2);
  both.update_state(y1(), p1(), w1);
  both.update_state(y2(), p2(), w2);
  testing::expect_states_add(a, b, both);
}

TEST(IoUTest, TracedUpdateMatchesEager) {
  MeanIoU eager(3, {.dtype = float32}), traced(3, {.dtype = float32});
  Tensor w = constant({1.f, 2.f, 1.f, 3.f, 1.f, 0.f});
  eager.update_state(y1(), p1(), w);
  auto step = tfcc::function([&](const Tensor& y, const Tensor& p, const Tensor& wt) {
    traced.update_state(y, p, wt);
    return traced.result();
  });
  Tensor r = step(y1(), p1(), w);
  EXPECT_NEAR(r.item<double>(), eager.result().item<double>(), 1e-7);
}

}  // namespace
}  // namespace tfcc::keras::metrics
