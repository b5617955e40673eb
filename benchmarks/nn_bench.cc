// The nn kernels on the seed CNN's shapes, forward + backward through the tape, next to PyTorch
// (benchmarks/nn_peers.py times the same computations; benchmarks/nn_bench.sh runs both and
// prints the table).
//
//   build/release/benchmarks/nn_bench --benchmark_repetitions=7
//       --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
//
// Python it mirrors (logits [64, 10], labels [64]; BatchNormalization after Dense(64), x [64, 64];
// and the conv output of the seed, [64, 26, 26, 32]):
//
//   with tf.GradientTape() as tape:
//     loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
//   tape.gradient(loss, logits)
//
//   with tf.GradientTape() as tape:
//     y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, gamma, beta, epsilon=1e-3)
//     loss = tf.reduce_sum(y * dy)
//   tape.gradient(loss, [x, gamma, beta])
#include <benchmark/benchmark.h>

#include <vector>

#include "benchmarks/mlp_model.h"
#include "tfcc/tfcc.h"

namespace {

using tfcc_bench::OmpThreads;

void BM_SparseXentFwdBwd(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  tfcc::random::set_seed(1);
  const tfcc::Tensor logits = tfcc::random::normal({64, 10});
  const tfcc::Tensor labels =
      tfcc::cast(tfcc::floor(tfcc::random::uniform({64}, 0, 10)), tfcc::int64);
  for (auto _ : state) {
    tfcc::GradientTape tape;
    tape.watch(logits);
    tfcc::Tensor loss =
        tfcc::reduce_mean(tfcc::nn::sparse_softmax_cross_entropy_with_logits(labels, logits));
    benchmark::DoNotOptimize(tape.gradient(loss, logits));
  }
}
BENCHMARK(BM_SparseXentFwdBwd)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->MinTime(0.3);

void BM_SparseXentForward(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(0)));
  tfcc::random::set_seed(1);
  const tfcc::Tensor logits = tfcc::random::normal({64, 10});
  const tfcc::Tensor labels =
      tfcc::cast(tfcc::floor(tfcc::random::uniform({64}, 0, 10)), tfcc::int64);
  for (auto _ : state) {
    benchmark::DoNotOptimize(tfcc::nn::sparse_softmax_cross_entropy_with_logits(labels, logits));
  }
}
BENCHMARK(BM_SparseXentForward)->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->MinTime(0.3);

std::vector<int64_t> bn_shape(int64_t which) {
  return which == 0 ? std::vector<int64_t>{64, 64} : std::vector<int64_t>{64, 26, 26, 32};
}

void BM_BatchNormFwdBwd(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(1)));
  tfcc::random::set_seed(2);
  const std::vector<int64_t> shape = bn_shape(state.range(0));
  const int64_t c = shape.back();
  const tfcc::Tensor x = tfcc::random::normal(shape);
  const tfcc::Tensor dy = tfcc::random::normal(shape);
  const tfcc::Tensor gamma = tfcc::random::uniform({c}, 0.5, 1.5);
  const tfcc::Tensor beta = tfcc::random::normal({c});
  for (auto _ : state) {
    tfcc::GradientTape tape;
    tape.watch(std::vector<tfcc::Tensor>{x, gamma, beta});
    tfcc::Tensor y = tfcc::nn::fused_batch_norm(x, gamma, beta).y;
    tfcc::Tensor loss = tfcc::reduce_sum(tfcc::multiply(y, dy));
    benchmark::DoNotOptimize(tape.gradient(loss, std::vector<tfcc::Tensor>{x, gamma, beta}));
  }
}
BENCHMARK(BM_BatchNormFwdBwd)
    ->ArgNames({"shape", "threads"})
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->UseRealTime()
    ->MinTime(0.3);

void BM_BatchNormForward(benchmark::State& state) {
  OmpThreads threads(static_cast<int>(state.range(1)));
  tfcc::random::set_seed(3);
  const std::vector<int64_t> shape = bn_shape(state.range(0));
  const int64_t c = shape.back();
  const tfcc::Tensor x = tfcc::random::normal(shape);
  const tfcc::Tensor gamma = tfcc::random::uniform({c}, 0.5, 1.5);
  const tfcc::Tensor beta = tfcc::random::normal({c});
  for (auto _ : state) {
    benchmark::DoNotOptimize(tfcc::nn::fused_batch_norm(x, gamma, beta).y);
  }
}
BENCHMARK(BM_BatchNormForward)
    ->ArgNames({"shape", "threads"})
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->UseRealTime()
    ->MinTime(0.3);

}  // namespace

BENCHMARK_MAIN();
