// One eager training step of a 784-512-512-10 ReLU MLP on a batch of 128: forward, tape.gradient,
// SGD update. The PyTorch twins are benchmarks/torch_mlp_bench.cc (LibTorch C++) and
// benchmarks/mlp_peers.py (PyTorch and TensorFlow from Python).
//
//   build/release/benchmarks/mlp_step_bench --benchmark_repetitions=7
//       --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
//
// Python it mirrors:
//
//   with tf.GradientTape() as tape:
//     h1 = tf.nn.relu(x @ w1 + b1); h2 = tf.nn.relu(h1 @ w2 + b2); logits = h2 @ w3 + b3
//     loss = -tf.reduce_mean(tf.reduce_sum(tf.one_hot(labels, 10) * tf.nn.log_softmax(logits), 1))
//   grads = tape.gradient(loss, params)
//   for v, g in zip(params, grads): v.assign_sub(g * lr)
//
// The step is about 0.46 GFLOP of matmul (forward 2*128*(784*512 + 512*512 + 512*10) flops, the
// backward twice that, less the input's gradient, which is not needed). The benchmark reports
// ms per step (wall time) for 1 and 2 OpenMP threads (oneDNN and tfcc's kernels both use OpenMP).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "benchmarks/mlp_model.h"
#include "tfcc/tfcc.h"

namespace {

using namespace tfcc_bench;

void BM_MlpStep(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  Mlp mlp;
  for (int i = 0; i < 3; ++i) mlp.step();  // warm-up: primitive cache, allocator cache
  for (auto _ : state) {
    tfcc::Tensor loss = mlp.step();
    benchmark::DoNotOptimize(loss);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(
      kStepFlops * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MlpStep)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(0.5);

// Where the step's time goes: the forward alone (no tape), and the step's matmuls alone, with
// the transposes the gradient rules use, plus the input's gradient dx = dz1 @ w1^T, which the
// step itself no longer computes (the tape tells matmul's rule nothing watches x).
void BM_MlpForward(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  Mlp mlp;
  for (auto _ : state) {
    tfcc::Tensor loss = mlp.loss();
    benchmark::DoNotOptimize(loss);
  }
}
BENCHMARK(BM_MlpForward)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(0.5);

void BM_MlpMatmuls(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  Mlp mlp;
  const tfcc::Tensor w1 = mlp.params[0], w2 = mlp.params[2], w3 = mlp.params[4];
  const tfcc::Tensor h1 = tfcc::random::uniform({kBatch, kHidden});
  const tfcc::Tensor h2 = tfcc::random::uniform({kBatch, kHidden});
  const tfcc::Tensor d3 = tfcc::random::uniform({kBatch, kClasses});
  for (auto _ : state) {
    benchmark::DoNotOptimize(tfcc::matmul(mlp.x, w1));  // forward
    benchmark::DoNotOptimize(tfcc::matmul(h1, w2));
    benchmark::DoNotOptimize(tfcc::matmul(h2, w3));
    benchmark::DoNotOptimize(tfcc::matmul(d3, w3, false, true));     // dh2
    benchmark::DoNotOptimize(tfcc::matmul(h2, d3, true, false));     // dw3
    benchmark::DoNotOptimize(tfcc::matmul(h2, w2, false, true));     // dh1
    benchmark::DoNotOptimize(tfcc::matmul(h1, h2, true, false));     // dw2
    benchmark::DoNotOptimize(tfcc::matmul(h1, w1, false, true));     // dx (unused)
    benchmark::DoNotOptimize(tfcc::matmul(mlp.x, h1, true, false));  // dw1
  }
}
BENCHMARK(BM_MlpMatmuls)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
