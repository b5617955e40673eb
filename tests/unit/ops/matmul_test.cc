// MatMul beyond the conformance rows: the oneDNN primitive cache, large shapes against a float64
// reference, concurrent calls, and the gradient rules for every transpose combination.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "tfcc/ops/linalg/linalg_internal.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

// Row-major op_a(A) @ op_b(B) in float64 from the stored arrays.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                              int64_t k, int64_t n, bool ta, bool tb) {
  std::vector<double> c(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t kk = 0; kk < k; ++kk) {
      const double x = ta ? a[size_t(kk * m + i)] : a[size_t(i * k + kk)];
      for (int64_t j = 0; j < n; ++j) {
        c[size_t(i * n + j)] += x * (tb ? b[size_t(j * k + kk)] : b[size_t(kk * n + j)]);
      }
    }
  }
  return c;
}

// Max |got - want| relative to the largest |want|.
double rel_error(const std::vector<double>& got, const std::vector<double>& want) {
  double err = 0, scale = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(got[i] - want[i]));
    scale = std::max(scale, std::fabs(want[i]));
  }
  return err / std::max(scale, 1e-30);
}

// Batched products use cached oneDNN matmul primitives (single 2-D products go to dnnl_sgemm,
// which needs none).
TEST(MatMul, PrimitiveCacheIsHitForARepeatedShape) {
  Tensor a = random::stateless_uniform({3, 37, 53}, {1, 1});
  Tensor b = random::stateless_uniform({3, 53, 29}, {1, 2});
  const MatMulCacheStats s0 = matmul_cache_stats();
  Tensor c1 = matmul(a, b);
  const MatMulCacheStats s1 = matmul_cache_stats();
  EXPECT_EQ(s1.misses, s0.misses + 1) << "first call of a new shape builds a primitive";
  Tensor c2 = matmul(a, b);
  Tensor c3 = matmul(random::stateless_uniform({3, 37, 53}, {2, 1}), b);
  const MatMulCacheStats s2 = matmul_cache_stats();
  EXPECT_EQ(s2.misses, s1.misses) << "a repeated shape rebuilt the primitive";
  EXPECT_EQ(s2.hits, s1.hits + 2);
  EXPECT_EQ(s2.entries, s1.entries);
  EXPECT_EQ(s2.fallbacks, s0.fallbacks);
  EXPECT_EQ(c1.to_vector<float>(), c2.to_vector<float>());
  // Another transpose flag is another primitive.
  matmul(a, random::stateless_uniform({3, 29, 53}, {1, 3}), false, true);
  EXPECT_EQ(matmul_cache_stats().misses, s2.misses + 1);
}

TEST(MatMul, BroadcastBatchesRunOnOneDnn) {
  const MatMulCacheStats s0 = matmul_cache_stats();
  Tensor a = random::stateless_uniform({2, 1, 3, 4, 5}, {4, 1});
  Tensor b = random::stateless_uniform({3, 5, 6}, {4, 2});
  EXPECT_EQ(matmul(a, b).shape(), Shape({2, 1, 3, 4, 6}));
  Tensor c = random::stateless_uniform({3, 3, 4}, {4, 3});
  Tensor d = random::stateless_uniform({5, 1, 4, 2}, {4, 4});
  EXPECT_EQ(matmul(c, d).shape(), Shape({5, 3, 3, 2}));
  EXPECT_EQ(matmul_cache_stats().fallbacks, s0.fallbacks);
}

TEST(MatMul, LargeFloat32AgainstFloat64Reference) {
  const int64_t m = 512, k = 1024, n = 256;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(testing::Message() << "ta=" << ta << " tb=" << tb);
      Tensor a = random::stateless_uniform(
          ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, {7, 1}, -1, 1);
      Tensor b = random::stateless_uniform(
          tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, {7, 2}, -1, 1);
      Tensor c = matmul(a, b, ta, tb);
      ASSERT_EQ(c.shape(), Shape({m, n}));
      auto want = reference(a.to_vector<double>(), b.to_vector<double>(), m, k, n, ta, tb);
      EXPECT_LT(rel_error(c.to_vector<double>(), want), 1e-5);
      // The float64 loop on the same values.
      Tensor c64 = matmul(cast(a, float64), cast(b, float64), ta, tb);
      EXPECT_LT(rel_error(c64.to_vector<double>(), want), 1e-13);
    }
  }
}

