// Activation, merge, normalization and embedding layers.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/graph/passes/pass_manager.h"
#include "tfcc/graph/trace/trace_context.h"
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

// Keras 3 (TensorFlow 2.21): the moving variance follows the biased batch variance on every rank
// (Keras 2's fused path used n / (n - 1)): momentum 0, x = [1, 2, 3, 4] gives 1.25, not 1.6667.
TEST(BatchNormalization, MovingVarianceIsTheBiasedBatchVarianceAsKeras3) {
  for (int rank : {2, 4}) {
    layers::BatchNormalization bn({.momentum = 0.0});
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
    shape[0] = 4;
    auto x = reshape(constant({1.f, 2.f, 3.f, 4.f}), shape);
    bn(x, {.training = true});
    EXPECT_NEAR(bn.moving_variance().read_value().item<float>(), 1.25, 1e-6) << rank;
    EXPECT_NEAR(bn.moving_mean().read_value().item<float>(), 2.5, 1e-6) << rank;
  }
}

TEST(BatchNormalization, Gradients) {
  layers::BatchNormalization bn({.dtype = float64});
  auto x = random::normal({6, 3}, 0, 1, float64);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/true), 1e-5);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/false), 1e-6);
}

// The composite BatchNormalization formula, for comparison with the fused path.
Tensor composite_batch_norm(const Tensor& x, const Tensor& mean, const Tensor& var,
                            const Tensor& gamma, const Tensor& beta, double eps) {
  return add(multiply(subtract(x, mean), multiply(rsqrt(add(var, eps)), gamma)), beta);
}

TEST(BatchNormalization, FourDInputRunsFusedAndMatchesTheComposite) {
  layers::BatchNormalization bn({.momentum = 0.9});
  Tensor x = random::normal({4, 3, 3, 5}, 1, 2, float32, 7);
  bn(x);                                                            // build
  bn.weights()[0].assign(random::normal({5}, 1, 0.3, float32, 8));  // gamma
  bn.weights()[1].assign(random::normal({5}, 0, 0.3, float32, 9));  // beta
  Tensor gamma = bn.weights()[0].read_value(), beta = bn.weights()[1].read_value();
  Tensor mm0 = bn.moving_mean().read_value(), mv0 = bn.moving_variance().read_value();

  Tensor y = bn(x, {.training = true});
  Tensor mean = reduce_mean(x, Axes({0, 1, 2}));
  Tensor var = reduce_mean(square(subtract(x, mean)), Axes({0, 1, 2}));
  Tensor expected = composite_batch_norm(x, mean, var, gamma, beta, 1e-3);
  std::vector<float> got = y.to_vector<float>(), want = expected.to_vector<float>();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-5f) << i;
  // Moving statistics: moving - (moving - stat) * 0.1, the biased variance (Keras 3).
  std::vector<float> mm = bn.moving_mean().read_value().to_vector<float>();
  std::vector<float> mv = bn.moving_variance().read_value().to_vector<float>();
  std::vector<float> m = mean.to_vector<float>(), v = var.to_vector<float>();
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_NEAR(mm[k], mm0.to_vector<float>()[k] * 0.9 + m[k] * 0.1, 1e-6) << k;
    EXPECT_NEAR(mv[k], mv0.to_vector<float>()[k] * 0.9 + v[k] * 0.1, 1e-5) << k;
  }
  // Inference: the moving statistics, nothing updated.
  Tensor z = bn(x);
  want = composite_batch_norm(x, bn.moving_mean().read_value(), bn.moving_variance().read_value(),
                              gamma, beta, 1e-3)
             .to_vector<float>();
  got = z.to_vector<float>();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-5f) << i;
  EXPECT_EQ(bn.moving_mean().read_value().to_vector<float>(), mm);
  // Without center / scale (ones and zeros in the op); a frozen layer runs in inference mode.
  layers::BatchNormalization plain({.center = false, .scale = false});
  EXPECT_EQ(plain(x, {.training = true}).shape(), x.shape());
  EXPECT_EQ(plain.trainable_weights().size(), 0u);
  plain.set_trainable(false);
  Tensor mm_plain = plain.moving_mean().read_value();
  plain(x, {.training = true});
  EXPECT_EQ(plain.moving_mean().read_value().to_vector<float>(), mm_plain.to_vector<float>());
}

TEST(BatchNormalization, FourDGradients) {
  layers::BatchNormalization bn({.dtype = float64});
  auto x = random::normal({2, 3, 2, 3}, 0, 1, float64, 5);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/true), 1e-5);
  EXPECT_LT(testing::layer_gradient_error(bn, x, /*training=*/false), 1e-6);
}

TEST(BatchNormalization, InferenceFoldsIntoThePrecedingConv) {
  Sequential model({layers::Conv2D(4, 3, {.use_bias = false, .input_shape = {6, 6, 2}}),
                    layers::BatchNormalization(), layers::ReLU()});
  Tensor x = random::normal({2, 6, 6, 2}, 0, 1, float32, 3);
  for (int i = 0; i < 3; ++i) model(x, {.training = true});  // moving statistics move
  Tensor eager = model(x);

  graph::TraceContext ctx("inference");
  Tensor arg = ctx.add_arg(float32, PartialShape({2, 6, 6, 2}), "x");
  {
    ExecutionContextScope scope(&ctx);
    std::vector<Tensor> outputs{model(arg)};
    ctx.finish(outputs);
  }
  auto count = [](const graph::Graph& g, const std::string& type) {
    int n = 0;
    for (const auto& node : g.nodes()) n += node.type_name() == type;
    return n;
  };
  EXPECT_EQ(count(ctx.graph(), "FusedBatchNormV3"), 1);
  graph::Graph optimized = graph::optimize(ctx.graph());
  EXPECT_EQ(count(optimized, "FusedBatchNormV3"), 0) << optimized.to_string();
  EXPECT_EQ(count(optimized, "_FusedConv2D"), 1) << optimized.to_string();
  // The traced (optimized) model agrees with the eager one.
  auto traced = tfcc::function([&](const Tensor& t) { return model(t); });
  std::vector<float> got = traced(x).to_vector<float>(), want = eager.to_vector<float>();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;
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
