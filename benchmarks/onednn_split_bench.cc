// The oneDNN calls of the seed CNN and the MLP one op at a time, on 1 and 2 intra-op threads
// (issue 22): how the default runtime (oneDNN split over tfcc's pool, one OpenMP thread per
// call) compares with TFCC_PARALLEL_RUNTIME=openmp (one OpenMP region per primitive). The
// runtime is read once per process, so run the binary once per runtime:
//
//   build/release/benchmarks/onednn_split_bench
//   TFCC_PARALLEL_RUNTIME=openmp build/release/benchmarks/onednn_split_bench
#include <benchmark/benchmark.h>

#include <functional>

#include "tfcc/tfcc.h"

namespace {

namespace tf = tfcc;

void run(benchmark::State& state, const std::function<tf::Tensor()>& op) {
  tf::config::threading::set_intra_op_parallelism_threads(static_cast<int>(state.range(0)));
  op();
  for (auto _ : state) benchmark::DoNotOptimize(op());
  tf::config::threading::set_intra_op_parallelism_threads(0);
}

// The seed CNN's first layer on a batch of 64.
void BM_SeedConvForward(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({64, 28, 28, 1}, {1, 1});
  tf::Tensor w = tf::random::stateless_uniform({3, 3, 1, 32}, {1, 2});
  run(state, [&] { return tf::conv2d(x, w, {1}, "VALID"); });
}
BENCHMARK(BM_SeedConvForward)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

void BM_SeedConvFilterGrad(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({64, 28, 28, 1}, {1, 1});
  tf::Tensor dy = tf::random::stateless_uniform({64, 26, 26, 32}, {1, 3});
  run(state, [&] { return tf::conv2d_backprop_filter(x, {3, 3, 1, 32}, dy, {1}, "VALID"); });
}
BENCHMARK(BM_SeedConvFilterGrad)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

void BM_SeedMaxPool(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({64, 26, 26, 32}, {1, 4});
  run(state, [&] { return tf::max_pool2d(x, {2}, {2}, "VALID"); });
}
BENCHMARK(BM_SeedMaxPool)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

// The seed CNN's Dense(64) after Flatten: [64, 5408] x [5408, 64] + bias, ReLU.
void BM_SeedDense(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({64, 5408}, {1, 5});
  tf::Tensor w = tf::random::stateless_uniform({5408, 64}, {1, 6});
  tf::Tensor b = tf::random::stateless_uniform({64}, {1, 7});
  run(state, [&] { return tf::fused_matmul(x, w, b, "Relu"); });
}
BENCHMARK(BM_SeedDense)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

// The MLP's first Dense(512) on a batch of 128, and its weight gradient.
void BM_MlpDense(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({128, 784}, {1, 8});
  tf::Tensor w = tf::random::stateless_uniform({784, 512}, {1, 9});
  tf::Tensor b = tf::random::stateless_uniform({512}, {1, 10});
  run(state, [&] { return tf::fused_matmul(x, w, b, "Relu"); });
}
BENCHMARK(BM_MlpDense)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

void BM_MlpWeightGrad(benchmark::State& state) {
  tf::Tensor x = tf::random::stateless_uniform({128, 784}, {1, 8});
  tf::Tensor dy = tf::random::stateless_uniform({128, 512}, {1, 11});
  run(state, [&] { return tf::matmul(x, dy, /*transpose_a=*/true); });
}
BENCHMARK(BM_MlpWeightGrad)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
