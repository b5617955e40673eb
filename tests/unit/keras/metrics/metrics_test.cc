// Keras metrics against values computed by hand (and, where marked, printed by Keras 3.15.1).
#include "tfcc/keras/metrics/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

constexpr double kTol = 1e-6;

double value(const Tensor& t) { return t.item<double>(); }

TEST(MeanTest, WeightedMeanAndReset) {
  Mean m;
  EXPECT_EQ(m.name(), "mean");
  EXPECT_EQ(m.variables().size(), 2u);
  EXPECT_NEAR(value(m(constant({1.f, 2.f, 3.f}))), 2.0, kTol);
  // Weighted: total += sum(v w), count += sum(w).
  m.update_state(constant({4.f, 10.f}), constant({1.f, 0.f}));
  EXPECT_NEAR(value(m.result()), (1 + 2 + 3 + 4) / 4.0, kTol);
  // A scalar value counts once.
  m.update_state(constant(14.f));
  EXPECT_NEAR(value(m.result()), 24 / 5.0, kTol);
  m.reset_state();
  EXPECT_NEAR(value(m.result()), 0.0, kTol);  // divide_no_nan of 0 / 0
  m.update_state(constant({{1.f, 3.f}, {5.f, 7.f}}), constant({1.f, 3.f}));
  // Weights [2] broadcast as [2, 1] over [2, 2]: (1 + 3 + 3 * 12) / (2 + 6).
  EXPECT_NEAR(value(m.result()), 40 / 8.0, kTol);
}

TEST(MeanTest, SumAndErrors) {
  Sum s({.name = "total"});
  EXPECT_EQ(s.name(), "total");
  s.update_state(constant({1.f, 2.f}), constant({2.f, 3.f}));
  s.update_state(constant(4.f));
  EXPECT_NEAR(value(s.result()), 12.0, kTol);
  Metric& base = s;
  EXPECT_THROW(base.update_state(constant(1.f), constant(1.f), constant(1.f)),
               InvalidArgumentError);
  EXPECT_THROW(Mean({.dtype = int32}), InvalidArgumentError);
}

TEST(AccuracyTest, ExactSparseCategoricalBinary) {
  Accuracy acc;
  EXPECT_NEAR(value(acc(constant({1, 2, 3, 4}), constant({0, 2, 3, 4}))), 0.75, kTol);
  // Both sides are cast to float32 first: 3.9 does not match 3.
  Accuracy mixed;
  EXPECT_NEAR(value(mixed(constant({1, 2, 3}), constant({1.f, 2.f, 3.9f}))), 2 / 3.0, kTol);

  SparseCategoricalAccuracy sparse({.name = "my_accuracy"});
  EXPECT_EQ(sparse.name(), "my_accuracy");
  Tensor logits = constant({{0.1f, 0.9f, 0.f}, {0.8f, 0.1f, 0.1f}, {0.2f, 0.3f, 0.5f}});
  sparse.update_state(constant({1, 1, 2}), logits);
  EXPECT_NEAR(value(sparse.result()), 2 / 3.0, kTol);
  // Labels [batch, 1] and sample weights: (1 * 1 + 0 * 2 + 1 * 3) / 6 on top of the above.
  sparse.update_state(constant({{1.f}, {1.f}, {2.f}}), logits, constant({1.f, 2.f, 3.f}));
  EXPECT_NEAR(value(sparse.result()), (2 + 4) / (3.0 + 6.0), kTol);

  CategoricalAccuracy cat;
  EXPECT_NEAR(value(cat(constant({{0.f, 1.f, 0.f}, {0.f, 0.f, 1.f}, {1.f, 0.f, 0.f}}), logits)),
              1 / 3.0, kTol);

  BinaryAccuracy bin;
  Tensor y = constant({{1.f}, {1.f}, {0.f}, {0.f}});
  Tensor p = constant({{0.98f}, {0.6f}, {0.1f}, {0.6f}});
  EXPECT_NEAR(value(bin(y, p)), 0.75, kTol);
  BinaryAccuracy strict({.threshold = 0.7});
  EXPECT_NEAR(value(strict(y, p)), 0.75, kTol);  // 0.6 -> 0: second wrong, fourth right
  BinaryAccuracy rows;
  // Mean over the last axis first: rows 1/2 and 2/2, then the mean of rows.
  EXPECT_NEAR(
      value(rows(constant({{1.f, 0.f}, {1.f, 1.f}}), constant({{0.9f, 0.9f}, {0.8f, 0.7f}}))), 0.75,
      kTol);
}

