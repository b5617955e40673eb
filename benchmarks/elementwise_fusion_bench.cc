// A chain of 10 element-wise ops over 16M floats (64 MiB per tensor), three ways in one run:
// eager (one kernel and one pass over memory per op), traced with every graph pass (the chain
// becomes one _FusedElementwise node: one pass), and traced with elementwise_fusion switched
// off (the same graph, op by op, as the executor runs it). Prints the median of the repeats and
// the ratios, and checks that the three results are bit for bit equal.
//
//   build/release/benchmarks/elementwise_fusion_bench [repeats=15] [elements=16777216]
//
// The chain: y = |-(min(((relu(x*0.5 + 0.25) * 1.5) - x)^2, 6) + x)|, scalars as constants.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "tfcc/tfcc.h"

namespace {

tfcc::Tensor chain(const tfcc::Tensor& x) {
  tfcc::Tensor y = x * 0.5f;   // 1
  y = y + 0.25f;               // 2
  y = tfcc::relu(y);           // 3
  y = y * 1.5f;                // 4
  y = y - x;                   // 5
  y = tfcc::square(y);         // 6
  y = tfcc::minimum(y, 6.0f);  // 7
  y = y + x;                   // 8
  y = tfcc::negative(y);       // 9
  return tfcc::abs(y);         // 10
}

double median_ms(const std::function<tfcc::Tensor()>& run, int repeats, tfcc::Tensor& out) {
  std::vector<double> ms;
  out = run();  // warm-up: buffers in the allocator's cache, code paths hot
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    out = run();
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

bool same(const tfcc::Tensor& a, const tfcc::Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 15;
  const int64_t n = argc > 2 ? std::atoll(argv[2]) : int64_t{1} << 24;
  tfcc::Tensor x = tfcc::random::uniform({n}, -4, 4, tfcc::float32, 1);

  auto traced = tfcc::function([](tfcc::Tensor t) { return chain(t); }, {.name = "chain"});
  auto unfused =
      tfcc::function([](tfcc::Tensor t) { return chain(t); },
                     {.name = "chain_unfused", .passes = {.disabled = {"elementwise_fusion"}}});
  tfcc::Tensor r_eager, r_traced, r_unfused;
  const double eager = median_ms([&] { return chain(x); }, repeats, r_eager);
  const double fused = median_ms([&] { return traced(x); }, repeats, r_traced);
  const double plain = median_ms([&] { return unfused(x); }, repeats, r_unfused);

  int fused_nodes = 0;
  for (const auto& node : traced.get_concrete_function(x).optimized_graph().nodes()) {
    fused_nodes += node.type_name() == "_FusedElementwise";
  }
  const double gib = static_cast<double>(n) * 4 * 2 / (1 << 30);  // one read + one write
  std::printf("10 element-wise ops over %lld float32 (%d threads), median of %d\n",
              static_cast<long long>(n), omp_get_max_threads(), repeats);
  std::printf("%-34s %10s %12s %10s\n", "variant", "ms", "GiB/s (1x)", "vs eager");
  std::printf("%-34s %10.2f %12.1f %9.2fx\n", "eager", eager, gib / (eager / 1e3), 1.0);
  std::printf("%-34s %10.2f %12.1f %9.2fx\n", "traced, all passes (fused)", fused,
              gib / (fused / 1e3), eager / fused);
  std::printf("%-34s %10.2f %12.1f %9.2fx\n", "traced, elementwise_fusion off", plain,
              gib / (plain / 1e3), eager / plain);
  std::printf("fused nodes in the traced graph: %d; results bitwise equal: %s\n", fused_nodes,
              same(r_eager, r_traced) && same(r_eager, r_unfused) ? "yes" : "NO");
  return same(r_eager, r_traced) && same(r_eager, r_unfused) ? 0 : 1;
}
