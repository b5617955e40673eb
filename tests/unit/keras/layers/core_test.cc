// Core layers: output shapes, parameter counts as Keras reports them, gradients, errors.
#include "tfcc/keras/layers/core.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(Dense, ShapesAndParamCount) {
  layers::Dense d(64);
  auto y = d(random::normal({8, 784}));
  EXPECT_EQ(y.shape(), (Shape{8, 64}));
  EXPECT_EQ(d.count_params(), 784 * 64 + 64);  // Keras: 50240
  EXPECT_EQ(d.kernel().shape(), (Shape{784, 64}));
  EXPECT_EQ(d.kernel().name(), d.name() + "/kernel");
  // Higher-rank inputs contract the last axis (tensordot).
  layers::Dense d3(5);
  EXPECT_EQ(d3(ones({2, 3, 4})).shape(), (Shape{2, 3, 5}));
  EXPECT_EQ(d3.count_params(), 25);
}

TEST(Dense, NoBiasAndActivation) {
  layers::Dense d(3, {.activation = "relu", .use_bias = false, .kernel_initializer = "ones"});
  auto y = d(constant({{1.f, -2.f}}));
  EXPECT_EQ(d.count_params(), 6);
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{0, 0, 0}));
  auto z = d(constant({{2.f, 1.f}}));
  EXPECT_EQ(z.to_vector<float>(), (std::vector<float>{3, 3, 3}));
}

TEST(Dense, WrongLastDimensionIsAnError) {
  layers::Dense d(4);
  d(ones({2, 3}));
  EXPECT_THROW(d(ones({2, 5})), InvalidArgumentError);
  EXPECT_THROW(layers::Dense(0), InvalidArgumentError);
}

TEST(Dense, Gradients) {
  layers::Dense d(3, {.activation = "tanh", .dtype = float64});
  auto x = random::normal({4, 5}, 0, 1, float64);
  EXPECT_LT(testing::layer_gradient_error(d, x), 1e-6);
}

TEST(Dense, KernelRegularizerAddsLoss) {
  layers::Dense d(2, {.kernel_initializer = "ones", .kernel_regularizer = regularizers::l2(0.02)});
  d(ones({1, 3}));
  auto losses = d.losses();
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_NEAR(losses[0].item<float>(), 0.02 * 6, 1e-6);  // l2 * sum(w^2), no 1/2
}

TEST(Dense, ActivityRegularizerDividesByBatch) {
  layers::Dense d(1, {.kernel_initializer = "ones", .activity_regularizer = regularizers::l1(0.5)});
  d(constant({{1.f, 1.f}, {2.f, 2.f}}));  // outputs 2 and 4: 0.5 * 6 / 2
  auto losses = d.losses();
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_NEAR(losses[0].item<float>(), 1.5, 1e-6);
  d(constant({{1.f, 1.f}}));  // a new outermost call clears the previous call's losses
  ASSERT_EQ(d.losses().size(), 1u);
  EXPECT_NEAR(d.losses()[0].item<float>(), 1.0, 1e-6);
}

TEST(Flatten, Shapes) {
  layers::Flatten f;
  EXPECT_EQ(f(ones({2, 13, 13, 32})).shape(), (Shape{2, 5408}));
  EXPECT_EQ(f(ones({3})).shape(), (Shape{3, 1}));
  EXPECT_EQ(f.count_params(), 0);
}

TEST(Reshape, ShapesAndErrors) {
  layers::Reshape r({7, -1});
  EXPECT_EQ(r(ones({2, 14})).shape(), (Shape{2, 7, 2}));
  EXPECT_THROW(layers::Reshape({-1, -1}), InvalidArgumentError);
  layers::Reshape bad({5});
  EXPECT_THROW(bad(ones({2, 3})), InvalidArgumentError);
}

TEST(Dropout, TrainingScalesKeptUnitsInferenceIsIdentity) {
  random::set_seed(1);
  layers::Dropout d(0.5);
  auto x = ones({1000});
  EXPECT_EQ(d(x).to_vector<float>(), x.to_vector<float>());
  auto y = d(x, {.training = true}).to_vector<float>();
  int zeros_count = 0;
  for (float v : y) {
    EXPECT_TRUE(v == 0.f || v == 2.f);
    zeros_count += v == 0.f;
  }
  EXPECT_GT(zeros_count, 400);
  EXPECT_LT(zeros_count, 600);
  EXPECT_THROW(layers::Dropout(1.5), InvalidArgumentError);
}