TEST(AccuracyTest, TopK) {
  Tensor scores = constant({{0.1f, 0.5f, 0.4f}, {0.3f, 0.3f, 0.4f}, {0.7f, 0.2f, 0.1f}});
  SparseTopKCategoricalAccuracy top2({.k = 2});
  EXPECT_EQ(top2.name(), "sparse_top_k_categorical_accuracy");
  // Row 0: label 2 (0.4) is second -> in. Row 1: label 0 (0.3) ties with 1, only 0.4 beats
  // it -> in. Row 2: label 2 (0.1) is last -> out.
  EXPECT_NEAR(value(top2(constant({2, 0, 2}), scores)), 2 / 3.0, kTol);
  TopKCategoricalAccuracy top1({.k = 1});
  Tensor onehot = constant({{0.f, 1.f, 0.f}, {0.f, 0.f, 1.f}, {0.f, 1.f, 0.f}});
  EXPECT_NEAR(value(top1(onehot, scores)), 2 / 3.0, kTol);
  EXPECT_EQ(TopKCategoricalAccuracy().name(), "top_k_categorical_accuracy");
}

TEST(AccuracyTest, MeanSquaredErrorMetric) {
  MeanSquaredError mse;
  EXPECT_EQ(mse.name(), "mean_squared_error");
  mse.update_state(constant({{0.f, 1.f}, {2.f, 0.f}}), constant({{0.5f, 1.f}, {0.f, 0.f}}));
  EXPECT_NEAR(value(mse.result()), (0.125 + 2.0) / 2, kTol);
  mse.update_state(constant({{0.f, 0.f}}), constant({{1.f, 1.f}}), constant({2.f}));
  EXPECT_NEAR(value(mse.result()), (0.125 + 2.0 + 2 * 1.0) / 4, kTol);
}

TEST(PrecisionRecallTest, DefaultThresholdAndWeights) {
  Tensor y = constant({0.f, 1.f, 1.f, 0.f, 1.f});
  Tensor p = constant({0.6f, 0.8f, 0.3f, 0.2f, 0.9f});
  Precision precision;
  Recall recall;
  // Predicted positive (> 0.5): 0, 1, 4. tp = 2 (1, 4), fp = 1 (0), fn = 1 (2).
  EXPECT_NEAR(value(precision(y, p)), 2 / 3.0, kTol);
  EXPECT_NEAR(value(recall(y, p)), 2 / 3.0, kTol);
  Tensor w = constant({3.f, 1.f, 2.f, 1.f, 1.f});
  Precision wp;
  Recall wr;
  EXPECT_NEAR(value(wp(y, p, w)), 2 / 5.0, kTol);  // tp 1 + 1, fp 3
  EXPECT_NEAR(value(wr(y, p, w)), 2 / 4.0, kTol);  // tp 2, fn 2
  precision.reset_state();
  EXPECT_NEAR(value(precision.result()), 0.0, kTol);
  // Several thresholds give a vector.
  Precision multi({.thresholds = {0.25, 0.85}});
  auto r = multi(y, p).to_vector<double>();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_NEAR(r[0], 3 / 4.0, kTol);  // > 0.25: 0, 1, 2, 4
  EXPECT_NEAR(r[1], 1.0, kTol);      // > 0.85: 4
  EXPECT_THROW(Precision({.thresholds = {1.5}}), InvalidArgumentError);
  // Keras 3 does not assert probabilities: 2 > 0.5 is a positive (tf.keras 2 threw).
  Precision loose;
  EXPECT_NEAR(value(loose(y, constant({0.f, 1.f, 2.f, 0.f, 0.f}))), 1.0, kTol);
}

