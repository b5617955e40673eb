// Keras losses against values computed here from the tf.keras 2 formulas.
#include "tfcc/keras/losses/losses.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::keras::losses {
namespace {

constexpr double kTol = 1e-5;

double lse(std::vector<double> z) {
  double s = 0;
  for (double v : z) s += std::exp(v);
  return std::log(s);
}

std::vector<double> values(const Tensor& t) { return t.to_vector<double>(); }

TEST(SparseCategoricalCrossentropyTest, FromLogitsMatchesLogSumExp) {
  Tensor logits = constant({{1.f, 2.f, 3.f}, {1.f, 1.f, 1.f}});
  Tensor labels = constant({2, 0});
  double l0 = lse({1, 2, 3}) - 3, l1 = lse({1, 1, 1}) - 1;
  SparseCategoricalCrossentropy loss({.from_logits = true});
  EXPECT_EQ(loss.name(), "sparse_categorical_crossentropy");
  EXPECT_NEAR(loss(labels, logits).item<double>(), (l0 + l1) / 2, kTol);
  // Weights scale each sample; the default reduction still divides by the batch size.
  Tensor w = constant({1.f, 2.f});
  EXPECT_NEAR(loss(labels, logits, w).item<double>(), (l0 + 2 * l1) / 2, kTol);
  SparseCategoricalCrossentropy sum({.from_logits = true, .reduction = Reduction::kSum});
  EXPECT_NEAR(sum(labels, logits, w).item<double>(), l0 + 2 * l1, kTol);
  SparseCategoricalCrossentropy none({.from_logits = true, .reduction = Reduction::kNone});
  auto v = values(none(labels, logits, w));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NEAR(v[0], l0, kTol);
  EXPECT_NEAR(v[1], 2 * l1, kTol);
  // A scalar weight multiplies everything.
  EXPECT_NEAR(loss(labels, logits, constant(0.5f)).item<double>(), (l0 + l1) / 4, kTol);
}

TEST(SparseCategoricalCrossentropyTest, ProbabilitiesAreClippedAndRenormalised) {
  Tensor probs = constant({{0.1f, 0.2f, 0.7f}, {0.5f, 0.5f, 0.f}});
  // Keras: logits = log(clip(p, 1e-7, 1 - 1e-7)), then softmax cross-entropy (re-normalises).
  double l0 = -std::log(0.7 / (0.1 + 0.2 + 0.7));
  double l1 = -std::log(0.5 / (0.5 + 0.5 + 1e-7));
  SparseCategoricalCrossentropy loss;
  EXPECT_NEAR(loss(constant({2, 1}), probs).item<double>(), (l0 + l1) / 2, kTol);
  // Labels with a trailing dimension of 1, and float labels, are accepted.
  EXPECT_NEAR(loss(constant({{2.f}, {1.f}}), probs).item<double>(), (l0 + l1) / 2, kTol);
  // A zero probability for the true class gives -log(1e-7), not infinity.
  double big = -std::log(1e-7 / (0.5 + 0.5 + 1e-7));
  EXPECT_NEAR(loss(constant({2}), constant({{0.5f, 0.5f, 0.f}})).item<double>(), big, 1e-3);
}

TEST(SparseCategoricalCrossentropyTest, IgnoreClassAveragesOverValidEntries) {
  Tensor logits = constant({{1.f, 2.f, 3.f}, {1.f, 1.f, 1.f}, {0.f, 2.f, 0.f}});
  double l0 = lse({1, 2, 3}) - 3, l2 = lse({0, 2, 0}) - 2;
  SparseCategoricalCrossentropy loss({.from_logits = true, .ignore_class = -1});
  EXPECT_NEAR(loss(constant({2, -1, 1}), logits).item<double>(), (l0 + l2) / 2, kTol);
  SparseCategoricalCrossentropy none(
      {.from_logits = true, .ignore_class = -1, .reduction = Reduction::kNone});
  auto v = values(none(constant({2, -1, 1}), logits));
  EXPECT_NEAR(v[1], 0.0, kTol);
}

TEST(SparseCategoricalCrossentropyTest, BadShapesAreInvalidArgument) {
  SparseCategoricalCrossentropy loss({.from_logits = true});
  EXPECT_THROW(loss(constant({1, 2, 0}), constant({{1.f, 2.f}, {3.f, 4.f}})), InvalidArgumentError);
  EXPECT_THROW(loss(constant({5, 0}), constant({{1.f, 2.f}, {3.f, 4.f}})), Error);
}

TEST(SparseCategoricalCrossentropyTest, GradientIsSoftmaxMinusOneHotOverBatch) {
  Tensor logits = constant({{1.f, 2.f, 3.f}, {0.5f, -1.f, 2.f}});
  GradientTape tape;
  tape.watch(logits);
  Tensor l = SparseCategoricalCrossentropy({.from_logits = true})(constant({0, 2}), logits);
  auto g = values(tape.gradient(l, logits));
  std::vector<std::vector<double>> z = {{1, 2, 3}, {0.5, -1, 2}};
  int labels[] = {0, 2};
  for (int i = 0; i < 2; ++i) {
    double s = std::exp(lse(z[i]));
    for (int j = 0; j < 3; ++j) {
      double expected = (std::exp(z[i][j]) / s - (j == labels[i] ? 1 : 0)) / 2;
      EXPECT_NEAR(g[i * 3 + j], expected, kTol);
    }
  }
}

TEST(CategoricalCrossentropyTest, ProbabilitiesLogitsAndSmoothing) {
  Tensor y = constant({{0.f, 0.f, 1.f}, {1.f, 0.f, 0.f}});
  // Probabilities that do not sum to 1 are normalised first.
  Tensor p = constant({{0.2f, 0.2f, 0.4f}, {0.5f, 0.25f, 0.25f}});
  double l0 = -std::log(0.4 / 0.8), l1 = -std::log(0.5);
  EXPECT_NEAR(CategoricalCrossentropy()(y, p).item<double>(), (l0 + l1) / 2, kTol);
  Tensor z = constant({{1.f, 2.f, 3.f}, {0.f, 0.f, 0.f}});
  double f0 = lse({1, 2, 3}) - 3, f1 = lse({0, 0, 0}) - 0;
  EXPECT_NEAR(CategoricalCrossentropy({.from_logits = true})(y, z).item<double>(), (f0 + f1) / 2,
              kTol);
  // Smoothing 0.3 over 3 classes: targets 0.1, 0.1, 0.8.
  double s0 = 0.1 * (lse({1, 2, 3}) - 1) + 0.1 * (lse({1, 2, 3}) - 2) + 0.8 * (lse({1, 2, 3}) - 3);
  double s1 = lse({0, 0, 0});
  CategoricalCrossentropy smooth({.from_logits = true, .label_smoothing = 0.3});
  EXPECT_NEAR(smooth(y, z).item<double>(), (s0 + s1) / 2, kTol);
}

// Keras 3's formula: probabilities clipped to [eps, 1 - eps], then plain logs.
TEST(BinaryCrossentropyTest, ProbabilitiesAsKeras3) {
  Tensor y = constant({{0.f, 1.f}, {1.f, 1.f}});
  Tensor p = constant({{0.2f, 0.6f}, {0.9f, 0.4f}});
  auto bce = [&](double z, double q) { return -(z * std::log(q) + (1 - z) * std::log(1 - q)); };
  double r0 = (bce(0, 0.2) + bce(1, 0.6)) / 2, r1 = (bce(1, 0.9) + bce(1, 0.4)) / 2;
  BinaryCrossentropy loss;
  EXPECT_EQ(loss.name(), "binary_crossentropy");
  EXPECT_NEAR(loss(y, p).item<double>(), (r0 + r1) / 2, kTol);
  BinaryCrossentropy none({.reduction = Reduction::kNone});
  auto v = values(none(y, p));
  EXPECT_NEAR(v[0], r0, kTol);
  EXPECT_NEAR(v[1], r1, kTol);
  // Smoothing 0.2: targets 0.1 / 0.9.
  double t0 = (bce(0.1, 0.2) + bce(0.9, 0.6)) / 2, t1 = (bce(0.9, 0.9) + bce(0.9, 0.4)) / 2;
  EXPECT_NEAR(BinaryCrossentropy({.label_smoothing = 0.2})(y, p).item<double>(), (t0 + t1) / 2,
              kTol);
}

// A saturated prediction, as TensorFlow 2.21 computes it (Keras 2 gave 15.333239).
TEST(BinaryCrossentropyTest, SaturatedPredictionAsTensorFlow221) {
  Tensor y = constant({{0.f}});
  Tensor p = constant({{1.f}});
  EXPECT_NEAR(BinaryCrossentropy()(y, p).item<float>(), 15.942385f, 1e-5f);
}

TEST(BinaryCrossentropyTest, FromLogitsIsStableAndDifferentiable) {
  Tensor y = constant({{0.f, 1.f, 1.f}});
  Tensor x = constant({{-2.f, 0.5f, 100.f}});
  auto ref = [](double z, double x) {
    return std::max(x, 0.0) - x * z + std::log1p(std::exp(-std::abs(x)));
  };
  double expected = (ref(0, -2) + ref(1, 0.5) + ref(1, 100)) / 3;
  GradientTape tape;
  tape.watch(x);
  Tensor l = BinaryCrossentropy({.from_logits = true})(y, x);
  EXPECT_NEAR(l.item<double>(), expected, kTol);
  auto g = values(tape.gradient(l, x));
  double xs[] = {-2, 0.5, 100}, zs[] = {0, 1, 1};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(g[i], (1 / (1 + std::exp(-xs[i])) - zs[i]) / 3, kTol);
}

TEST(RegressionLossesTest, MseMaeHuberKld) {
  Tensor y = constant({{0.f, 1.f}, {2.f, 0.f}});
  Tensor p = constant({{0.5f, 1.f}, {0.f, 0.f}});
  // Per-sample means over the last axis: errors (0.5, 0) and (-2, 0).
  EXPECT_NEAR(MeanSquaredError()(y, p).item<double>(), (0.125 + 2.0) / 2, kTol);
  EXPECT_NEAR(MeanAbsoluteError()(y, p).item<double>(), (0.25 + 1.0) / 2, kTol);
  // Huber(delta=1): 0.5 e^2 for |e| <= 1, else |e| - 0.5.
  EXPECT_NEAR(Huber()(y, p).item<double>(), ((0.125 + 0) / 2 + (1.5 + 0) / 2) / 2, kTol);
  EXPECT_NEAR(Huber({.delta = 3.0})(y, p).item<double>(), ((0.125) / 2 + (2.0) / 2) / 2, kTol);
  Tensor t = constant({{0.5f, 0.5f}, {0.f, 1.f}});
  Tensor q = constant({{0.25f, 0.75f}, {0.5f, 0.5f}});
  const double e = 1e-7;
  double k0 = 0.5 * std::log(0.5 / 0.25) + 0.5 * std::log(0.5 / 0.75);
  double k1 = e * std::log(e / 0.5) + 1 * std::log(1 / 0.5);
  EXPECT_NEAR(KLDivergence()(t, q).item<double>(), (k0 + k1) / 2, kTol);
  // Weighted sum of the per-sample MSE.
  MeanSquaredError sum({.reduction = Reduction::kSum});
  EXPECT_NEAR(sum(y, p, constant({2.f, 0.f})).item<double>(), 0.25, kTol);
  // Integer inputs: computed in float32, cast back (Keras' compute_weighted_loss).
  Tensor int_loss = MeanAbsoluteError()(constant({{1, 2}, {3, 4}}), constant({{3, 2}, {3, 9}}));
  EXPECT_EQ(int_loss.dtype(), int32);
  EXPECT_EQ(int_loss.item<int>(), 1);  // per-sample integer means 1 and 2, mean 1.5 -> 1
  // Weights with a trailing dimension of 1 are squeezed to match.
  EXPECT_NEAR(sum(y, p, constant({{2.f}, {0.f}})).item<double>(), 0.25, kTol);
}

TEST(RegressionLossesTest, MseGradient) {
  Tensor y = constant({{1.f, 2.f}});
  Tensor p = constant({{0.f, 4.f}});
  GradientTape tape;
  tape.watch(p);
  Tensor l = MeanSquaredError()(y, p);
  auto g = values(tape.gradient(l, p));
  // d/dp mean((p - y)^2) = 2 (p - y) / 2.
  EXPECT_NEAR(g[0], -1.0, kTol);
  EXPECT_NEAR(g[1], 2.0, kTol);
}

TEST(LossWrapperTest, CustomFunctionAndNames) {
  LossFunctionWrapper l1(
      [](const Tensor& t, const Tensor& p) { return reduce_sum(abs(p - t), -1); }, {.name = "l1"});
  EXPECT_EQ(l1.name(), "l1");
  EXPECT_NEAR(l1(constant({{1.f, 1.f}}), constant({{0.f, 3.f}})).item<double>(), 3.0, kTol);
  EXPECT_EQ(reduction_name(Reduction::kSumOverBatchSize), "sum_over_batch_size");
}

TEST(LossesGetTest, NamesAndAliases) {
  EXPECT_EQ(get("sparse_categorical_crossentropy")->name(), "sparse_categorical_crossentropy");
  EXPECT_EQ(get("mse")->name(), "mean_squared_error");
  EXPECT_EQ(get("mae")->name(), "mean_absolute_error");
  EXPECT_EQ(get("huber")->name(), "huber_loss");
  EXPECT_EQ(get("kld")->name(), "kl_divergence");
  EXPECT_EQ(get("BinaryCrossentropy")->name(), "binary_crossentropy");
  EXPECT_THROW(get("no_such_loss"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::losses
