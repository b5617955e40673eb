// Initializers: Keras' fan rules and distributions (moments, bounds), orthogonality.
#include "tfcc/keras/initializers/initializers.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc::keras::initializers {
namespace {

double stddev_of(const Tensor& t) { return reduce_std(cast(t, float64)).item<double>(); }
double max_abs(const Tensor& t) { return reduce_max(abs(t)).item<double>(); }

TEST(Initializers, Fans) {
  EXPECT_EQ(compute_fans(Shape{3, 5}), (std::pair<double, double>{3, 5}));
  EXPECT_EQ(compute_fans(Shape{3, 3, 2, 8}), (std::pair<double, double>{18, 72}));
  EXPECT_EQ(compute_fans(Shape{7}), (std::pair<double, double>{7, 7}));
}

TEST(Initializers, GlorotUniformBoundAndVariance) {
  auto w = GlorotUniform()(Shape{400, 600}, float32);
  const double limit = std::sqrt(6.0 / 1000);
  EXPECT_LE(max_abs(w), limit + 1e-7);
  EXPECT_GT(max_abs(w), 0.95 * limit);
  EXPECT_NEAR(stddev_of(w), limit / std::sqrt(3.0), 0.01 * limit);
}

TEST(Initializers, HeNormalIsTruncatedWithKerasStddev) {
  auto w = HeNormal()(Shape{500, 400}, float32);
  const double stddev = std::sqrt(2.0 / 500);
  // The 0.8796 correction makes the truncated normal's std equal sqrt(2/fan_in).
  EXPECT_NEAR(stddev_of(w), stddev, 0.02 * stddev);
  EXPECT_LE(max_abs(w), 2 * stddev / 0.87962566103423978 + 1e-6);
}

TEST(Initializers, SimpleOnes) {
  EXPECT_EQ(get("zeros")->operator()(Shape{2}, float32).to_vector<float>(),
            (std::vector<float>{0, 0}));
  EXPECT_EQ(Ones()(Shape{2}, float32).to_vector<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(Constant(3)(Shape{1}, int32).to_vector<int>(), (std::vector<int>{3}));
  EXPECT_LE(max_abs(get("random_uniform")->operator()(Shape{1000}, float32)), 0.05);
  EXPECT_NEAR(stddev_of(RandomNormal()(Shape{20000}, float32)), 0.05, 0.002);
  EXPECT_LE(max_abs(TruncatedNormal()(Shape{20000}, float32)), 0.1 + 1e-6);
  EXPECT_EQ(get("HeUniform")->class_name(), "HeUniform");
  EXPECT_THROW(get("glorot"), InvalidArgumentError);
}

TEST(Initializers, OrthogonalColumnsAndRows) {
  for (auto shape : {Shape{6, 4}, Shape{4, 6}, Shape{2, 3, 5}}) {
    auto q = Orthogonal(2.0)(shape, float64);
    EXPECT_EQ(q.shape(), shape);
    const int64_t cols = shape[shape.rank() - 1];
    auto m = reshape(q, {-1, cols});
    // Tall: Q^T Q = gain^2 I; wide: Q Q^T = gain^2 I.
    auto gram = m.shape()[0] >= cols ? matmul(m, m, true, false) : matmul(m, m, false, true);
    auto eye_n = eye(gram.shape()[0], {}, float64);
    EXPECT_LT(max_abs(gram - eye_n * 4.0), 1e-9);
  }
  EXPECT_THROW(Orthogonal()(Shape{3}, float32), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::initializers