// Values printed by Keras 3.15.1 (testdata/keras3_metric_values.py): predictions exactly on
// evenly spaced thresholds and outside [0, 1], counted by bucket ceil(p (n - 1)) - 1 of the
// clipped predictions.
TEST(PrecisionRecallTest, EvenlySpacedThresholdsAsKeras3) {
  Tensor y = constant({0.f, 1.f, 0.f, 1.f, 1.f, 0.f, 1.f});
  Tensor p = constant({0.f, 0.25f, 0.5f, 0.75f, 1.f, 1.2f, -0.1f});
  Tensor w = constant({1.f, 2.f, 1.f, 0.5f, 1.f, 1.f, 2.f});
  Recall recall({.thresholds = {0.0, 0.25, 0.5, 0.75, 1.0}});
  std::vector<double> r = recall(y, p, w).to_vector<double>();
  std::vector<double> want = {0.636363626, 0.272727281, 0.272727281, 0.181818187, 0};
  ASSERT_EQ(r.size(), want.size());
  for (size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(r[i], want[i], 1e-6) << i;
  AUC roc({.num_thresholds = 5});
  EXPECT_NEAR(value(roc(y, p, w)), 0.333333313, 1e-6);
  AUC pr({.num_thresholds = 5, .curve = AUCCurve::kPR});
  EXPECT_NEAR(value(pr(y, p)), 0.544787526, 1e-6);
}

TEST(PrecisionRecallTest, TopKAndClassId) {
  Tensor y = constant({{0.f, 0.f, 1.f, 1.f}, {1.f, 0.f, 0.f, 1.f}});
  Tensor p = constant({{0.1f, 0.7f, 0.6f, 0.2f}, {0.9f, 0.8f, 0.1f, 0.3f}});
  Precision top2({.top_k = 2});
  // Top 2 per row: (1, 2) and (0, 1): tp = 1 + 1, fp = 1 + 1.
  EXPECT_NEAR(value(top2(y, p)), 0.5, kTol);
  // Ties go to the lower index, as tf.math.top_k: of three 0.5s, indices 0 and 1 are kept.
  Recall tie_recall({.top_k = 2});
  EXPECT_NEAR(
      value(tie_recall(constant({{0.f, 0.f, 1.f, 0.f}}), constant({{0.5f, 0.5f, 0.5f, 0.1f}}))),
      0.0, kTol);
  Recall tie_recall0({.top_k = 2});
  EXPECT_NEAR(
      value(tie_recall0(constant({{0.f, 1.f, 0.f, 0.f}}), constant({{0.5f, 0.5f, 0.5f, 0.1f}}))),
      1.0, kTol);
  Recall class3({.class_id = 3});
  // Class 3: labels 1, 1; predictions 0.2, 0.3 -> both negative.
  EXPECT_NEAR(value(class3(y, p)), 0.0, kTol);
  Recall class0({.class_id = 0});
  EXPECT_NEAR(value(class0(y, p)), 1.0, kTol);
}

// class_id with a per-sample weight [B]: TensorFlow 2.21 gives 1.5 / 4.5 and 1.5 / 3.5.
TEST(ConfusionMetrics, ClassIdWithPerSampleWeightsAsTensorFlow) {
  Tensor y = constant({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}});
  Tensor p = constant({{.1f, .8f, .1f}, {.6f, .3f, .1f}, {.2f, .7f, .1f}, {.1f, .6f, .3f}});
  Tensor w = constant({1.f, 2.f, 3.f, 0.5f});
  Precision precision({.class_id = 1});
  precision.update_state(y, p, w);
  EXPECT_NEAR(precision.result().item<float>(), 0.33333334f, 1e-6f);
  Recall recall({.class_id = 1});
  recall.update_state(y, p, w);
  EXPECT_NEAR(recall.result().item<float>(), 0.42857143f, 1e-6f);
}

// tf.keras' AUC, written out independently: counts at each threshold, then the Riemann sum.
double reference_auc(const std::vector<double>& y, const std::vector<double>& p, int n, bool roc,
                     bool pr_interpolation) {
  std::vector<double> th{-1e-7};
  for (int i = 1; i <= n - 2; ++i) th.push_back(float(double(i) / (n - 1)));
  th.push_back(1 + 1e-7);
  std::vector<double> tp(n), fp(n), tn(n), fn(n);
  for (int t = 0; t < n; ++t) {
    for (size_t i = 0; i < y.size(); ++i) {
      bool pos = float(p[i]) > float(th[t]);
      (y[i] > 0 ? (pos ? tp : fn) : (pos ? fp : tn))[t] += 1;
    }
  }
  auto safe = [](double a, double b) { return b == 0 ? 0.0 : a / b; };
  double area = 0;
  for (int t = 0; t + 1 < n; ++t) {
    if (pr_interpolation) {
      double dtp = tp[t] - tp[t + 1];
      double p0 = tp[t] + fp[t], p1 = tp[t + 1] + fp[t + 1];
      double slope = safe(dtp, std::max(p0 - p1, 0.0));
      double intercept = tp[t + 1] - slope * p1;
      double ratio = (p0 > 0 && p1 > 0) ? safe(p0, std::max(p1, 0.0)) : 1.0;
      area +=
          safe(slope * (dtp + intercept * std::log(ratio)), std::max(tp[t + 1] + fn[t + 1], 0.0));
      continue;
    }
    double r0 = safe(tp[t], tp[t] + fn[t]), r1 = safe(tp[t + 1], tp[t + 1] + fn[t + 1]);
    double x0, x1, y0, y1;
    if (roc) {
      x0 = safe(fp[t], fp[t] + tn[t]);
      x1 = safe(fp[t + 1], fp[t + 1] + tn[t + 1]);
      y0 = r0;
      y1 = r1;
    } else {
      x0 = r0;
      x1 = r1;
      y0 = safe(tp[t], tp[t] + fp[t]);
      y1 = safe(tp[t + 1], tp[t + 1] + fp[t + 1]);
    }
    area += (x0 - x1) * (y0 + y1) / 2;
  }
  return area;
}

