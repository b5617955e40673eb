// LibTorch peer of core_bench: C++ `a + b` on one-element tensors and on 16M floats, measured
// the same way (bytes: 3 x 64 MB per 16M add). Built only when LibTorch is found (see
// CMakeLists.txt); `make bench` installs it through scripts/install-bench-deps.sh.
//
// BM_TorchAdd16M is `a + b` as users write it: a fresh 64 MB output per call, which LibTorch's
// CPU allocator takes from glibc malloc, i.e. a new mmap whose pages fault in on every call.
// BM_TorchAddOut16M writes into a pre-allocated output (torch::add_out), the kernel alone.
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <cstdint>

namespace {

constexpr int64_t k16M = int64_t{1} << 24;
constexpr int64_t k64MB = k16M * 4;

void BM_TorchAdd1(benchmark::State& state) {
  torch::NoGradGuard no_grad;
  at::set_num_threads(2);
  torch::Tensor a = torch::ones({1});
  torch::Tensor b = torch::ones({1});
  for (auto _ : state) {
    torch::Tensor c = a + b;
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TorchAdd1);

void BM_TorchAdd16M(benchmark::State& state) {
  torch::NoGradGuard no_grad;
  at::set_num_threads(static_cast<int>(state.range(0)));
  torch::Tensor a = torch::rand({k16M});
  torch::Tensor b = torch::rand({k16M});
  for (auto _ : state) {
    torch::Tensor c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * k64MB);
  state.counters["threads"] = static_cast<double>(at::get_num_threads());
}
BENCHMARK(BM_TorchAdd16M)->Arg(2)->Arg(1)->ArgName("threads")->UseRealTime();

void BM_TorchAddOut16M(benchmark::State& state) {
  torch::NoGradGuard no_grad;
  at::set_num_threads(static_cast<int>(state.range(0)));
  torch::Tensor a = torch::rand({k16M});
  torch::Tensor b = torch::rand({k16M});
  torch::Tensor c = torch::zeros({k16M});
  for (auto _ : state) {
    torch::add_out(c, a, b);
    benchmark::DoNotOptimize(c.data_ptr());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 3 * k64MB);
  state.counters["threads"] = static_cast<double>(at::get_num_threads());
}
BENCHMARK(BM_TorchAddOut16M)->Arg(2)->Arg(1)->ArgName("threads")->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
