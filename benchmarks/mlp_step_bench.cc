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

#include "tfcc/tfcc.h"

namespace {

constexpr int64_t kBatch = 128, kIn = 784, kHidden = 512, kClasses = 10;
constexpr float kLearningRate = 0.01f;

// Forward + backward matmul flops of one step (the input's gradient is not computed).
constexpr double kStepFlops =
    2.0 * kBatch * (kIn * kHidden + kHidden * kHidden + kHidden * kClasses) * 3 -
    2.0 * kBatch * kIn * kHidden;

struct Mlp {
  std::vector<tfcc::Variable> params;
  tfcc::Tensor x, labels;

  Mlp() {
    tfcc::random::set_seed(1);
    auto glorot = [](int64_t fan_in, int64_t fan_out) {
      const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
      return tfcc::random::uniform({fan_in, fan_out}, -limit, limit);
    };
    params = {tfcc::Variable(glorot(kIn, kHidden), {.name = "w1"}),
              tfcc::Variable(tfcc::zeros({kHidden}), {.name = "b1"}),
              tfcc::Variable(glorot(kHidden, kHidden), {.name = "w2"}),
              tfcc::Variable(tfcc::zeros({kHidden}), {.name = "b2"}),
              tfcc::Variable(glorot(kHidden, kClasses), {.name = "w3"}),
              tfcc::Variable(tfcc::zeros({kClasses}), {.name = "b3"})};
    x = tfcc::random::uniform({kBatch, kIn}, 0, 1);
    std::vector<int32_t> l(static_cast<size_t>(kBatch));
    for (int64_t i = 0; i < kBatch; ++i) l[static_cast<size_t>(i)] = static_cast<int32_t>(i % 10);
    labels = tfcc::Tensor::from_vector<int32_t>(l);
  }

  // One training step; returns the loss.
  tfcc::Tensor step() {
    tfcc::GradientTape tape;
    const auto& p = params;
    tfcc::Tensor h1 = tfcc::relu(tfcc::matmul(x, p[0]) + p[1]);
    tfcc::Tensor h2 = tfcc::relu(tfcc::matmul(h1, p[2]) + p[3]);
    tfcc::Tensor logits = tfcc::matmul(h2, p[4]) + p[5];
    tfcc::Tensor loss = -tfcc::reduce_mean(
        tfcc::reduce_sum(tfcc::one_hot(labels, kClasses) * tfcc::log_softmax(logits), 1));
    std::vector<tfcc::Tensor> grads = tape.gradient(loss, params);
    for (size_t i = 0; i < params.size(); ++i) params[i].assign_sub(grads[i] * kLearningRate);
    return loss;
  }
};

class OmpThreads {
 public:
  explicit OmpThreads(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(saved_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
};

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
// the transposes the gradient rules use, including the input's gradient that the tape computes
// though nothing asks for it (dx = dz1 @ w1^T).
void BM_MlpForward(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  Mlp mlp;
  const auto& p = mlp.params;
  for (auto _ : state) {
    tfcc::Tensor h1 = tfcc::relu(tfcc::matmul(mlp.x, p[0]) + p[1]);
    tfcc::Tensor h2 = tfcc::relu(tfcc::matmul(h1, p[2]) + p[3]);
    tfcc::Tensor logits = tfcc::matmul(h2, p[4]) + p[5];
    tfcc::Tensor loss = -tfcc::reduce_mean(
        tfcc::reduce_sum(tfcc::one_hot(mlp.labels, kClasses) * tfcc::log_softmax(logits), 1));
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
