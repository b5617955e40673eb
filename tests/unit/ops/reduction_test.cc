// Focused tests of the reduction family beyond the conformance table: float32 accuracy over
// many elements, TensorFlow-printed results, attribute validation through dispatch.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

Tensor f32(std::vector<float> v, std::vector<int64_t> shape) {
  return Tensor::from_vector(v, Shape(std::move(shape)));
}

// 10M values: a naive float32 loop is off by ~1e-3 relative; pairwise / wide accumulation
// stays at float32 rounding of the exact sum.
TEST(ReduceSum, Float32AccuracyOverTenMillion) {
  const int64_t n = 10'000'000;
  std::vector<float> v(static_cast<size_t>(n));
  double exact = 0;
  uint64_t s = 42;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>((s >> 40) % 1000) / 1000.0f + 0.1f;
    exact += x;
  }
  float all = reduce_sum(f32(v, {n})).item<float>();
  EXPECT_NEAR(all, exact, exact * 1e-7);
  // Columns: the reduced axis is the outer one (row-by-row accumulation path).
  Tensor cols = reduce_sum(f32(v, {n / 4, 4}), 0);
  std::vector<double> want(4, 0);
  for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i % 4)] += v[static_cast<size_t>(i)];
  auto got = cols.to_vector<double>();
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(got[j], want[j], want[j] * 1e-7) << j;
}

TEST(ReduceSum, PrintsLikeTensorFlow) {
  Tensor x = f32({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(reduce_sum(x).item<float>(), 10.f);  // (float scalars print "10." today, TF "10.0")
  EXPECT_EQ(reduce_sum(x, 0).values_string(), "[4. 6.]");
  EXPECT_EQ(reduce_sum(x, 1, true).shape(), Shape({2, 1}));
  EXPECT_EQ(reduce_mean(x, {0, 1}, true).values_string(), "[[2.5]]");
  EXPECT_EQ(cumsum(x, 1).values_string(), "[[1. 3.]\n [3. 7.]]");
  EXPECT_EQ(argmax(x, 1).dtype(), int64);
  EXPECT_EQ(argmax(x, 1).values_string(), "[1 1]");
}

TEST(Reductions, EmptyGivesIdentity) {
  Tensor e = f32({}, {0});
  EXPECT_EQ(reduce_sum(e).item<float>(), 0.f);
  EXPECT_EQ(reduce_prod(e).item<float>(), 1.f);
  EXPECT_EQ(reduce_max(e).item<float>(), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(reduce_min(e).item<float>(), std::numeric_limits<float>::infinity());
  Tensor ei = Tensor::from_vector<int32_t>({});
  EXPECT_EQ(reduce_max(ei).item<int32_t>(), std::numeric_limits<int32_t>::lowest());
  EXPECT_TRUE(std::isnan(reduce_mean(e).item<float>()));
  EXPECT_EQ(reduce_logsumexp(e).item<float>(), -std::numeric_limits<float>::infinity());
}

TEST(Reductions, NanHandling) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = f32({1, nan, 3, nan}, {4});
  EXPECT_TRUE(std::isnan(reduce_max(x).item<float>()));
  EXPECT_TRUE(std::isnan(reduce_min(x).item<float>()));
  EXPECT_EQ(argmax(x).item<int64_t>(), 2);  // NaN is never picked, as TensorFlow
  EXPECT_EQ(argmin(x).item<int64_t>(), 0);
  EXPECT_EQ(argmax(f32({2, 5, 5}, {3}), 0, int32).item<int32_t>(), 1);  // first on ties
}

TEST(Reductions, IntegerMeanTruncatesAndSumsWrap) {
  Tensor x = Tensor::from_vector<int32_t>({-1, -2});
  EXPECT_EQ(reduce_mean(x).item<int32_t>(), -1);  // TF: -3 / 2 truncates toward zero
  Tensor big = Tensor::from_vector<int32_t>({2'000'000'000, 2'000'000'000});
  EXPECT_EQ(reduce_sum(big).item<int64_t>(), int64_t{4'000'000'000} - (int64_t{1} << 32));
  EXPECT_EQ(reduce_mean(big).item<int32_t>(), 2'000'000'000);
  Tensor u = Tensor::from_vector<uint8_t>({200, 100});
  EXPECT_EQ(reduce_sum(u).item<int>(), 44);
}

TEST(Reductions, SizeOneAxesShareTheBuffer) {
  Tensor x = f32({1, 2, 3}, {1, 3});
  Tensor y = reduce_sum(x, 0);
  EXPECT_EQ(y.shape(), Shape({3}));
  EXPECT_EQ(y.buffer(), x.buffer());
}

TEST(Reductions, LogSumExpIsStable) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = f32({1000, 1000, -inf, -inf, -inf, -inf}, {3, 2});
  auto r = reduce_logsumexp(x, 1).to_vector<float>();
  EXPECT_NEAR(r[0], 1000 + std::log(2.0), 1e-3);
  EXPECT_EQ(r[1], -inf);
  EXPECT_EQ(r[2], -inf);
}

TEST(Softmax, MatchesTensorFlow) {
  Tensor logits = f32({1, 2, 3}, {1, 3});
  auto s = softmax(logits).to_vector<float>();
  EXPECT_NEAR(s[0], 0.09003057f, 1e-7);
  EXPECT_NEAR(s[1], 0.24472848f, 1e-7);
  EXPECT_NEAR(s[2], 0.66524094f, 1e-7);
  auto l = log_softmax(logits).to_vector<float>();
  EXPECT_NEAR(l[0], -2.407606f, 1e-6);
  EXPECT_NEAR(l[2], -0.40760595f, 1e-6);
}

TEST(Reductions, AttributesAreValidatedThroughDispatch) {
  Tensor in[] = {f32({1, 2}, {2})};
  try {
    dispatch1(op_def("Sum"), in,
              {{"axis", std::vector<int64_t>{0}}, {"reduce_all", true}, {"keepdims", false}});
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("reduce_all=true needs an empty axis list"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("[Op:Sum]"), std::string::npos);
  }
  // axis=[] without reduce_all reduces nothing, as TF's axis=[].
  EXPECT_EQ(dispatch1(op_def("Sum"), in, {}).shape(), Shape({2}));
}

}  // namespace
}  // namespace tfcc
