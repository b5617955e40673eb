// Core benchmarks: eager dispatch overhead, elementwise add bandwidth next to a plain memory copy
// measured in the same run, and the caching allocator against mmap-per-allocation.
//
//   build/release/benchmarks/core_bench --benchmark_repetitions=7
//       --benchmark_report_aggregates_only=true
//
// Bytes are counted the same way for add and copy: add moves 3 x 64 MB per iteration (two reads,
// one write), copy moves 2 x 64 MB (one read, one write). Every buffer is touched before timing,
// so no iteration pays for fresh pages except the mmap allocator benchmark, whose point that is.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "benchmarks/mlp_model.h"
#include "tfcc/tfcc.h"

namespace {

using tfcc_bench::OmpThreads;

constexpr int64_t k16M = int64_t{1} << 24;               // elements
constexpr size_t k64MB = static_cast<size_t>(k16M) * 4;  // bytes of 16M floats
constexpr size_t kPage = 4096;

tfcc::Tensor filled(int64_t n, float v) {
  tfcc::Tensor t = tfcc::Tensor::empty(tfcc::float32, tfcc::Shape{n});
  float* p = t.mutable_data<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = v + static_cast<float>(i % 7);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Eager dispatch: the whole cost of tfcc::add on one-element tensors (operand resolution, attr
// completion, shape function, kernel lookup, output allocation, kernel, result handle).
void BM_EagerAdd1(benchmark::State& state) {
  tfcc::Tensor a = tfcc::Tensor::from_vector<float>({1.f});
  tfcc::Tensor b = tfcc::Tensor::from_vector<float>({2.f});
  for (auto _ : state) {
    tfcc::Tensor c = tfcc::add(a, b);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EagerAdd1);

// ---------------------------------------------------------------------------------------------
// Elementwise add on 16M floats. The output comes from the allocator's cache after the first
// iteration, so its pages are already mapped, as they are for the copy's destination.
void BM_Add16M(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  OmpThreads scope(threads);
  tfcc::Tensor a = filled(k16M, 1.f);
  tfcc::Tensor b = filled(k16M, 2.f);
  { tfcc::Tensor warm = tfcc::add(a, b); }  // maps and touches the output block once
  for (auto _ : state) {
    tfcc::Tensor c = tfcc::add(a, b);
    benchmark::DoNotOptimize(c.raw_data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(3 * k64MB));
  state.counters["threads"] = threads;
}
BENCHMARK(BM_Add16M)->Arg(2)->Arg(1)->ArgName("threads")->UseRealTime();

// ---------------------------------------------------------------------------------------------
// The limit: a plain memcpy of 64 MB between two pre-touched buffers, split over the same
// OpenMP threads the kernels use (one contiguous part per thread, as parallel_for splits). The
// buffers come from tfcc's allocator, as the add's tensors do, so both run on the same kind of
// pages (transparent huge pages where the kernel grants them): only the access pattern differs.
void BM_Copy16M(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  tfcc::Tensor src_t = filled(k16M, 1.f);
  tfcc::Tensor dst_t = filled(k16M, 0.f);
  const char* src = static_cast<const char*>(src_t.raw_data());
  char* dst = static_cast<char*>(dst_t.mutable_raw_data());
  for (auto _ : state) {
#pragma omp parallel num_threads(threads)
    {
      const size_t t = static_cast<size_t>(omp_get_thread_num());
      const size_t nt = static_cast<size_t>(omp_get_num_threads());
      // Chunk boundaries on 64-byte lines, like parallel_for's 16-element alignment.
      const size_t lo = (k64MB * t / nt) & ~size_t{63};
      const size_t hi = t + 1 == nt ? k64MB : (k64MB * (t + 1) / nt) & ~size_t{63};
      std::memcpy(dst + lo, src + lo, hi - lo);
    }
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(2 * k64MB));
  state.counters["threads"] = threads;
}
BENCHMARK(BM_Copy16M)->Arg(2)->Arg(1)->ArgName("threads")->UseRealTime();

// ---------------------------------------------------------------------------------------------
// Allocation of a 4 MiB tensor, one byte written per page (the realistic case: a kernel writes
// the whole output), then freed. Cached: tfcc's allocator; Mmap: a fresh mapping each time.
void touch_pages(void* p, size_t bytes) {
  auto* c = static_cast<volatile char*>(p);
  for (size_t off = 0; off < bytes; off += kPage) c[off] = 1;
}

void BM_Alloc4MiB_Cached(benchmark::State& state) {
  const tfcc::Shape shape{int64_t{1} << 20};
  for (auto _ : state) {
    tfcc::Tensor t = tfcc::Tensor::empty(tfcc::float32, shape);
    touch_pages(t.mutable_raw_data(), t.nbytes());
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Alloc4MiB_Cached);

void BM_Alloc4MiB_Mmap(benchmark::State& state) {
  const tfcc::Shape shape{int64_t{1} << 20};
  const size_t bytes = size_t{4} << 20;
  for (auto _ : state) {
    tfcc::Tensor t = tfcc::Tensor::with_buffer(
        tfcc::float32, shape,
        std::make_shared<tfcc::Buffer>(tfcc::uncached_cpu_allocator(), bytes));
    touch_pages(t.mutable_raw_data(), t.nbytes());
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Alloc4MiB_Mmap);

}  // namespace

BENCHMARK_MAIN();
