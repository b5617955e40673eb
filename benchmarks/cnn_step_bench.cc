// The seed CNN's training step at batch 64 from raw ops (cnn_step_model.h), eager and traced
// with tfcc::function (issues 4 and 6): milliseconds per step and the step's peak memory from
// the allocator's counters. Not a Google Benchmark: it alternates eager and traced blocks of
// steps so load drifting on a shared machine falls on both, and reports medians of the blocks.
//
//   build/release/benchmarks/cnn_step_bench [--threads 2] [--steps 200] [--json OUT]
//
// Peak memory: the allocator's high-water mark over one step above the bytes in use before it
// (variables, the batch and the traced graph's constants are in use before and after). The
// traced run also reports how many of its kernels wrote their output in place.
// benchmarks/cnn_step_run.sh runs it in rounds next to PyTorch (cnn_step_peers.py).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "benchmarks/cnn_step_model.h"
#include "tfcc/graph/exec/plan.h"

namespace {

struct Args {
  int threads = 2;
  int64_t steps = 200;
  std::string json;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) {
      a.threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--steps") == 0) {
      a.steps = std::atoll(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--json") == 0) {
      a.json = argv[i + 1];
    } else {
      std::fprintf(stderr, "cnn_step_bench: unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  return a;
}

// Bytes above the starting level at the allocator's high-water mark while `fn` runs.
template <typename F>
int64_t step_peak(F&& fn) {
  tfcc::Allocator& a = tfcc::cpu_allocator();
  const int64_t base = a.stats().bytes_in_use;
  a.reset_peak();
  fn();
  return a.stats().peak_bytes_in_use - base;
}

template <typename F>
double ms_per_step(F&& fn, int64_t steps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < steps; ++i) fn();
  return 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
         static_cast<double>(steps);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  tfcc::config::threading::set_intra_op_parallelism_threads(args.threads);
  tfcc_bench::SeedCnn cnn;
  auto eager_step = [&] { return cnn.step(cnn.x, cnn.labels); };
  auto traced = tfcc::function([&](tfcc::Tensor x, tfcc::Tensor y) { return cnn.step(x, y); });
  auto traced_step = [&] { return traced(cnn.x, cnn.labels); };

  for (int i = 0; i < 5; ++i) {  // trace, primitive caches, allocator cache
    eager_step();
    traced_step();
  }
  tfcc::Tensor loss;
  const int64_t eager_peak = step_peak([&] { loss = eager_step(); });
  const int64_t traced_peak = step_peak([&] { loss = traced_step(); });

  // What the plan did in one traced step.
  tfcc::ConcreteFunction cf = traced.get_concrete_function(cnn.x, cnn.labels);
  tfcc::graph::ExecutionPlan plan(cf.optimized_graph());
  tfcc::graph::RunStats stats;
  tfcc::Tensor step_args[] = {cnn.x, cnn.labels};
  tfcc::graph::run_plan(plan, step_args, &stats);

  constexpr int kBlocks = 5;
  const int64_t per_block = std::max<int64_t>(1, args.steps / kBlocks);
  std::vector<double> eager_ms, traced_ms;
  for (int b = 0; b < kBlocks; ++b) {
    eager_ms.push_back(ms_per_step(eager_step, per_block));
    traced_ms.push_back(ms_per_step(traced_step, per_block));
  }
  const double e = median(eager_ms), t = median(traced_ms);
  std::printf(
      "tfcc seed CNN step, batch 64, %d threads: eager %.2f ms, traced %.2f ms (%.2fx); "
      "peak eager %.2f MiB, traced %.2f MiB (%.0f%%); traced kernels %lld, in place %lld; "
      "loss %.4f\n",
      args.threads, e, t, e / t, eager_peak / 1048576.0, traced_peak / 1048576.0,
      100.0 * static_cast<double>(traced_peak) / static_cast<double>(eager_peak),
      static_cast<long long>(stats.kernels), static_cast<long long>(stats.in_place_outputs),
      loss.item<double>());
  if (!args.json.empty()) {
    std::ofstream(args.json) << "{\"framework\": \"tfcc\", \"threads\": " << args.threads
                             << ", \"eager_ms\": " << e << ", \"traced_ms\": " << t
                             << ", \"eager_peak_bytes\": " << eager_peak
                             << ", \"traced_peak_bytes\": " << traced_peak
                             << ", \"traced_kernels\": " << stats.kernels
                             << ", \"in_place_outputs\": " << stats.in_place_outputs << "}\n";
  }
  return 0;
}