TEST(MatMul, ConcurrentCallsAgree) {
  Tensor a = random::stateless_uniform({8, 64, 48}, {5, 1});
  Tensor b = random::stateless_uniform({48, 32}, {5, 2});
  const std::vector<float> want = matmul(a, b).to_vector<float>();
  std::vector<std::thread> threads;
  // oneDNN may split the reduction differently when called from several threads at once (its
  // OpenMP team size differs), so results agree to rounding, not bit for bit; a race on a shared
  // primitive or scratchpad would show as large differences.
  std::vector<double> worst(4, 0.0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        std::vector<float> got = matmul(a, b).to_vector<float>();
        for (size_t j = 0; j < got.size(); ++j) {
          worst[size_t(t)] = std::max(worst[size_t(t)], double(std::fabs(got[j] - want[j])));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_LT(worst[size_t(t)], 1e-4) << "thread " << t;
}

TEST(MatMul, IntegerMatmulWraps) {
  Tensor a = Tensor::from_vector<int32_t>({2147483647, 2}, Shape{1, 2});
  Tensor b = Tensor::from_vector<int32_t>({2, 3}, Shape{2, 1});
  // 2 * (2^31 - 1) + 6 wraps to 4.
  EXPECT_EQ(matmul(a, b).item<int32_t>(), 4);
}

// Gradient rules: for L = sum(C * G), dL/dA and dL/dB computed with explicit loops.
TEST(MatMul, GradientRulesForEveryTransposeCombination) {
  const int64_t m = 3, k = 4, n = 2;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(testing::Message() << "ta=" << ta << " tb=" << tb);
      Tensor a = random::stateless_normal(
          ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, {3, 1}, 0, 1, float64);
      Tensor b = random::stateless_normal(
          tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, {3, 2}, 0, 1, float64);
      Tensor g = random::stateless_normal({m, n}, {3, 3}, 0, 1, float64);
      Tensor c = matmul(a, b, ta, tb);
      const OpDef& op = op_def("MatMul");
      Attrs attrs{{"transpose_a", ta}, {"transpose_b", tb}, {"T", float64}};
      Tensor ins[] = {a, b}, outs[] = {c}, grads[] = {g};
      GradContext ctx{op, ins, outs, attrs, grads};
      std::vector<Tensor> d = op.gradient_fn()(ctx);
      ASSERT_EQ(d.size(), 2u);
      ASSERT_EQ(d[0].shape(), a.shape());
      ASSERT_EQ(d[1].shape(), b.shape());
      auto av = a.to_vector<double>(), bv = b.to_vector<double>(), gv = g.to_vector<double>();
      auto da = d[0].to_vector<double>(), db = d[1].to_vector<double>();
      // dL/dopA[i,kk] = sum_j G[i,j] opB[kk,j]; dL/dopB[kk,j] = sum_i opA[i,kk] G[i,j].
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t kk = 0; kk < k; ++kk) {
          double s = 0;
          for (int64_t j = 0; j < n; ++j) {
            s += gv[size_t(i * n + j)] * (tb ? bv[size_t(j * k + kk)] : bv[size_t(kk * n + j)]);
          }
          EXPECT_NEAR(ta ? da[size_t(kk * m + i)] : da[size_t(i * k + kk)], s, 1e-12);
        }
      }
      for (int64_t kk = 0; kk < k; ++kk) {
        for (int64_t j = 0; j < n; ++j) {
          double s = 0;
          for (int64_t i = 0; i < m; ++i) {
            s += (ta ? av[size_t(kk * m + i)] : av[size_t(i * k + kk)]) * gv[size_t(i * n + j)];
          }
          EXPECT_NEAR(tb ? db[size_t(j * k + kk)] : db[size_t(kk * n + j)], s, 1e-12);
        }
      }
    }
  }
}

TEST(MatMul, OpsAreMarkedCorrectly) {
  EXPECT_TRUE(op_def("MatMul").is_differentiable());
  EXPECT_TRUE(op_def("BatchMatMulV2").is_differentiable());
  for (const char* name : {"Fill", "Range", "OneHot", "Eye", "LinSpace", "ZerosLike",
                           "RandomUniform", "Multinomial", "RandomShuffle"}) {
    EXPECT_TRUE(op_def(name).marked_not_differentiable()) << name;
  }
  for (const char* name : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                           "Multinomial", "RandomShuffle"}) {
    EXPECT_TRUE(op_def(name).is_stateful()) << name;
  }
  EXPECT_FALSE(op_def("StatelessRandomUniformV2").is_stateful());
}

}  // namespace
}  // namespace tfcc