TEST(Dropout, GradientIsTheMask) {
  layers::Dropout d(0.25);
  auto x = ones({64});
  GradientTape tape;
  tape.watch(x);
  auto y = d(x, {.training = true});
  auto g = tape.gradient(reduce_sum(y), x);
  EXPECT_EQ(g.to_vector<float>(), y.to_vector<float>());  // y = mask / 0.75 for x = 1
}

TEST(Activation, ByName) {
  layers::Activation a("sigmoid");
  EXPECT_FLOAT_EQ(a(constant({0.f})).to_vector<float>()[0], 0.5f);
  EXPECT_THROW(layers::Activation("nope"), InvalidArgumentError);
}

TEST(Layer, UniqueNamesAndConfig) {
  backend::clear_session();
  layers::Dense a(1), b(1), c(1, {.name = "head"});
  EXPECT_EQ(a.name(), "dense");
  EXPECT_EQ(b.name(), "dense_1");
  EXPECT_EQ(c.name(), "head");
  auto config = a.get_config();
  EXPECT_EQ(config[0], (std::pair<std::string, std::string>{"name", "'dense'"}));
  EXPECT_EQ(config[3], (std::pair<std::string, std::string>{"units", "1"}));
  EXPECT_EQ(a.class_name(), "Dense");
}

TEST(Layer, SetWeightsChecksShapes) {
  layers::Dense d(2);
  d(ones({1, 3}));
  d.set_weights({ones({3, 2}), fill({2}, 5)});
  EXPECT_EQ(d(zeros({1, 3})).to_vector<float>(), (std::vector<float>{5, 5}));
  EXPECT_THROW(d.set_weights({ones({3, 2})}), InvalidArgumentError);
  EXPECT_THROW(d.set_weights({ones({2, 2}), ones({2})}), InvalidArgumentError);
}

TEST(Layer, FrozenLayerHasNoTrainableWeights) {
  layers::Dense d(2);
  d(ones({1, 3}));
  d.set_trainable(false);
  EXPECT_TRUE(d.trainable_weights().empty());
  EXPECT_EQ(d.non_trainable_weights().size(), 2u);
}

class Scale : public Layer {
 public:
  Scale() : Layer({}, "") {}

 protected:
  void build(const PartialShape& s) override {
    w_ = add_weight("w", Shape{s.dim(s.rank() - 1)}, {.initializer = "ones"});
  }
  Tensor call(const Tensor& x, bool) override { return x * w_; }

 private:
  Variable w_;
};

TEST(Layer, CustomLayerBuildsLazilyWithSnakeCaseName) {
  Scale s;
  EXPECT_FALSE(s.built());
  auto y = s(constant({{1.f, 2.f, 3.f}}));
  EXPECT_TRUE(s.built());
  EXPECT_EQ(s.name().substr(0, 5), "scale");
  ASSERT_EQ(s.trainable_variables().size(), 1u);
  EXPECT_EQ(s.trainable_variables()[0].shape(), (Shape{3}));
}

}  // namespace
}  // namespace tfcc::keras

namespace tfcc::keras {
namespace {

// Issue 19: Dense on a rank-3 input traced with an unknown batch dimension.
TEST(Dense, RankThreeInputWithUnknownBatchInATrace) {
  layers::Dense dense(3);
  Tensor x = random::normal({2, 5, 4}, 0, 1, float32, 3);
  Tensor eager = dense(x);
  auto f = tfcc::function([&](Tensor t) { return dense(t); });
  auto traced = f.get_concrete_function(TensorSpec{{-1, 5, 4}, float32, "x"});
  Tensor y = traced({x})[0];
  ASSERT_EQ(y.shape(), eager.shape());
  auto a = y.to_vector<float>(), b = eager.to_vector<float>();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f);
}

}  // namespace
}  // namespace tfcc::keras
