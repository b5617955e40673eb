// Call overhead of a traced tfcc::function next to the same ops run eagerly, for a chain of 1
// and of 100 small ops (element-wise adds on 16-element tensors, so per-op overhead dominates).
//
//   build/release/benchmarks/function_overhead_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//
// Eager: each op goes through dispatch (attribute completion, shape function, kernel). Traced:
// the cache lookup for the call, then the executor runs the graph's nodes with the same kernels
// (no attribute completion, shapes inferred from concrete inputs). Same work, same results.
#include <benchmark/benchmark.h>

#include "tfcc/tfcc.h"

namespace {

tfcc::Tensor chain(tfcc::Tensor x, int n) {
  tfcc::Tensor one = tfcc::constant(1.0f);
  for (int i = 0; i < n; ++i) x = tfcc::add(x, one);
  return x;
}

void BM_Eager(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  tfcc::Tensor x = tfcc::ones({16});
  for (auto _ : state) benchmark::DoNotOptimize(chain(x, n));
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_Traced(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  tfcc::Tensor x = tfcc::ones({16});
  auto f = tfcc::function([n](tfcc::Tensor t) { return chain(t, n); });
  f(x);  // trace once, outside the timing
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  state.SetItemsProcessed(state.iterations() * n);
}

// The concrete function alone: no cache-key work.
void BM_TracedConcrete(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  tfcc::Tensor x = tfcc::ones({16});
  auto f = tfcc::function([n](tfcc::Tensor t) { return chain(t, n); });
  tfcc::ConcreteFunction cf = f.get_concrete_function(x);
  for (auto _ : state) benchmark::DoNotOptimize(cf({x}));
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(BM_Eager)->Arg(1)->Arg(100);
BENCHMARK(BM_Traced)->Arg(1)->Arg(100);
BENCHMARK(BM_TracedConcrete)->Arg(1)->Arg(100);

}  // namespace

BENCHMARK_MAIN();
