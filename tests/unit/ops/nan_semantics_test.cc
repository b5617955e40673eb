// TensorFlow 2.21's NaN and boundary rules that tfcc once broke (issue 20), with TensorFlow's
// values: relu and relu6 propagate NaN, relu6's gradient is 0 at exactly 6, argmax / argmin never
// pick NaN. Eager and traced (where elementwise fusion may run) must agree.
#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

constexpr float kNaN = NAN;

void expect_values(const Tensor& t, const std::vector<double>& want) {
  std::vector<double> got = t.to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": " << got[i];
    } else {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    }
  }
}

TEST(NanSemanticsTest, ReluAndRelu6PropagateNan) {
  Tensor x = constant({kNaN, -1.f, 7.f});
  expect_values(relu(x), {NAN, 0, 7});
  expect_values(relu6(x), {NAN, 0, 6});
  // Traced, the two ops and an add fuse into one _FusedElementwise node: same values.
  auto f = function([](Tensor v) { return relu6(relu(v) + 0.f); });
  expect_values(f(x), {NAN, 0, 6});
}

TEST(NanSemanticsTest, Relu6GradientIsZeroAtZeroAndSix) {
  Tensor x = constant({0.0, 3.0, 6.0, 7.0, -1.0}, float64);
  GradientTape tape;
  tape.watch(x);
  Tensor y = relu6(x);
  expect_values(tape.gradient(y, x), {0, 1, 0, 0, 0});
}

TEST(NanSemanticsTest, ArgMaxAndArgMinSkipNan) {
  Tensor x = constant({{1.f, kNaN, 3.f}, {kNaN, 2.f, kNaN}});
  expect_values(argmax(x, 1), {2, 1});
  expect_values(argmin(x, 1), {0, 1});
  // An all-NaN row gives 0; columns (strided lanes) follow the same rule.
  Tensor y = constant({{kNaN, kNaN, kNaN}, {INFINITY, kNaN, -INFINITY}});
  expect_values(argmax(y, 1), {0, 0});
  expect_values(argmin(y, 1), {0, 2});
  Tensor z = constant(
      {{1.f, kNaN, 3.f}, {kNaN, 2.f, kNaN}, {kNaN, kNaN, kNaN}, {INFINITY, kNaN, -INFINITY}});
  expect_values(argmax(z, 0), {3, 1, 0});
  expect_values(argmin(z, 0), {0, 1, 3});
}

}  // namespace
}  // namespace tfcc
