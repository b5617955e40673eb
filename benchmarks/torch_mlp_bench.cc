// LibTorch twin of mlp_step_bench: one eager training step of a 784-512-512-10 ReLU MLP on a
// batch of 128 (forward, torch::autograd::grad of the mean softmax cross-entropy, SGD update in
// place), ms per step at 1 and 2 intra-op threads. Built only when LibTorch is found (see
// CMakeLists.txt). LibTorch's matmuls go to the system BLAS (OpenBLAS through Debian's
// alternatives), so OPENBLAS_CORETYPE matters; benchmarks/run.sh runs it with the environment's
// value and with it unset.
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

constexpr int64_t kBatch = 128, kIn = 784, kHidden = 512, kClasses = 10;
constexpr double kLearningRate = 0.01;

torch::Tensor glorot(int64_t fan_in, int64_t fan_out) {
  const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
  return (torch::rand({fan_in, fan_out}) * 2 - 1) * limit;
}

void BM_TorchMlpStep(benchmark::State& state) {
  at::set_num_threads(static_cast<int>(state.range(0)));
  torch::manual_seed(1);
  std::vector<torch::Tensor> p = {glorot(kIn, kHidden),      torch::zeros({kHidden}),
                                  glorot(kHidden, kHidden),  torch::zeros({kHidden}),
                                  glorot(kHidden, kClasses), torch::zeros({kClasses})};
  for (auto& t : p) t.requires_grad_(true);
  torch::Tensor x = torch::rand({kBatch, kIn});
  torch::Tensor labels = torch::arange(kBatch) % kClasses;
  auto step = [&] {
    torch::Tensor h1 = torch::relu(x.matmul(p[0]) + p[1]);
    torch::Tensor h2 = torch::relu(h1.matmul(p[2]) + p[3]);
    torch::Tensor logits = h2.matmul(p[4]) + p[5];
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits, labels);
    std::vector<torch::Tensor> grads = torch::autograd::grad({loss}, p);
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < p.size(); ++i)
      p[i].add_(grads[i], -kLearningRate);  // torch::optim::SGD's update
    return loss;
  };
  for (int i = 0; i < 3; ++i) step();
  for (auto _ : state) {
    torch::Tensor loss = step();
    benchmark::DoNotOptimize(loss.data_ptr());
  }
  state.counters["threads"] = static_cast<double>(at::get_num_threads());
}
BENCHMARK(BM_TorchMlpStep)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
