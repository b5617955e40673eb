// The seed CNN's convolution block, forward + backward, at batch 64: 28x28x1 input, 32 filters
// 3x3 (VALID), bias, ReLU, 2x2 max pool; the gradients of the filter and bias (not the input:
// it is the data) for a given upstream gradient of the pooled output. The PyTorch twin is
// benchmarks/conv_peers.py; benchmarks/run.sh runs both and conv_report.py prints the ratios.
//
//   build/release/benchmarks/conv_bench --benchmark_repetitions=7
//       --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
//
// Python it mirrors:
//
//   with tf.GradientTape() as tape:
//     y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID") + b), 2, 2, "VALID")
//   dw, db = tape.gradient(y, [w, b], output_gradients=g)
//
// BM_ConvBlock runs it op by op under the tape (what eager Keras code does); BM_ConvBlockFused
// runs the fused conv + bias + ReLU op a graph pass substitutes; the BM_Conv* / BM_MaxPool* rows
// time each op alone. Threads via tfcc::config::threading (1 and 2).
#include <benchmark/benchmark.h>

#include "tfcc/tfcc.h"

namespace {

using namespace tfcc;

struct Block {
  Tensor x = random::stateless_uniform({64, 28, 28, 1}, {1, 1});
  Tensor w = random::stateless_uniform({3, 3, 1, 32}, {1, 2}, -0.3, 0.3);
  Tensor b = random::stateless_uniform({32}, {1, 3}, -0.1, 0.1);
  Tensor g = random::stateless_uniform({64, 13, 13, 32}, {1, 4}, -1, 1);

  std::vector<Tensor> step(bool fused) const {
    GradientTape tape;
    tape.watch(w);
    tape.watch(b);
    Tensor h =
        fused ? fused_conv2d(x, w, b, {1}, "VALID", "Relu") : relu(conv2d(x, w, {1}, "VALID") + b);
    Tensor y = max_pool2d(h, {2}, {2}, "VALID");
    return tape.gradient(y, std::vector<Tensor>{w, b}, GradientOptions{.output_gradients = {g}});
  }
};

class Threads {
 public:
  explicit Threads(int n) { config::threading::set_intra_op_parallelism_threads(n); }
  ~Threads() { config::threading::set_intra_op_parallelism_threads(0); }
};

void run_step(benchmark::State& state, bool fused) {
  Threads threads(static_cast<int>(state.range(0)));
  Block blk;
  for (int i = 0; i < 3; ++i) blk.step(fused);  // warm-up: primitive and allocator caches
  for (auto _ : state) {
    auto grads = blk.step(fused);
    benchmark::DoNotOptimize(grads);
  }
}

void BM_ConvBlock(benchmark::State& state) { run_step(state, false); }
void BM_ConvBlockFused(benchmark::State& state) { run_step(state, true); }

// The ops alone.
template <typename F>
void run_op(benchmark::State& state, F&& fn) {
  Threads threads(static_cast<int>(state.range(0)));
  for (int i = 0; i < 3; ++i) fn();
  for (auto _ : state) {
    Tensor t = fn();
    benchmark::DoNotOptimize(t);
  }
}

void BM_ConvForward(benchmark::State& state) {
  Block blk;
  run_op(state, [&] { return conv2d(blk.x, blk.w, {1}, "VALID"); });
}
void BM_ConvBackpropFilter(benchmark::State& state) {
  Block blk;
  Tensor dy = random::stateless_uniform({64, 26, 26, 32}, {2, 1});
  run_op(state, [&] { return conv2d_backprop_filter(blk.x, {3, 3, 1, 32}, dy, {1}, "VALID"); });
}
void BM_MaxPoolForward(benchmark::State& state) {
  Tensor h = random::stateless_uniform({64, 26, 26, 32}, {2, 2});
  run_op(state, [&] { return max_pool2d(h, {2}, {2}, "VALID"); });
}
void BM_MaxPoolGrad(benchmark::State& state) {
  Block blk;
  Tensor h = random::stateless_uniform({64, 26, 26, 32}, {2, 2});
  Tensor y = max_pool2d(h, {2}, {2}, "VALID");
  run_op(state, [&] { return max_pool_grad(h, y, blk.g, {2}, {2}, "VALID"); });
}

// Wall time is the measure; cpu_time is the process's (all threads), as conv_peers.py reports it.
#define THREAD_ARGS                   \
  ArgName("threads")                  \
      ->Arg(1)                        \
      ->Arg(2)                        \
      ->Unit(benchmark::kMillisecond) \
      ->UseRealTime()                 \
      ->MeasureProcessCPUTime()
BENCHMARK(BM_ConvBlock)->THREAD_ARGS->MinTime(0.5);
BENCHMARK(BM_ConvBlockFused)->THREAD_ARGS->MinTime(0.5);
BENCHMARK(BM_ConvForward)->THREAD_ARGS;
BENCHMARK(BM_ConvBackpropFilter)->THREAD_ARGS;
BENCHMARK(BM_MaxPoolForward)->THREAD_ARGS;
BENCHMARK(BM_MaxPoolGrad)->THREAD_ARGS;

}  // namespace

BENCHMARK_MAIN();
