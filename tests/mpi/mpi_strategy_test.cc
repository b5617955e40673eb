// MultiWorkerMirroredStrategy on real OpenMPI processes: ctest launches this binary with
// `mpirun -np 2` and `-np 4`; every rank runs every test and any rank's failure fails the run.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/mpi/linear_model.h"
#include "tfcc/tfcc.h"

namespace tfcc::distribute {
namespace {

MultiWorkerMirroredStrategy& strategy() {
  static MultiWorkerMirroredStrategy s(
      {.timeout_seconds = 60, .bucket_bytes = 64, .gradient_bucket_bytes = 64});
  return s;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.nbytes() == b.nbytes() && std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

// Rank 0's value of `t`, fetched by broadcasting through a scratch variable.
Tensor rank0_value(const Tensor& t) {
  Variable v(t, {.name = "probe", .trainable = false});
  Variable vs[] = {v};
  strategy().broadcast_variables(vs);
  return v.read_value();
}

TEST(MultiWorkerMirrored, SumAndMeanOfManyTensors) {
  auto& s = strategy();
  const int n = s.num_replicas_in_sync(), r = s.rank();
  ASSERT_GE(n, 2) << "run under mpirun -np 2 or more";
  std::vector<Tensor> values;
  for (int i = 0; i < 7; ++i) {  // 64-byte buckets: several tensors per bucket and big ones alone
    std::vector<float> v(static_cast<size_t>(i * 5 + 1));
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((r + 1) * (k + 1));
    values.push_back(Tensor::from_vector(v));
  }
  values.push_back(Tensor::from_vector<int64_t>({r, 1}));
  auto sums = s.all_reduce(values, ReduceOp::kSum);
  const float ranks_sum = n * (n + 1) / 2.0f;
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    auto got = sums[i].to_vector<float>();
    ASSERT_EQ(sums[i].shape(), values[i].shape());
    for (size_t k = 0; k < got.size(); ++k) EXPECT_FLOAT_EQ(got[k], ranks_sum * (k + 1));
  }
  EXPECT_EQ(sums.back().to_vector<int64_t>(), (std::vector<int64_t>{n * (n - 1) / 2, n}));
  EXPECT_GT(s.num_collectives(), 2);

  values.pop_back();
  auto means = s.all_reduce(values, ReduceOp::kMean);
  EXPECT_FLOAT_EQ(means[3].to_vector<float>()[2], ranks_sum / n * 3);
  std::vector<Tensor> ints = {Tensor::from_vector<int32_t>({1})};
  EXPECT_THROW(s.all_reduce(ints, ReduceOp::kMean), InvalidArgumentError);
}

TEST(MultiWorkerMirrored, ResultsAreBitIdenticalOnEveryRank) {
  auto& s = strategy();
  Tensor x = random::stateless_normal({1000}, {s.rank(), 3});
  Tensor sum = s.reduce(ReduceOp::kMean, x);
  EXPECT_TRUE(same_bits(sum, rank0_value(sum)));
}

TEST(MultiWorkerMirrored, BroadcastGivesRankZerosWeights) {
  auto& s = strategy();
  Variable w(random::stateless_normal({5, 2}, {s.rank(), 9}), {.name = "w"});
  Variable vs[] = {w};
  s.broadcast_variables(vs);
  EXPECT_TRUE(same_bits(w.read_value(), random::stateless_normal({5, 2}, {0, 9})));
}

TEST(MultiWorkerMirrored, TrainingMatchesOneProcessOnTheGlobalBatch) {
  auto& s = strategy();
  const int n = s.num_replicas_in_sync(), r = s.rank();
  const int64_t per_replica = 8;
  mpi_test::LinearModel dist, single;
  std::vector<Variable> dist_vars = {dist.w, dist.b};
  s.broadcast_variables(dist_vars);
  for (int step = 0; step < 5; ++step) {
    auto [x, y] = mpi_test::global_batch(step, per_replica * n);
    auto xs = slice(x, {r * per_replica, 0}, {per_replica, 4});
    auto ys = slice(y, {r * per_replica, 0}, {per_replica, 3});
    auto g = s.all_reduce(mpi_test::gradients(dist, xs, ys), ReduceOp::kMean);
    mpi_test::sgd(dist, g, 0.1f);
    mpi_test::sgd(single, mpi_test::gradients(single, x, y), 0.1f);
  }
  auto dw = dist.w.read_value().to_vector<float>(), sw = single.w.read_value().to_vector<float>();
  for (size_t i = 0; i < dw.size(); ++i) EXPECT_NEAR(dw[i], sw[i], 1e-5) << i;
  auto db = dist.b.read_value().to_vector<float>(), sb = single.b.read_value().to_vector<float>();
  for (size_t i = 0; i < db.size(); ++i) EXPECT_NEAR(db[i], sb[i], 1e-5) << i;
  EXPECT_TRUE(same_bits(dist.w.read_value(), rank0_value(dist.w.read_value())));
}

// A two-layer model whose gradients fill several 64-byte buckets.
struct TwoLayers {
  Variable w1{random::stateless_normal({4, 8}, {21, 1}), {.name = "w1"}};
  Variable b1{zeros({8}), {.name = "b1"}};
  Variable w2{random::stateless_normal({8, 3}, {21, 2}), {.name = "w2"}};
  Variable b2{zeros({3}), {.name = "b2"}};
  std::vector<Variable> vars() const { return {w1, b1, w2, b2}; }
  Tensor loss(const Tensor& x, const Tensor& y) {
    return reduce_mean(square(matmul(relu(matmul(x, w1) + b1), w2) + b2 - y));
  }
};

TEST(MultiWorkerMirrored, OverlappedGradientEqualsAllReduceOfTheTapesGradients) {
  auto& s = strategy();
  TwoLayers m;
  auto [x, y] = mpi_test::global_batch(s.rank(), 8);  // each rank its own rows
  std::vector<Tensor> want;
  {
    GradientTape tape;
    want = s.all_reduce(tape.gradient(m.loss(x, y), m.vars()), ReduceOp::kMean);
  }
  s.reset_stats();
  GradientTape tape;
  auto got = s.gradient(tape, m.loss(x, y), m.vars());
  auto stats = s.stats();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(same_bits(got[i], want[i])) << i;
    EXPECT_TRUE(same_bits(got[i], rank0_value(got[i]))) << i;
  }
  // w1 (128 B) alone, b1 (32 B), w2 (96 B) alone, b2 (12 B): started from the last variable.
  EXPECT_EQ(stats.gradient_buckets, 4);
  EXPECT_EQ(stats.all_reduce_calls, 1);
  EXPECT_GT(stats.all_reduce_seconds, 0);
}

TEST(MultiWorkerMirrored, TracedOverlappedStepEqualsTheEagerOne) {
  auto& s = strategy();
  TwoLayers traced, eager;
  auto step = tfcc::function([&](Tensor x, Tensor y) {
    GradientTape tape;
    auto g = s.gradient(tape, traced.loss(x, y), traced.vars());
    auto vars = traced.vars();
    for (size_t i = 0; i < g.size(); ++i) vars[i].assign_sub(g[i] * 0.1f);
    return g[0];
  });
  for (int i = 0; i < 3; ++i) {
    auto [x, y] = mpi_test::global_batch(10 * i + s.rank(), 8);
    Tensor g0 = s.run(step, x, y);
    GradientTape tape;
    auto g = s.gradient(tape, eager.loss(x, y), eager.vars());
    auto vars = eager.vars();
    for (size_t k = 0; k < g.size(); ++k) vars[k].assign_sub(g[k] * 0.1f);
    EXPECT_TRUE(same_bits(g0, g[0]));
  }
  EXPECT_EQ(step.tracing_count(), 1);
  for (size_t k = 0; k < 4; ++k) {
    Tensor w = traced.vars()[k].read_value();
    EXPECT_TRUE(same_bits(w, eager.vars()[k].read_value())) << k;
    EXPECT_TRUE(same_bits(w, rank0_value(w))) << k;
  }
}

TEST(MultiWorkerMirrored, ScopeMakesItTheCurrentStrategy) {
  auto scope = strategy().scope();
  EXPECT_EQ(&get_strategy(), &strategy());
  EXPECT_EQ(get_strategy().num_replicas_in_sync(), strategy().num_replicas_in_sync());
  get_strategy().barrier();
}

}  // namespace
}  // namespace tfcc::distribute
