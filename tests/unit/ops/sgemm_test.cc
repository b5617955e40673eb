// tfcc's own AVX-512 sgemm (tfcc/ops/linalg/sgemm.h) against a float64 reference: every transpose
// combination, shapes that cross each blocking boundary (register tile 6 x 64, depth 512, 240-row
// A blocks, 3072-column B panels) and end in partial tiles, strided operands, C overwritten
// whatever it held, 1-3 threads; and tfcc::matmul routing large products to it.
#include "tfcc/ops/linalg/sgemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "tfcc/ops/linalg/linalg_internal.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

struct Case {
  int64_t m, n, k;
};

// Values of A and B, stored with row strides lda / ldb (>= the logical row length).
struct Operands {
  std::vector<float> a, b;
  int64_t lda, ldb;
};

Operands make_operands(const sgemm::Dims& d, int64_t pad, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Operands o;
  const int64_t a_rows = d.ta ? d.k : d.m, a_cols = d.ta ? d.m : d.k;
  const int64_t b_rows = d.tb ? d.n : d.k, b_cols = d.tb ? d.k : d.n;
  o.lda = a_cols + pad;
  o.ldb = b_cols + pad;
  o.a.assign(size_t(a_rows * o.lda), std::numeric_limits<float>::quiet_NaN());
  o.b.assign(size_t(b_rows * o.ldb), std::numeric_limits<float>::quiet_NaN());
  for (int64_t r = 0; r < a_rows; ++r)
    for (int64_t c = 0; c < a_cols; ++c) o.a[size_t(r * o.lda + c)] = u(gen);
  for (int64_t r = 0; r < b_rows; ++r)
    for (int64_t c = 0; c < b_cols; ++c) o.b[size_t(r * o.ldb + c)] = u(gen);
  return o;
}

// Max |C - reference| relative to sqrt(k) (the size of a sum of k products of values in [-1, 1]),
// over every row and, of wide products, the first and last 70 columns and every 11th; padding
// columns of C must be untouched.
double check(const sgemm::Dims& d, const Operands& o, const std::vector<float>& c, int64_t ldc) {
  double worst = 0;
  for (int64_t i = 0; i < d.m; ++i) {
    for (int64_t j = 0; j < d.n; ++j) {
      if (j >= 70 && j < d.n - 70 && j % 11 != 0) continue;
      double want = 0;
      for (int64_t p = 0; p < d.k; ++p) {
        const double x = d.ta ? o.a[size_t(p * o.lda + i)] : o.a[size_t(i * o.lda + p)];
        const double y = d.tb ? o.b[size_t(j * o.ldb + p)] : o.b[size_t(p * o.ldb + j)];
        want += x * y;
      }
      const double got = c[size_t(i * ldc + j)];
      if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
      worst = std::max(worst, std::fabs(got - want));
    }
    for (int64_t j = d.n; j < ldc; ++j) {
      if (c[size_t(i * ldc + j)] != -3.0f) return std::numeric_limits<double>::infinity();
    }
  }
  return worst / std::sqrt(double(std::max<int64_t>(d.k, 1)));
}

void run_case(const Case& cs, bool ta, bool tb, int threads, int64_t pad) {
  const sgemm::Dims d{cs.m, cs.n, cs.k, ta, tb};
  SCOPED_TRACE(testing::Message() << "m=" << cs.m << " n=" << cs.n << " k=" << cs.k << " ta=" << ta
                                  << " tb=" << tb << " threads=" << threads << " pad=" << pad);
  const Operands o = make_operands(d, pad, uint32_t(cs.m * 131 + cs.n * 7 + cs.k));
  const int64_t ldc = cs.n + pad;
  // C starts as NaN in the product's columns: the result must not depend on what C held.
  std::vector<float> c(size_t(cs.m * ldc), -3.0f);
  for (int64_t i = 0; i < cs.m; ++i)
    for (int64_t j = 0; j < cs.n; ++j) c[size_t(i * ldc + j)] = std::nanf("");
  // 64-byte aligned workspace, as multiply() asks.
  std::vector<float> ws(size_t(sgemm::workspace_floats(d, threads) + 16));
  float* w = ws.data();
  while (reinterpret_cast<uintptr_t>(w) % 64 != 0) ++w;
  sgemm::multiply(d, o.a.data(), o.lda, o.b.data(), o.ldb, c.data(), ldc, w, threads);
  EXPECT_LT(check(d, o, c, ldc), 2e-6);
}

class SgemmTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!sgemm::available()) GTEST_SKIP() << "this build has no AVX-512 sgemm";
  }
};

TEST_F(SgemmTest, SmallAndPartialTilesEveryTranspose) {
  for (Case cs : {Case{1, 1, 1}, Case{5, 63, 15}, Case{6, 64, 16}, Case{7, 65, 17},
                  Case{13, 130, 40}, Case{31, 17, 3}}) {
    for (bool ta : {false, true})
      for (bool tb : {false, true}) run_case(cs, ta, tb, 1, 0);
  }
}

TEST_F(SgemmTest, CrossesEveryBlockingBoundary) {
  // k over two depth panels (512), m over two A blocks (240) per thread, n over one B panel
  // (3072 columns) with a partial 64-column sliver.
  for (bool ta : {false, true})
    for (bool tb : {false, true}) run_case(Case{487, 3100, 1030}, ta, tb, 2, 0);  // ~1 s each
}

TEST_F(SgemmTest, StridedOperandsAndThreadCounts) {
  for (int threads : {1, 2, 3}) {
    run_case(Case{100, 200, 300}, false, false, threads, 5);
    run_case(Case{100, 200, 300}, true, true, threads, 3);
  }
}

TEST_F(SgemmTest, MoreThreadsThanRowTiles) {
  run_case(Case{5, 70, 33}, false, false, 3, 0);
  run_case(Case{12, 70, 33}, true, false, 3, 0);
}

TEST_F(SgemmTest, EmptyDepthZeroesC) {
  const sgemm::Dims d{3, 4, 0, false, false};
  std::vector<float> c(12, 7.0f);
  std::vector<float> ws(size_t(sgemm::workspace_floats(d, 1) + 16));
  sgemm::multiply(d, nullptr, 1, nullptr, 4, c.data(), 4, ws.data(), 1);
  for (float v : c) EXPECT_EQ(v, 0.0f);
}

TEST_F(SgemmTest, MatmulRoutesLargeProductsHere) {
  const MatMulCacheStats s0 = matmul_cache_stats();
  Tensor a = random::stateless_uniform({512, 520}, {9, 1}, -1, 1);
  Tensor b = random::stateless_uniform({520, 530}, {9, 2}, -1, 1);
  Tensor c = matmul(a, b);
  EXPECT_EQ(matmul_cache_stats().own_sgemm, s0.own_sgemm + 1);
  // Same values through the float64 loop.
  Tensor c64 = matmul(cast(a, float64), cast(b, float64));
  const std::vector<double> got = c.to_vector<double>(), want = c64.to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
  EXPECT_LT(worst, 1e-4);
  // Small products stay on oneDNN.
  matmul(random::stateless_uniform({64, 64}, {9, 3}), random::stateless_uniform({64, 64}, {9, 4}));
  EXPECT_EQ(matmul_cache_stats().own_sgemm, s0.own_sgemm + 1);
}

}  // namespace
}  // namespace tfcc
