// The conv and pool families beyond the conformance rows: the oneDNN primitive caches (a
// repeated shape builds nothing; the seed CNN's shapes never fall back to the loops), float32
// on oneDNN against the float64 loops on the same values, concurrent calls, and a training-style
// gradient through conv -> relu -> max pool with the tape.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/ops/linalg/linalg_internal.h"
#include "tfcc/ops/pool/pool_internal.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

double max_abs_diff(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

TEST(Conv, RepeatedShapeReusesPrimitives) {
  Tensor x = random::stateless_uniform({8, 28, 28, 1}, {1, 1});
  Tensor w = random::stateless_uniform({3, 3, 1, 32}, {1, 2});
  Tensor y = conv2d(x, w, {1}, "VALID");
  Tensor dy = ones_like(y);
  conv2d_backprop_filter(x, {3, 3, 1, 32}, dy, {1}, "VALID");
  conv2d_backprop_input({8, 28, 28, 1}, w, dy, {1}, "VALID");
  const onednn::CacheStats s0 = conv_cache_stats();
  for (int i = 0; i < 3; ++i) {
    conv2d(random::stateless_uniform({8, 28, 28, 1}, {2, i}), w, {1}, "VALID");
    conv2d_backprop_filter(x, {3, 3, 1, 32}, dy, {1}, "VALID");
    conv2d_backprop_input({8, 28, 28, 1}, w, dy, {1}, "VALID");
  }
  const onednn::CacheStats s1 = conv_cache_stats();
  EXPECT_EQ(s1.misses, s0.misses);
  EXPECT_EQ(s1.hits, s0.hits + 9);
  EXPECT_EQ(s1.fallbacks, s0.fallbacks) << "the seed CNN's conv must run on oneDNN";
}

TEST(Conv, Float32OnOneDnnMatchesFloat64Loops) {
  struct P {
    std::vector<int64_t> x, w, strides, dil;
    std::string pad;
  };
  for (const P& p : {P{{4, 17, 15, 6}, {3, 3, 6, 10}, {1}, {1}, "SAME"},
                     P{{2, 20, 20, 8}, {5, 3, 2, 12}, {2, 1}, {1}, "VALID"},
                     P{{2, 16, 16, 4}, {3, 3, 4, 8}, {1}, {2}, "SAME"}}) {
    Tensor x = random::stateless_uniform(p.x, {3, 1}, -1, 1);
    Tensor w = random::stateless_uniform(p.w, {3, 2}, -1, 1);
    Tensor y32 = conv2d(x, w, p.strides, p.pad, p.dil);
    Tensor y64 = conv2d(cast(x, float64), cast(w, float64), p.strides, p.pad, p.dil);
    EXPECT_LT(max_abs_diff(y32, y64), 1e-4);
    Tensor dy = random::stateless_uniform(y32.shape().dims(), {3, 3}, -1, 1);
    EXPECT_LT(max_abs_diff(conv2d_backprop_input(p.x, w, dy, p.strides, p.pad, p.dil),
                           conv2d_backprop_input(p.x, cast(w, float64), cast(dy, float64),
                                                 p.strides, p.pad, p.dil)),
              1e-4);
    EXPECT_LT(max_abs_diff(conv2d_backprop_filter(x, p.w, dy, p.strides, p.pad, p.dil),
                           conv2d_backprop_filter(cast(x, float64), p.w, cast(dy, float64),
                                                  p.strides, p.pad, p.dil)),
              1e-3);
  }
}

TEST(Conv, ConcurrentCallsAgree) {
  Tensor x = random::stateless_uniform({8, 20, 20, 3}, {4, 1});
  Tensor w = random::stateless_uniform({3, 3, 3, 16}, {4, 2});
  const Tensor want = conv2d(x, w, {1}, "SAME");
  std::vector<double> worst(4, 0.0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        worst[size_t(t)] =
            std::max(worst[size_t(t)], max_abs_diff(conv2d(x, w, {1}, "SAME"), want));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (double v : worst) EXPECT_LT(v, 1e-4);
}

TEST(Pool, SeedShapesRunOnOneDnnAndReusePrimitives) {
  Tensor x = random::stateless_uniform({16, 26, 26, 32}, {5, 1});
  max_pool2d(x, {2}, {2}, "VALID");
  avg_pool2d(x, {2}, {2}, "VALID");
  const onednn::CacheStats s0 = pool_cache_stats();
  Tensor y = max_pool2d(x, {2}, {2}, "VALID");
  avg_pool2d(x, {2}, {2}, "VALID");
  const onednn::CacheStats s1 = pool_cache_stats();
  EXPECT_EQ(s1.misses, s0.misses);
  EXPECT_GE(s1.hits, s0.hits + 2);  // one per call, or per slice of the batch on the pool
  EXPECT_EQ(s1.fallbacks, s0.fallbacks);
  EXPECT_EQ(max_abs_diff(y, max_pool2d(cast(x, float64), {2}, {2}, "VALID")), 0.0);
}

TEST(Fused, SeedShapesRunOnOneDnn) {
  const onednn::CacheStats c0 = conv_cache_stats();
  const onednn::CacheStats m0 = fused_matmul_cache_stats();
  Tensor x = random::stateless_uniform({8, 28, 28, 1}, {6, 1});
  Tensor w = random::stateless_uniform({3, 3, 1, 32}, {6, 2});
  Tensor b = random::stateless_uniform({32}, {6, 3});
  for (const char* act : {"Relu", "Relu6", "Elu", "Tanh", "Sigmoid", "GeluExact"}) {
    Tensor y = fused_conv2d(x, w, b, {1}, "VALID", act);
    Tensor want =
        fused_conv2d(cast(x, float64), cast(w, float64), cast(b, float64), {1}, "VALID", act);
    EXPECT_LT(max_abs_diff(y, want), 1e-4) << act;
    Tensor a = random::stateless_uniform({64, 800}, {6, 4}, -0.1, 0.1);
    Tensor k = random::stateless_uniform({800, 128}, {6, 5}, -0.1, 0.1);
    Tensor kb = random::stateless_uniform({128}, {6, 6});
    EXPECT_LT(
        max_abs_diff(fused_matmul(a, k, kb, act),
                     fused_matmul(cast(a, float64), cast(k, float64), cast(kb, float64), act)),
        1e-4)
        << act;
  }
  EXPECT_EQ(conv_cache_stats().fallbacks, c0.fallbacks);
  EXPECT_EQ(fused_matmul_cache_stats().fallbacks, m0.fallbacks);
}

// The seed CNN's first block, differentiated with the tape, against the float64 path.
TEST(Conv, SeedBlockGradientsMatchFloat64) {
  Tensor x = random::stateless_uniform({4, 28, 28, 1}, {7, 1}, -1, 1);
  Tensor w = random::stateless_uniform({3, 3, 1, 32}, {7, 2}, -0.5, 0.5);
  Tensor b = random::stateless_uniform({32}, {7, 3}, -0.1, 0.1);
  auto grads = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    GradientTape tape;
    tape.watch(w);
    tape.watch(b);
    Tensor y = max_pool2d(relu(conv2d(x, w, {1}, "VALID") + b), {2}, {2}, "VALID");
    Tensor loss = reduce_sum(y * y);
    return tape.gradient(loss, std::vector<Tensor>{w, b});
  };
  auto g32 = grads(x, w, b);
  auto g64 = grads(cast(x, float64), cast(w, float64), cast(b, float64));
  EXPECT_LT(max_abs_diff(g32[0], g64[0]), 1e-2);
  EXPECT_LT(max_abs_diff(g32[1], g64[1]), 1e-3);
}

}  // namespace
}  // namespace tfcc
