// The loss-based metrics accumulated over two batches with sample weights, against the values
// Keras 3.15 (TensorFlow 2.21) gives for the same updates; reset_state and the get() names.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/metrics.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

Tensor yt() { return constant({{0.f, 1.f, 0.f}, {1.f, 0.f, 1.f}, {0.f, 0.f, 1.f}}); }
Tensor yp() { return constant({{0.2f, 0.7f, 0.1f}, {0.6f, 0.3f, 0.9f}, {0.3f, 0.3f, 0.4f}}); }
Tensor reg_t() { return constant({{1.f, 2.f, 0.5f}, {3.f, 0.f, 2.f}, {1.f, 1.f, 1.f}}); }
Tensor reg_p() { return constant({{1.5f, 1.f, 0.2f}, {2.f, 0.5f, -1.f}, {0.5f, 1.f, 2.f}}); }
Tensor weights() { return constant({1.f, 2.f, 0.5f}); }

// Rows 0-1 then row 2, each with its weights, as the Keras run did.
double two_batches(Metric& m, const Tensor& t, const Tensor& p) {
  Tensor w = weights();
  m.update_state(t(Slice(0, 2)), p(Slice(0, 2)), w(Slice(0, 2)));
  m.update_state(t(Slice(2, 3)), p(Slice(2, 3)), w(Slice(2, 3)));
  return m.result().item<float>();
}

void expect_metric(Metric& m, const Tensor& t, const Tensor& p, double want,
                   const std::string& name) {
  EXPECT_EQ(m.name(), name);
  EXPECT_NEAR(two_batches(m, t, p), want, 1e-5 * (1 + std::abs(want))) << name;
  m.reset_state();
  EXPECT_NEAR(two_batches(m, t, p), want, 1e-5 * (1 + std::abs(want))) << name << " after reset";
}

TEST(LossMetrics, MatchKeras3OverTwoWeightedBatches) {
  Tensor scores = subtract(multiply(yp(), 2.0), 1.0);
  BinaryCrossentropy bce;
  expect_metric(bce, yt(), yp(), 0.3281639516353607, "binary_crossentropy");
  BinaryCrossentropy bce_logits({.from_logits = true, .label_smoothing = 0.1});
  expect_metric(bce_logits, yt(), reg_p(), 0.8453314900398254, "binary_crossentropy");
  CategoricalCrossentropy cce;
  expect_metric(cce, yt(), yp(), 1.2566683292388916, "categorical_crossentropy");
  KLDivergence kld;
  expect_metric(kld, yt(), yp(), 0.5849100947380066, "kl_divergence");
  Poisson poisson;
  expect_metric(poisson, reg_t(), abs(reg_p()), 0.7324161529541016, "poisson");
  Hinge hinge;
  expect_metric(hinge, yt(), scores, 0.5333333611488342, "hinge");
  SquaredHinge squared_hinge;
  expect_metric(squared_hinge, yt(), scores, 0.35428571701049805, "squared_hinge");
  CategoricalHinge categorical_hinge;
  expect_metric(categorical_hinge, yt(), yp(), 0.27142855525016785, "categorical_hinge");
  MeanSquaredLogarithmicError msle;
  expect_metric(msle, reg_t(), reg_p(), 0.31388503313064575, "mean_squared_logarithmic_error");
  MeanAbsolutePercentageError mape;
  expect_metric(mape, add(reg_t(), 1.0), reg_p(), 67.3809585571289,
                "mean_absolute_percentage_error");
  LogCoshError logcosh;
  expect_metric(logcosh, reg_t(), reg_p(), 0.6287268400192261, "logcosh");
  CosineSimilarity cosine;
  expect_metric(cosine, reg_t(), reg_p(), 0.6501531004905701, "cosine_similarity");
  RootMeanSquaredError rmse;
  expect_metric(rmse, reg_t(), reg_p(), 1.462711215019226, "root_mean_squared_error");
}

TEST(LossMetrics, SparseCategoricalCrossentropyMatchesKeras3) {
  SparseCategoricalCrossentropy scce;
  scce.update_state(constant(std::vector<int64_t>{1, 2, 2}), yp(), weights());
  EXPECT_NEAR(scce.result().item<float>(), 0.6288899183273315, 1e-6);
}

TEST(LossMetrics, GetByKerasNames) {
  for (const char* n : {"binary_crossentropy", "CategoricalCrossentropy", "kld", "poisson", "hinge",
                        "SquaredHinge", "categorical_hinge", "msle", "mape", "logcosh",
                        "CosineSimilarity", "RootMeanSquaredError"}) {
    EXPECT_NE(get(n), nullptr) << n;
  }
  EXPECT_EQ(get("RootMeanSquaredError")->name(), "RootMeanSquaredError");
  EXPECT_EQ(get("root_mean_squared_error")->name(), "root_mean_squared_error");
}

}  // namespace
}  // namespace tfcc::keras::metrics
