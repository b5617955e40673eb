// The figures behind the intra-op cost model (tfcc/ops/kernel_util.h, tfcc/platform/parallel.h):
// ns per element of the main op families on one thread, and what a parallel region costs: the
// time of an almost empty loop run through the pool on 2 threads against 1 (the wake-up and
// hand-back price a loop must pay for). Not a Google Benchmark: prints medians of 15 repeats.
//
//   build/release/benchmarks/parallel_cost_bench
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "tfcc/platform/parallel.h"
#include "tfcc/tfcc.h"

namespace {

double median_ns(const std::function<void()>& fn, int reps = 15) {
  fn();
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ns.push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

}  // namespace

int main() {
  namespace th = tfcc::config::threading;
  th::set_intra_op_parallelism_threads(1);
  const int64_t n = int64_t{1} << 20;
  tfcc::Tensor x = tfcc::random::stateless_uniform({n}, {1, 2});
  std::printf("| op family (1 thread, %lld floats) | ns per element |\n| --- | --- |\n",
              static_cast<long long>(n));
  const std::pair<const char*, std::function<void()>> ops[] = {
      {"add", [&] { (void)(x + x); }},
      {"mul by scalar", [&] { (void)(x * 2.0f); }},
      {"cast to float64", [&] { (void)tfcc::cast(x, tfcc::float64); }},
      {"relu", [&] { (void)tfcc::relu(x); }},
      {"exp", [&] { (void)tfcc::exp(x); }},
      {"tanh", [&] { (void)tfcc::tanh(x); }},
      {"sigmoid", [&] { (void)tfcc::sigmoid(x); }},
      {"reduce_sum", [&] { (void)tfcc::reduce_sum(x); }},
  };
  for (const auto& [name, fn] : ops) {
    std::printf("| %s | %.3f |\n", name, median_ns(fn) / static_cast<double>(n));
  }
  // oneDNN's sgemm (what a 2-D MatMul calls) on 1 and 2 OpenMP threads, bypassing the cost
  // model, at the shapes of small recurrent and dense layers (batch 64).
  std::printf("\n| sgemm [64,k]x[k,3k] | MFLOP | 1 thread us | 2 threads us |\n");
  std::printf("| --- | --- | --- | --- |\n");
  for (int64_t k : {16, 32, 64, 96, 128, 192, 256, 384}) {
    std::vector<float> a(static_cast<size_t>(64 * k), 0.5f),
        b(static_cast<size_t>(k * 3 * k), 0.25f), c(static_cast<size_t>(64 * 3 * k));
    auto gemm = [&] {
      dnnl_sgemm('N', 'N', 64, 3 * k, k, 1.0f, a.data(), k, b.data(), 3 * k, 0.0f, c.data(), 3 * k);
    };
    omp_set_num_threads(1);
    const double one = median_ns(gemm, 51);
    omp_set_num_threads(2);
    const double two = median_ns(gemm, 51);
    std::printf("| k=%lld | %.2f | %.1f | %.1f |\n", static_cast<long long>(k),
                2.0 * 64 * static_cast<double>(k * 3 * k) / 1e6, one / 1e3, two / 1e3);
  }
  // The price of a region: a loop of 2 * 256 nearly free items, forced parallel (a huge cost per
  // item) against run inline.
  std::vector<float> v(512, 1.0f);
  auto body = [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) v[static_cast<size_t>(i)] += 1.0f;
  };
  const double inline_ns = median_ns([&] { body(0, 512); }, 101);
  const double region_ns = median_ns([&] { tfcc::parallel::parallel_for(512, 1e9, 2, body); }, 101);
  std::printf("\nparallel region on 2 threads (nearly empty loop): %.1f us; inline: %.2f us\n",
              region_ns / 1e3, inline_ns / 1e3);
  return 0;
}
