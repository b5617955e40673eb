// Activation, merge, normalization and embedding layers.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(ReLU, Variants) {
  auto x = constant({-2.f, 0.5f, 3.f, 8.f});
  EXPECT_EQ(layers::ReLU()(x).to_vector<float>(), (std::vector<float>{0, 0.5f, 3, 8}));
  EXPECT_EQ(layers::ReLU({.max_value = 6.0})(x).to_vector<float>(),
            (std::vector<float>{0, 0.5f, 3, 6}));
  EXPECT_EQ(layers::ReLU({.negative_slope = 0.5, .threshold = 1.0})(x).to_vector<float>(),
            (std::vector<float>{-1.5f, -0.25f, 3, 8}));
  EXPECT_EQ(layers::ReLU().name().substr(0, 5), "re_lu");
}

TEST(Softmax, RowsSumToOne) {
  auto y = layers::Softmax()(random::normal({3, 5}));
  for (float s : reduce_sum(y, 1).to_vector<float>()) EXPECT_NEAR(s, 1.f, 1e-6);
}

TEST(Merging, AddMultiplyConcatenate) {
  auto a = constant({{1.f, 2.f}}), b = constant({{3.f, 4.f}});
  EXPECT_EQ(layers::Add()(Tensors{a, b})[0].to_vector<float>(), (std::vector<float>{4, 6}));
  EXPECT_EQ(layers::Multiply()(Tensors{a, b})[0].to_vector<float>(), (std::vector<float>{3, 8}));
  EXPECT_EQ(layers::Concatenate()(Tensors{a, b})[0].shape(), (Shape{1, 4}));
  EXPECT_EQ(layers::Concatenate({.axis = 0})(Tensors{a, b})[0].shape(), (Shape{2, 2}));
  EXPECT_THROW(layers::Add()(Tensors{a}), InvalidArgumentError);
}

TEST(BatchNormalization, ParamsAndTrainingUpdate) {
  layers::BatchNormalization bn;
  auto x = constant({{1.f, 10.f}, {3.f, 30.f}});
  auto y = bn(x, {.training = true});
  EXPECT_EQ(bn.count_params(), 8);  // gamma, beta, moving_mean, moving_variance
  EXPECT_EQ(bn.trainable_weights().size(), 2u);
  EXPECT_EQ(bn.non_trainable_weights().size(), 2u);
  // Normalised with batch stats: mean (2, 20), biased var (1, 100).
  auto v = y.to_vector<float>();
  EXPECT_NEAR(v[0], -1 / std::sqrt(1 + 1e-3), 1e-5);
  EXPECT_NEAR(v[3], 10 / std::sqrt(100 + 1e-3), 1e-5);
  // moving = moving - (moving - stat) * 0.01; 2-D input: biased variance.
  auto mm = bn.moving_mean().read_value().to_vector<float>();
  auto mv = bn.moving_variance().read_value().to_vector<float>();
  EXPECT_NEAR(mm[0], 0.02, 1e-6);
  EXPECT_NEAR(mm[1], 0.2, 1e-6);
  EXPECT_NEAR(mv[0], 0.99 + 0.01 * 1, 1e-6);
  EXPECT_NEAR(mv[1], 0.99 + 0.01 * 100, 1e-5);
  // Inference uses the moving statistics and changes nothing.
  auto z = bn(x);
  EXPECT_NEAR(z.to_vector<float>()[0], (1 - 0.02) / std::sqrt(1.0 + 1e-3), 1e-5);
  EXPECT_NEAR(bn.moving_mean().read_value().to_vector<float>()[0], 0.02, 1e-6);
}

TEST(BatchNormalization, FourDInputUsesBesselCorrectedMovingVariance) {
  layers::BatchNormalization bn({.momentum = 0.0});
  auto x = reshape(constant({1.f, 3.f}), {2, 1, 1, 1});
  bn(x, {.training = true});
  EXPECT_NEAR(bn.moving_variance().read_value().item<float>(), 2.0, 1e-6);  // 1 * 2/1
}

TEST(BatchNormalization, Gradients) {
  layers::BatchNormalization bn({.dtype = float64});
  auto x = random::normal({6, 3}, 0, 1, float64);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/true), 1e-5);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/false), 1e-6);
}

TEST(LayerNormalization, NormalisesEachExample) {
  layers::LayerNormalization ln;
  auto y = ln(constant({{1.f, 2.f, 3.f}, {10.f, 20.f, 30.f}}));
  EXPECT_EQ(ln.count_params(), 6);
  for (float m : reduce_mean(y, 1).to_vector<float>()) EXPECT_NEAR(m, 0, 1e-5);
  layers::LayerNormalization ln64({.dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(ln64, random::normal({2, 4}, 0, 1, float64)), 1e-6);
}

TEST(Embedding, LooksUpRows) {
  layers::Embedding e(10, 4);
  auto y = e(constant({{1, 2, 3}, {4, 5, 9}}));
  EXPECT_EQ(y.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(e.count_params(), 40);
  auto table = e.embeddings().read_value();
  EXPECT_EQ(y(1, 2).to_vector<float>(), table(9).to_vector<float>());
  for (float v : table.to_vector<float>()) EXPECT_LE(std::abs(v), 0.05f);
  EXPECT_THROW(e(constant({{10}})), InvalidArgumentError);
}

TEST(Embedding, GradientReachesLookedUpRowsOnly) {
  layers::Embedding e(5, 2);
  auto idx = constant({0, 0, 3});
  GradientTape tape;
  auto y = reduce_sum(e(idx));
  auto g = tape.gradient(y, e.trainable_variables())[0];
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{2, 2, 0, 0, 0, 0, 1, 1, 0, 0}));
}

}  // namespace
}  // namespace tfcc::keras
