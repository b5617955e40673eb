// Convolution layers: output shapes and parameter counts as Keras reports them, gradients.
#include "tfcc/keras/layers/conv.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(Conv2D, SeedLayerShapeAndParams) {
  layers::Conv2D c(32, 3, {.activation = "relu", .kernel_regularizer = regularizers::l2(0.02)});
  auto y = c(random::normal({2, 28, 28, 1}));
  EXPECT_EQ(y.shape(), (Shape{2, 26, 26, 32}));
  EXPECT_EQ(c.count_params(), 320);
  EXPECT_EQ(c.kernel().shape(), (Shape{3, 3, 1, 32}));
  EXPECT_EQ(c.losses().size(), 1u);
  EXPECT_GE(reduce_min(y).item<float>(), 0.f);
}

TEST(Conv2D, StridesSamePaddingDilationGroups) {
  layers::Conv2D same(8, {3, 3}, {.strides = 2, .padding = "same"});
  EXPECT_EQ(same(ones({1, 7, 7, 3})).shape(), (Shape{1, 4, 4, 8}));
  layers::Conv2D dilated(4, 3, {.dilation_rate = 2});
  EXPECT_EQ(dilated(ones({1, 9, 9, 2})).shape(), (Shape{1, 5, 5, 4}));
  layers::Conv2D grouped(6, 1, {.groups = 2});
  grouped(ones({1, 2, 2, 4}));
  EXPECT_EQ(grouped.kernel().shape(), (Shape{1, 1, 2, 6}));
  EXPECT_THROW(layers::Conv2D(5, 1, {.groups = 2}), InvalidArgumentError);
  EXPECT_THROW(layers::Conv2D(5, 1, {.padding = "full"}), InvalidArgumentError);
  layers::Conv2D c(2, 3);
  EXPECT_THROW(c(ones({4, 4, 3})), InvalidArgumentError);  // rank 3 input
}

TEST(Conv2D, Gradients) {
  layers::Conv2D c(2, 2, {.activation = "tanh", .dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(c, random::normal({2, 4, 4, 3}, 0, 1, float64)), 1e-6);
}

TEST(Conv1D, ValidAndCausal) {
  layers::Conv1D c(4, 3);
  EXPECT_EQ(c(ones({2, 10, 2})).shape(), (Shape{2, 8, 4}));
  EXPECT_EQ(c.count_params(), 28);
  layers::Conv1D causal(4, 3, {.padding = "causal", .dtype = float64});
  auto x = random::normal({1, 6, 2}, 0, 1, float64);
  auto y = causal(x);
  EXPECT_EQ(y.shape(), (Shape{1, 6, 4}));
  // Output step 0 depends on input step 0 only: changing later steps leaves it unchanged.
  auto x2 = concat({x(all, Slice(0, 1)), zeros({1, 5, 2}, float64)}, 1);
  EXPECT_EQ(causal(x2)(0, 0).to_vector<double>(), y(0, 0).to_vector<double>());
  EXPECT_LT(testing::layer_gradient_error(causal, x), 1e-6);
}

TEST(Conv2DTranspose, UpsamplesLikeKeras) {
  layers::Conv2DTranspose t(16, 3, {.strides = 2, .padding = "same"});
  EXPECT_EQ(t(ones({1, 7, 7, 8})).shape(), (Shape{1, 14, 14, 16}));
  EXPECT_EQ(t.count_params(), 3 * 3 * 16 * 8 + 16);
  layers::Conv2DTranspose v(2, 3, {.strides = 2});
  EXPECT_EQ(v(ones({1, 4, 4, 1})).shape(), (Shape{1, 9, 9, 2}));  // 4*2 + max(3-2, 0)
  layers::Conv2DTranspose g(2, 2, {.strides = 2, .dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(g, random::normal({1, 2, 2, 3}, 0, 1, float64)), 1e-6);
}

TEST(DepthwiseConv2D, ShapesParamsGradients) {
  layers::DepthwiseConv2D d(3, {.depth_multiplier = 2});
  EXPECT_EQ(d(ones({1, 8, 8, 4})).shape(), (Shape{1, 6, 6, 8}));
  EXPECT_EQ(d.count_params(), 80);
  layers::DepthwiseConv2D d64(2, {.dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(d64, random::normal({1, 3, 3, 2}, 0, 1, float64)), 1e-6);
}

TEST(ZeroPadding2D, Pads) {
  layers::ZeroPadding2D p;
  EXPECT_EQ(p(ones({1, 2, 2, 1})).shape(), (Shape{1, 4, 4, 1}));
  layers::ZeroPadding2D q({{1, 0}, {2, 3}});
  auto y = q(ones({1, 2, 2, 1}));
  EXPECT_EQ(y.shape(), (Shape{1, 3, 7, 1}));
  EXPECT_FLOAT_EQ(reduce_sum(y).item<float>(), 4.f);
  EXPECT_THROW(layers::ZeroPadding2D(-1), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
