// The regression, hinge, focal and overlap losses against the values Keras 3.15 (TensorFlow 2.21)
// computes for the same inputs (printed by keras.losses.<name> in Python), plus their gradients,
// names and get() lookups.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/autodiff/gradient_checker.h"
#include "tfcc/keras/losses/losses.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::losses {
namespace {

Tensor yt() { return constant({{0.f, 1.f, 0.f}, {1.f, 0.f, 1.f}}); }
Tensor yp() { return constant({{0.2f, 0.7f, 0.1f}, {0.6f, 0.3f, 0.9f}}); }
Tensor reg_t() { return constant({{1.f, 2.f, 0.5f}, {3.f, 0.f, 2.f}}); }
Tensor reg_p() { return constant({{1.5f, 1.f, 0.2f}, {2.f, 0.5f, -1.f}}); }
Tensor one_hot() { return constant({{0.f, 1.f, 0.f}, {0.f, 0.f, 1.f}}); }

void expect_values(const Tensor& got, const std::vector<double>& want) {
  std::vector<double> g = cast(got, float64).to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-5 * (1 + std::abs(want[i])));
}

TEST(RegressionLosses, MatchKeras3) {
  expect_values(mean_squared_logarithmic_error(reg_t(), reg_p()), {0.087996013, 0.484703869});
  expect_values(mean_absolute_percentage_error(reg_t(), reg_p()), {53.33333588, 1.666667360e8});
  expect_values(log_cosh(reg_t(), reg_p()), {0.199412063, 0.95440799});
  expect_values(poisson(reg_t(), abs(reg_p())), {1.033084393, 0.473519415});
  expect_values(cosine_similarity(reg_t(), reg_p()), {-0.866213322, -0.484182});
  expect_values(CosineSimilarity({.axis = 0})(reg_t(), reg_p()), {-0.31312418});
}

TEST(HingeLosses, MatchKeras3) {
  Tensor scores = subtract(multiply(yp(), 2.0), 1.0);
  expect_values(hinge(yt(), scores), {0.400000006, 0.533333361});  // {0, 1} labels converted
  expect_values(hinge(subtract(multiply(yt(), 2.0), 1.0), yp()), {0.866666615, 0.599999964});
  expect_values(squared_hinge(yt(), scores), {0.186666667, 0.346666664});
  expect_values(categorical_hinge(yt(), yp()), {0.5, 0.0});
}

TEST(FocalLosses, MatchKeras3) {
  expect_values(binary_focal_crossentropy(yt(), yp()), {0.014026698, 0.038295481});
  expect_values(binary_focal_crossentropy(yt(), yp(), /*apply_class_balancing=*/true,
                                          /*alpha=*/0.3, /*gamma=*/1.5, false, 0.1),
                {0.017572517, 0.032447949});
  BinaryFocalCrossentropy from_logits({.from_logits = true, .reduction = Reduction::kNone});
  expect_values(from_logits(yt(), reg_p()), {0.467073917, 0.360361189});
  expect_values(categorical_focal_crossentropy(one_hot(), yp()), {0.008025187, 0.043321699});
  CategoricalFocalCrossentropy smooth({.alpha = 0.5,
                                       .gamma = 1.0,
                                       .from_logits = true,
                                       .label_smoothing = 0.2,
                                       .reduction = Reduction::kNone});
  expect_values(smooth(one_hot(), reg_p()), {0.396698087, 1.399225712});
}

TEST(OverlapLosses, MatchKeras3) {
  expect_values(Dice()(yt(), yp()), {0.24137938});
  expect_values(dice(yt(), yp(), Axes(1)), {0.300000012, 0.210526288});
  expect_values(Tversky({.alpha = 0.3, .beta = 0.7})(yt(), yp()), {0.230769277});
  expect_values(tversky(yt(), yp(), 0.3, 0.7, Axes(1)), {0.300000072, 0.193548441});
}

TEST(MoreLosses, NamesAndGet) {
  for (const char* name :
       {"mean_squared_logarithmic_error", "msle", "MeanAbsolutePercentageError", "mape", "log_cosh",
        "LogCosh", "poisson", "cosine_similarity", "hinge", "SquaredHinge", "categorical_hinge",
        "binary_focal_crossentropy", "CategoricalFocalCrossentropy", "dice", "Tversky"}) {
    std::shared_ptr<Loss> loss = get(name);
    ASSERT_NE(loss, nullptr) << name;
    EXPECT_EQ(loss->call(yt(), yp()).dtype(), float32) << name;
  }
  EXPECT_EQ(get("msle")->name(), "mean_squared_logarithmic_error");
  EXPECT_EQ(get("Tversky")->name(), "tversky");
  try {
    get("no_such_loss");
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("tversky"), std::string::npos) << e.what();
  }
}

// float64 gradients of every new loss against central differences.
TEST(MoreLosses, Float64Gradients) {
  Tensor t = cast(yt(), float64);
  // Away from the kinks of max / abs (the hinges and MAPE are not differentiable there).
  Tensor p = cast(constant({{0.23, 0.68, 0.14}, {0.59, 0.32, 0.86}}), float64);
  std::vector<std::pair<const char*, LossFn>> fns = {
      {"msle", mean_squared_logarithmic_error},
      // y_true away from 0, where MAPE divides by eps and the slope is 1e9.
      {"mape", [](const Tensor& a,
                  const Tensor& b) { return mean_absolute_percentage_error(add(a, 1.0), b); }},
      {"log_cosh", log_cosh},
      {"poisson", poisson},
      {"cosine", [](const Tensor& a, const Tensor& b) { return cosine_similarity(a, b); }},
      {"hinge", hinge},
      {"squared_hinge", squared_hinge},
      {"categorical_hinge", categorical_hinge},
      {"binary_focal",
       [](const Tensor& a, const Tensor& b) { return binary_focal_crossentropy(a, b, true); }},
      {"categorical_focal",
       [](const Tensor& a, const Tensor& b) { return categorical_focal_crossentropy(a, b); }},
      {"dice", [](const Tensor& a, const Tensor& b) { return dice(a, b); }},
      {"tversky", [](const Tensor& a, const Tensor& b) { return tversky(a, b, 0.3, 0.7); }},
  };
  for (const auto& [name, fn] : fns) {
    double err = test::max_error(test::compute_gradient(
        [&, f = fn](const std::vector<Tensor>& x) { return reduce_sum(f(t, x[0])); }, {p}));
    EXPECT_LT(err, 1e-6) << name;
  }
}

}  // namespace
}  // namespace tfcc::keras::losses
