// Matmul against the machine's FMA peak (issue 4): float32 [n, n] x [n, n] products through
// tfcc::matmul at n = 256, 512, 1024, 2048, 4096 on 1 and 2 threads, next to the FMA peak measured
// in the same process (16 independent AVX-512 FMA chains per thread, as
// shared/research/machine.md). Not a Google Benchmark: each figure is the median over --reps timed
// repetitions.
//
// Fairness: every repetition of a product sits between two peak measurements on the same OpenMP
// team that last as long as the product (so all see the same clock state and the same share of
// interruptions: under `chrt -f 50` the kernel still gives other tasks about 50 ms a second);
// a repetition's ratio is its GFLOP/s over the mean of the two peaks around it, and the reported
// ratio is the median of the per-repetition ratios.
//
//   build/release/benchmarks/matmul_bench [--reps 7] [--json OUT]
//
// benchmarks/matmul_run.sh runs it next to PyTorch (matmul_peers.py) and prints the table.
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tfcc/tfcc.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// GFLOP/s of `threads` threads each running 16 independent FMA chains on 16-float registers.
#if defined(__AVX512F__)
double fma_peak_once(int threads, int64_t kIters = 20'000'000) {
  double total_flops = 0;
  auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : total_flops)
  {
    const float t = float(omp_get_thread_num());
    __m512 x0 = _mm512_set1_ps(t + 0), x1 = _mm512_set1_ps(t + 1), x2 = _mm512_set1_ps(t + 2),
           x3 = _mm512_set1_ps(t + 3), x4 = _mm512_set1_ps(t + 4), x5 = _mm512_set1_ps(t + 5),
           x6 = _mm512_set1_ps(t + 6), x7 = _mm512_set1_ps(t + 7), x8 = _mm512_set1_ps(t + 8),
           x9 = _mm512_set1_ps(t + 9), x10 = _mm512_set1_ps(t + 10), x11 = _mm512_set1_ps(t + 11),
           x12 = _mm512_set1_ps(t + 12), x13 = _mm512_set1_ps(t + 13), x14 = _mm512_set1_ps(t + 14),
           x15 = _mm512_set1_ps(t + 15);
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (int64_t i = 0; i < kIters; ++i) {
#define TFCC_FMA4(p, q, r, s)   \
  p = _mm512_fmadd_ps(p, a, b); \
  q = _mm512_fmadd_ps(q, a, b); \
  r = _mm512_fmadd_ps(r, a, b); \
  s = _mm512_fmadd_ps(s, a, b);
      TFCC_FMA4(x0, x1, x2, x3)
      TFCC_FMA4(x4, x5, x6, x7)
      TFCC_FMA4(x8, x9, x10, x11)
      TFCC_FMA4(x12, x13, x14, x15)
#undef TFCC_FMA4
      // Registers stay registers, and nothing is folded or hoisted across iterations.
      asm volatile(""
                   : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3), "+v"(x4), "+v"(x5), "+v"(x6),
                     "+v"(x7));
      asm volatile(""
                   : "+v"(x8), "+v"(x9), "+v"(x10), "+v"(x11), "+v"(x12), "+v"(x13), "+v"(x14),
                     "+v"(x15));
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x0, x1), _mm512_add_ps(x2, x3)),
                             _mm512_add_ps(_mm512_add_ps(x4, x5), _mm512_add_ps(x6, x7)));
    s = _mm512_add_ps(
        s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x8, x9), _mm512_add_ps(x10, x11)),
                         _mm512_add_ps(_mm512_add_ps(x12, x13), _mm512_add_ps(x14, x15))));
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, s);
    float sum = 0;
    for (float l : lanes) sum += l;
    volatile float sink = sum;  // keeps every lane of every chain alive
    (void)sink;
    total_flops += double(kIters) * 16 * 16 * 2;
  }
  return total_flops / seconds_since(t0) / 1e9;
}
#else
double fma_peak_once(int, int64_t = 0) { return 0; }  // the AVX-512 peak is not defined on this CPU
#endif

// Products per timed repetition: about 0.1-0.4 s each.
int product_reps(int64_t n) {
  if (n <= 256) return 1000;
  if (n <= 512) return 150;
  return n <= 1024 ? 20 : (n <= 2048 ? 4 : 1);
}

double matmul_once(const tfcc::Tensor& a, const tfcc::Tensor& b, int64_t n) {
  const int reps = product_reps(n);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    tfcc::Tensor c = tfcc::matmul(a, b);
    (void)c;
  }
  return 2.0 * double(n) * double(n) * double(n) * reps / seconds_since(t0) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  std::string json;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--json") == 0) json = argv[i + 1];
  }
  std::string out = "{\"framework\": \"tfcc\", \"results\": [";
  bool first = true;
  // Each record is a GFLOP/s figure, except ratio_N (matmul / peak, per repetition, median).
  auto record = [&](const std::string& what, int threads, double gflops) {
    if (what.rfind("ratio_", 0) == 0) {
      std::printf("%-18s %d thr: %7.3f of the peak before it\n", what.c_str(), threads, gflops);
    } else {
      std::printf("%-18s %d thr: %7.1f GFLOP/s\n", what.c_str(), threads, gflops);
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s{\"what\": \"%s\", \"threads\": %d, \"gflops\": %.4f}",
                  first ? "" : ", ", what.c_str(), threads, gflops);
    out += buf;
    first = false;
  };
  for (int threads : {1, 2}) {
    tfcc::config::threading::set_intra_op_parallelism_threads(threads);
    std::vector<double> peak;
    for (int r = 0; r < reps; ++r) peak.push_back(fma_peak_once(threads));
    record("fma_peak", threads, median(peak));
    for (int64_t n : {256, 512, 1024, 2048, 4096}) {
      tfcc::Tensor a = tfcc::random::uniform({n, n}), b = tfcc::random::uniform({n, n});
      matmul_once(a, b, n);  // warm-up: primitive cache, pages
      // Peak iterations lasting about as long as one timed product.
      const double flops = 2.0 * double(n) * double(n) * double(n) * product_reps(n);
      const double product_s = flops / (matmul_once(a, b, n) * 1e9);
      const double peak_flops_per_iter = 16.0 * 16 * 2 * threads;
      const double peak_gflops = std::max(1.0, fma_peak_once(threads));
      const int64_t iters = std::max<int64_t>(
          1'000'000, int64_t(product_s * peak_gflops * 1e9 / peak_flops_per_iter));
      // Peak bursts before and after every product: each product's ratio is taken against the
      // mean of the bursts on either side of it, so one burst that was interrupted (or ran alone
      // on a calm host) moves the ratio half as much.
      std::vector<double> g, pk, ratio;
      pk.push_back(fma_peak_once(threads, iters));
      for (int r = 0; r < reps; ++r) {
        g.push_back(matmul_once(a, b, n));
        pk.push_back(fma_peak_once(threads, iters));
        const double around = 0.5 * (pk[pk.size() - 2] + pk.back());
        ratio.push_back(around > 0 ? g.back() / around : 0);
      }
      record("matmul_" + std::to_string(n), threads, median(g));
      record("peak_before_" + std::to_string(n), threads, median(pk));
      record("ratio_" + std::to_string(n), threads, median(ratio));
    }
  }
  out += "]}\n";
  if (!json.empty()) std::ofstream(json) << out;
  return 0;
}
