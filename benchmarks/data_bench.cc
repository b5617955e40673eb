// The input pipeline's throughput: the seed's Fashion-MNIST pipeline (map scale to float / 255,
// shuffle 10000, batch 64, prefetch), parallel map scaling with threads, and a training step
// consuming the same samples (the benchmark MLP, batch 128) as the consumer to compare against.
//
//   build/release/benchmarks/data_bench --benchmark_counters_tabular=true
//
// samples/s is the figure to compare: the pipeline must deliver well above what a training step
// consumes (issue 8 asks for 10x the seed CNN's step). Needs dataset-fashion-mnist for the
// pipeline rows (skipped with a message otherwise).
#include <benchmark/benchmark.h>

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

// The consumer: samples/s a training step takes in (the benchmark MLP, 784-512-512-10, batch
// 128, all cores), until the seed CNN can be built from keras layers.
void BM_TrainingStepConsumer(benchmark::State& state) {
  tfcc_bench::OmpThreads omp(static_cast<int>(std::thread::hardware_concurrency()));
  tfcc_bench::Mlp mlp;
  for (int i = 0; i < 3; ++i) mlp.step();
  for (auto _ : state) benchmark::DoNotOptimize(mlp.step());
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * tfcc_bench::kBatch), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainingStepConsumer)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
