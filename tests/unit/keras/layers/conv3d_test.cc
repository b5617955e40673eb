// Volumetric layers: Conv3D, Conv3DTranspose, MaxPooling3D, AveragePooling3D and the global 3-D
// pools against values Keras 3.15.1 computed (TensorFlow 2.21 backend) for the same inputs and
// weights, plus shapes, gradients and argument checks.
#include "tfcc/keras/layers/conv3d.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

// ((i * a) % m - d) / s for i = 0, 1, ... (the inputs and weights of the Keras run).
Tensor seq(std::vector<int64_t> shape, int64_t a, int64_t m, int64_t d, float s) {
  int64_t n = 1;
  for (int64_t v : shape) n *= v;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = static_cast<float>(i * a % m - d) / s;
  return Tensor::from_vector(v, Shape(shape));
}

Tensor input() { return seq({1, 3, 3, 3, 2}, 7, 11, 5, 4.f); }

void expect_values(const Tensor& y, Shape shape, const std::vector<float>& want) {
  ASSERT_EQ(y.shape(), shape);
  const std::vector<float> got = y.to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-6) << "element " << i;
}

// Keras 3.15.1 values, from
//   x = ((arange(54) * 7 % 11 - 5) / 4).reshape(1, 3, 3, 3, 2)
//   kernel = ((arange(32) * 5 % 7 - 3) / 3).reshape(2, 2, 2, 2, 2), bias = [0.5, -0.25]
//   keras.layers.Conv3D(2, 2)(x) and keras.layers.Conv3D(2, 2, strides=2, padding="same")(x).
TEST(Conv3D, MatchesKeras) {
  const Tensor x = input();
  for (bool same : {false, true}) {
    layers::Conv3D c(
        2, 2, same ? layers::ConvOptions{.strides = 2, .padding = "same"} : layers::ConvOptions{});
    c(x);
    c.kernel().assign(seq({2, 2, 2, 2, 2}, 5, 7, 3, 3.f));
    c.bias().assign(constant({0.5f, -0.25f}));
    if (!same) {
      expect_values(
          c(x), Shape{1, 2, 2, 2, 2},
          {-0.5000001f, -3.333333f, 0.5833334f, 1.25f, 0.9166667f, -1.5f, -0.75f, 0.3333334f,
           2.833333f, 1.25f, 1.166667f, -3.333333f, 0.5833334f, 1.25f, 4.416667f, 0.3333333f});
    } else {
      expect_values(
          c(x), Shape{1, 2, 2, 2, 2},
          {-0.5000001f, -3.333333f, 0.75f, 1.166667f, 1.166667f, 1.75f, 0.75f, -1.916667f,
           -2.083333f, -0.3333333f, -0.6666667f, 1.666667f, 1.25f, 0.75f, 1.5f, -1.416667f});
    }
  }
}