TEST(AUCTest, RocMatchesTheRankStatistic) {
  AUC auc;
  EXPECT_EQ(auc.name(), "auc");
  EXPECT_EQ(auc.thresholds().size(), 200u);
  EXPECT_EQ(auc.variables().size(), 4u);
  // Distinct buckets: the ROC polyline area equals the exact AUC, 3 of 4 pairs ordered.
  EXPECT_NEAR(value(auc(constant({0.f, 0.f, 1.f, 1.f}), constant({0.1f, 0.4f, 0.35f, 0.8f}))), 0.75,
              1e-5);
  std::vector<double> y = {0, 1, 1, 0, 1, 0, 1, 1}, p = {0.1, 0.9, 0.52, 0.5, 0.3, 0.55, 0.7, 0.7};
  AUC roc({.num_thresholds = 7});
  roc.update_state(constant(std::vector<float>(y.begin(), y.end())),
                   constant(std::vector<float>(p.begin(), p.end())));
  EXPECT_NEAR(value(roc.result()), reference_auc(y, p, 7, true, false), 1e-5);
}

TEST(AUCTest, PrCurveInterpolationAndMajoring) {
  std::vector<double> y = {0, 1, 1, 0, 1, 0, 1, 1}, p = {0.1, 0.9, 0.52, 0.5, 0.3, 0.55, 0.7, 0.7};
  Tensor yt = constant(std::vector<float>(y.begin(), y.end()));
  Tensor pt = constant(std::vector<float>(p.begin(), p.end()));
  AUC pr({.num_thresholds = 9, .curve = AUCCurve::kPR});
  EXPECT_NEAR(value(pr(yt, pt)), reference_auc(y, p, 9, false, true), 1e-5);
  AUC pr_major(
      {.num_thresholds = 9, .curve = AUCCurve::kPR, .summation_method = AUCSummation::kMajoring});
  double majoring = value(pr_major(yt, pt));
  EXPECT_GT(majoring, 0.0);
  // From logits: the sigmoid is applied first.
  std::vector<float> logits;
  for (double v : p) logits.push_back(float(std::log(v / (1 - v))));
  AUC roc_logits({.num_thresholds = 9, .from_logits = true});
  EXPECT_NEAR(value(roc_logits(yt, constant(logits))), reference_auc(y, p, 9, true, false), 1e-5);
  EXPECT_THROW(AUC({.num_thresholds = 1}), InvalidArgumentError);
}

TEST(MetricTest, MovesIntoSharedPointers) {
  SparseCategoricalAccuracy acc({.name = "my_accuracy"});
  acc.update_state(constant({0}), constant({{0.9f, 0.1f}}));
  std::shared_ptr<Metric> held = std::make_shared<SparseCategoricalAccuracy>(std::move(acc));
  EXPECT_EQ(held->name(), "my_accuracy");
  held->update_state(constant({0}), constant({{0.1f, 0.9f}}));
  EXPECT_NEAR(value(held->result()), 0.5, kTol);
}

TEST(MetricsGetTest, NamesAreAsPassedAndAccuracyFollowsShapes) {
  auto acc = get("acc");
  EXPECT_EQ(acc->name(), "acc");
  // Sparse labels against class scores: sparse categorical accuracy.
  acc->update_state(constant({1, 0}), constant({{0.2f, 0.8f}, {0.6f, 0.4f}}));
  EXPECT_NEAR(value(acc->result()), 1.0, kTol);
  // A last dimension of 1: binary accuracy.
  auto bin = get("accuracy");
  EXPECT_EQ(bin->name(), "accuracy");
  bin->update_state(constant({{1.f}, {0.f}}), constant({{0.8f}, {0.7f}}));
  EXPECT_NEAR(value(bin->result()), 0.5, kTol);
  // One-hot labels: categorical accuracy.
  auto cat = get("accuracy");
  cat->update_state(constant({{0.f, 1.f}, {0.f, 1.f}}), constant({{0.2f, 0.8f}, {0.6f, 0.4f}}));
  EXPECT_NEAR(value(cat->result()), 0.5, kTol);
  EXPECT_EQ(get("mse")->name(), "mse");
  EXPECT_EQ(get("sparse_categorical_accuracy")->name(), "sparse_categorical_accuracy");
  EXPECT_NE(dynamic_cast<AUC*>(get("AUC").get()), nullptr);
  EXPECT_NE(dynamic_cast<Accuracy*>(get("Accuracy").get()), nullptr);
  EXPECT_THROW(get("no_such_metric"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::metrics
