// Batch normalisation on oneDNN (float32, large problems): the primitive cache reuses a
// repeated shape, and forward/backward agree with the float64 loops.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tfcc/ops/config.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

// Large enough for the oneDNN path (at least 2^16 elements).
const std::vector<int64_t> kShape = {16, 8, 8, 64};

double max_abs_diff(const Tensor& a, const Tensor& b) {
  std::vector<double> x = cast(a, float64).to_vector<double>();
  std::vector<double> y = cast(b, float64).to_vector<double>();
  EXPECT_EQ(x.size(), y.size());
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

struct BnRun {
  Tensor y, mean, var, dx, dscale, doffset;
};

BnRun run(DType dt, const Tensor& x0, const Tensor& g0, const Tensor& b0, const Tensor& dy0) {
  Tensor x = cast(x0, dt), g = cast(g0, dt), b = cast(b0, dt), dy = cast(dy0, dt);
  GradientTape tape;
  tape.watch(std::vector<Tensor>{x, g, b});
  nn::FusedBatchNormResult r = nn::fused_batch_norm(x, g, b);
  std::vector<Tensor> grads =
      tape.gradient(reduce_sum(multiply(r.y, dy)), std::vector<Tensor>{x, g, b});
  return {r.y, r.batch_mean, r.batch_variance, grads[0], grads[1], grads[2]};
}

TEST(NnBatchNorm, OneDnnMatchesFloat64LoopsAndCachesPrimitives) {
  // On one intra-op thread: with more, training-mode batch norm runs the loops on tfcc's pool
  // (oneDNN's statistics cannot be split; docs/threading.md).
  config::threading::set_intra_op_parallelism_threads(1);
  struct Restore {
    ~Restore() { config::threading::set_intra_op_parallelism_threads(0); }
  } restore;
  random::set_seed(5);
  Tensor x = random::normal(kShape, 0.5, 2.0);
  Tensor g = random::uniform({64}, 0.5, 1.5);
  Tensor b = random::normal({64});
  Tensor dy = random::normal(kShape);
  BnRun f32 = run(float32, x, g, b, dy);
  BnRun f64 = run(float64, x, g, b, dy);
  EXPECT_LT(max_abs_diff(f32.y, f64.y), 1e-4);
  EXPECT_LT(max_abs_diff(f32.mean, f64.mean), 1e-5);
  EXPECT_LT(max_abs_diff(f32.var, f64.var), 1e-4);
  EXPECT_LT(max_abs_diff(f32.dx, f64.dx), 1e-4);
  EXPECT_LT(max_abs_diff(f32.dscale, f64.dscale), 1e-2);  // sums over 4096 rows
  EXPECT_LT(max_abs_diff(f32.doffset, f64.doffset), 1e-2);

  // A repeated shape reuses its primitives: no new cache entries, only hits.
  nn_internal::BatchNormCacheStats before = nn_internal::batch_norm_cache_stats();
  EXPECT_GE(before.entries, 2);  // forward and backward
  BnRun again = run(float32, x, g, b, dy);
  nn_internal::BatchNormCacheStats after = nn_internal::batch_norm_cache_stats();
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.entries, before.entries);
  EXPECT_GE(after.hits, before.hits + 2);
  EXPECT_EQ(max_abs_diff(again.y, f32.y), 0.0);
}

TEST(NnBatchNorm, InferenceOnOneDnnUsesGivenStatistics) {
  random::set_seed(6);
  Tensor x = random::normal(kShape);
  Tensor g = random::uniform({64}, 0.5, 1.5), b = random::normal({64});
  Tensor mean = random::normal({64}), var = random::uniform({64}, 0.5, 2);
  nn::FusedBatchNormOptions infer{.epsilon = 0.01, .is_training = false};
  Tensor y32 = nn::fused_batch_norm(x, g, b, mean, var, infer).y;
  Tensor y64 = nn::fused_batch_norm(cast(x, float64), cast(g, float64), cast(b, float64),
                                    cast(mean, float64), cast(var, float64), infer)
                   .y;
  EXPECT_LT(max_abs_diff(y32, y64), 1e-5);
}

}  // namespace
}  // namespace tfcc