TEST(Conv3D, ShapesParamsAndGradients) {
  layers::Conv3D c(8, {3, 3, 2}, {.padding = "same", .dilation_rate = {2, 1, 1}});
  EXPECT_EQ(c(ones({2, 6, 5, 4, 3})).shape(), (Shape{2, 6, 5, 4, 8}));
  EXPECT_EQ(c.kernel().shape(), (Shape{3, 3, 2, 3, 8}));
  EXPECT_EQ(c.count_params(), 3 * 3 * 2 * 3 * 8 + 8);
  layers::Conv3D g(2, 2, {.strides = {1, 2, 1}, .dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(g, random::normal({1, 3, 4, 3, 2}, 0, 1, float64)), 1e-6);
  EXPECT_THROW(layers::Conv3D(0, 3), InvalidArgumentError);
  EXPECT_THROW(layers::Conv3D(2, {3, 3}), InvalidArgumentError);
  EXPECT_THROW(layers::Conv3D(2, 3, {.groups = 2}), UnimplementedError);
  EXPECT_THROW(layers::Conv3D(2, 3, {.padding = "causal"}), InvalidArgumentError);
  layers::Conv3D r(2, 1);
  EXPECT_THROW(r(ones({2, 4, 4, 3})), InvalidArgumentError);
}

// kernel = ((arange(16) * 3 % 7 - 3) / 2).reshape(2, 2, 2, 1, 2), bias = [0.1],
// x = ((arange(4) * 3 % 5 - 2) / 2).reshape(1, 1, 1, 2, 2),
// keras.layers.Conv3DTranspose(1, 2, strides=2)(x).
TEST(Conv3DTranspose, MatchesKeras) {
  const Tensor x = seq({1, 1, 1, 2, 2}, 3, 5, 2, 2.f);
  layers::Conv3DTranspose t(1, 2, {.strides = 2});
  t(x);
  t.kernel().assign(seq({2, 2, 2, 1, 2}, 3, 7, 3, 2.f));
  t.bias().assign(constant({0.1f}));
  expect_values(t(x), Shape{1, 2, 2, 4, 1},
                {1.6f, -1.65f, 0.85f, -1.15f, -1.4f, -1.15f, -1.4f, -1.65f, 0.85f, 1.1f, 1.6f,
                 1.35f, 1.35f, 1.6f, 1.1f, 0.85f});
  layers::Conv3DTranspose same(4, 3, {.strides = {1, 2, 2}, .padding = "same"});
  EXPECT_EQ(same(ones({2, 3, 4, 5, 2})).shape(), (Shape{2, 3, 8, 10, 4}));
  layers::Conv3DTranspose g(2, 2, {.strides = 2, .dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(g, random::normal({1, 2, 1, 2, 2}, 0, 1, float64)), 1e-6);
}

// keras.layers.MaxPooling3D(2, padding="same")(x) and AveragePooling3D(2, padding="same")(x)
// (windows clipped at the far edge: the mean counts only the elements inside).
TEST(Pooling3D, MatchesKeras) {
  const Tensor x = input();
  expect_values(layers::MaxPooling3D(2, {.padding = "same"})(x), Shape{1, 2, 2, 2, 2},
                {1.f, 1.25f, 1.f, 0.5f, 1.25f, 0.75f, 0.5f, 1.f, 1.25f, 1.f, 0.f, 1.25f, 1.f, 0.f,
                 -1.f, 0.75f});
  expect_values(layers::AveragePooling3D(2, {.padding = "same"})(x), Shape{1, 2, 2, 2, 2},
                {-0.15625f, 0.21875f, -0.0625f, -0.375f, 0.125f, -0.1875f, -0.125f, 0.25f, 0.f,
                 0.375f, -0.25f, 0.125f, 0.625f, -0.375f, -1.f, 0.75f});
  expect_values(layers::GlobalAveragePooling3D()(x), Shape{1, 2}, {-0.05555556f, 0.06481481f});
  expect_values(layers::GlobalMaxPooling3D()(x), Shape{1, 2}, {1.25f, 1.25f});
}

TEST(Pooling3D, ShapesGradientsAndChecks) {
  EXPECT_EQ(layers::MaxPooling3D()(ones({2, 8, 6, 4, 3})).shape(), (Shape{2, 4, 3, 2, 3}));
  EXPECT_EQ(layers::AveragePooling3D({1, 2, 3}, {.strides = 1})(ones({1, 4, 4, 4, 2})).shape(),
            (Shape{1, 4, 3, 2, 2}));
  EXPECT_EQ(layers::GlobalMaxPooling3D({.keepdims = true})(ones({2, 3, 4, 5, 6})).shape(),
            (Shape{2, 1, 1, 1, 6}));
  layers::MaxPooling3D m;
  EXPECT_LT(testing::layer_gradient_error(m, random::normal({1, 4, 4, 2, 2}, 0, 1, float64)), 1e-6);
  layers::AveragePooling3D a(2, {.padding = "same"});
  EXPECT_LT(testing::layer_gradient_error(a, random::normal({1, 3, 3, 3, 2}, 0, 1, float64)), 1e-6);
  EXPECT_THROW(layers::MaxPooling3D(0), InvalidArgumentError);
  EXPECT_THROW(layers::MaxPooling3D(2, {.padding = "full"}), InvalidArgumentError);
  EXPECT_THROW(layers::MaxPooling3D({2, 2}), InvalidArgumentError);
  EXPECT_THROW(layers::MaxPooling3D()(ones({2, 4, 4, 3})), InvalidArgumentError);
  EXPECT_THROW(layers::GlobalAveragePooling3D()(ones({2, 4, 3})), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
