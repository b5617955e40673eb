// The input pipeline's throughput: the seed's Fashion-MNIST pipeline (map scale to float / 255,
// shuffle 10000, batch 64, prefetch), parallel map scaling with threads, and the seed CNN's
// training step on batches of 64 as the consumer to compare against, all in one run.
//
//   build/release/benchmarks/data_bench --benchmark_counters_tabular=true
//
// samples/s is the figure to compare: the pipeline must deliver well above what a training step
// consumes (issue 8 asks for 10x the seed CNN's step). Needs dataset-fashion-mnist for the
// pipeline rows (skipped with a message otherwise).
#include <benchmark/benchmark.h>

#include <cmath>
#include <thread>

#include "benchmarks/mlp_model.h"
#include "tfcc/tfcc.h"

namespace {

namespace tf = tfcc;
using tfcc::data::Dataset;

const Dataset* fashion_train() {
  static const Dataset* train = []() -> const Dataset* {
    try {
      return new Dataset(tf::datasets::load("fashion_mnist").train);
    } catch (const tf::Error&) {
      return nullptr;
    }
  }();
  return train;
}

int64_t parallel_arg(int64_t arg) { return arg < 0 ? tf::data::AUTOTUNE : arg; }

// One epoch of the seed's pipeline per iteration.
void BM_SeedPipeline(benchmark::State& state) {
  const Dataset* train = fashion_train();
  if (!train) {
    state.SkipWithError("dataset-fashion-mnist is not installed");
    return;
  }
  tfcc_bench::OmpThreads omp(1);
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    return std::tuple{tf::cast(image, tf::float32) / 255.0f, label};
  };
  Dataset pipeline = train->map(scale, {.num_parallel_calls = parallel_arg(state.range(0))})
                         .shuffle(10000, {.seed = 1})
                         .batch(64)
                         .prefetch(tf::data::AUTOTUNE);
  int64_t samples = 0;
  for (auto _ : state) {
    for (const tf::data::Element& batch : pipeline) {
      samples += batch[0].shape().dim(0);
      benchmark::DoNotOptimize(batch[0].raw_data());
    }
  }
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SeedPipeline)
    ->ArgName("map_calls")
    ->Arg(0)
    ->Arg(2)
    ->Arg(-1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// A map heavy enough to be the bottleneck (an augmentation-like chain of element-wise ops on a
// 28x28 image), at 1, 2 and 4 parallel calls: throughput should grow with the cores.
void BM_ParallelMapScaling(benchmark::State& state) {
  tfcc_bench::OmpThreads omp(1);
  tf::Tensor image = tf::Tensor::from_vector<float>(std::vector<float>(784, 0.5f), {28, 28});
  auto heavy = [](tf::Tensor x) {
    for (int i = 0; i < 16; ++i) x = tf::tanh(x * 1.01f + 0.01f);
    return x;
  };
  Dataset pipeline = Dataset::from_tensors({image})
                         .repeat(4000)
                         .map(heavy, {.num_parallel_calls = state.range(0)})
                         .batch(64);
  int64_t samples = 0;
  for (auto _ : state) {
    for (const tf::data::Element& batch : pipeline) samples += batch[0].shape().dim(0);
  }
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
  state.counters["cores"] = std::thread::hardware_concurrency();
}
BENCHMARK(BM_ParallelMapScaling)
    ->ArgName("map_calls")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// The consumer: the seed CNN's training step written with ops (Conv2D 32 3x3 ReLU, 2x2 max pool,
// flatten, dropout 0.1, Dense 64 ReLU, batch normalisation, Dense 10, sparse softmax
// cross-entropy + L2 0.02 on the conv kernel; a plain SGD update) on batches of 64, all cores.
// Max pooling is a reshape + reduce_max (26 = 2 x 13), as tfcc has no MaxPool op yet.
struct SeedCnn {
  std::vector<tf::Variable> params;
  SeedCnn() {
    tf::random::set_seed(2);
    auto glorot = [](std::vector<int64_t> shape, double fan_in, double fan_out) {
      double limit = std::sqrt(6.0 / (fan_in + fan_out));
      return tf::random::uniform(shape, -limit, limit);
    };
    params = {tf::Variable(glorot({3, 3, 1, 32}, 9, 9 * 32)),
              tf::Variable(tf::zeros({32})),
              tf::Variable(glorot({13 * 13 * 32, 64}, 13 * 13 * 32, 64)),
              tf::Variable(tf::zeros({64})),
              tf::Variable(tf::ones({64})),
              tf::Variable(tf::zeros({64})),
              tf::Variable(glorot({64, 10}, 64, 10)),
              tf::Variable(tf::zeros({10}))};
  }
  tf::Tensor step(const tf::Tensor& images, const tf::Tensor& labels) {
    const auto& p = params;
    tf::GradientTape tape;
    int64_t n = images.shape().dim(0);
    tf::Tensor x = tf::reshape(images, {n, 28, 28, 1});
    x = tf::relu(tf::nn::bias_add(tf::conv2d(x, p[0], {1}, "VALID"), p[1]));
    x = tf::reduce_max(tf::reshape(x, {n, 13, 2, 13, 2, 32}), {2, 4});
    x = tf::nn::dropout(tf::reshape(x, {n, 13 * 13 * 32}), 0.1);
    x = tf::relu(tf::matmul(x, p[2]) + p[3]);
    tf::nn::Moments m = tf::nn::moments(x, {0});
    x = tf::nn::batch_normalization(x, m.mean, m.variance, p[5], p[4], 1e-3);
    tf::Tensor logits = tf::matmul(x, p[6]) + p[7];
    tf::Tensor loss =
        tf::reduce_mean(tf::nn::sparse_softmax_cross_entropy_with_logits(labels, logits)) +
        0.02f * tf::reduce_sum(tf::square(p[0]));
    std::vector<tf::Tensor> grads = tape.gradient(loss, params);
    for (size_t i = 0; i < params.size(); ++i) params[i].assign_sub(grads[i] * 0.001f);
    return loss;
  }
};

void BM_SeedCnnStepConsumer(benchmark::State& state) {
  tfcc_bench::OmpThreads omp(static_cast<int>(std::thread::hardware_concurrency()));
  SeedCnn cnn;
  tf::Tensor images = tf::random::uniform({64, 28, 28}, 0, 1);
  std::vector<int64_t> l(64);
  for (int i = 0; i < 64; ++i) l[static_cast<size_t>(i)] = i % 10;
  tf::Tensor labels = tf::Tensor::from_vector<int64_t>(l);
  for (int i = 0; i < 3; ++i) cnn.step(images, labels);
  for (auto _ : state) benchmark::DoNotOptimize(cnn.step(images, labels));
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * 64), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SeedCnnStepConsumer)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
