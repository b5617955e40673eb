// The intra-op thread setting: a process-wide value with a generation counter; each thread
// compares the generation it last applied with the current one before running a kernel, and
// calls omp_set_num_threads when they differ (OpenMP's thread count is a per-thread setting, read
// by oneDNN and by kernels::parallel_for). The generation starts at 1 so every thread applies the
// default at its first op: OpenMP's own default ignores the cgroup CPU quota.
#include "tfcc/ops/config.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

#include "tfcc/platform/cpu_count.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/parallel.h"

namespace tfcc::config::threading {
namespace {

std::atomic<int> g_setting{0};
std::atomic<int> g_generation{1};

thread_local int t_generation = 0;

// A positive integer at the start of the variable (OMP_NUM_THREADS may be a list: "2,1").
int env_threads(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return end != v && n > 0 ? static_cast<int>(std::min<long>(n, 4096)) : 0;
}

int compute_default() {
  if (int n = env_threads("TFCC_NUM_THREADS")) return n;
  if (int n = env_threads("OMP_NUM_THREADS")) return n;
  return available_cpus();
}

// What 0 resolves to (read once per process).
int default_threads() {
  static const int n = compute_default();
  return n;
}

}  // namespace

void set_intra_op_parallelism_threads(int num_threads) {
  if (num_threads < 0) {
    throw InvalidArgumentError(internal::str_cat(
        "intra_op_parallelism_threads must be >= 0 (0 lets the system pick), got ", num_threads));
  }
  g_setting.store(num_threads, std::memory_order_relaxed);
  g_generation.fetch_add(1, std::memory_order_release);
  sync_calling_thread();
}

int get_intra_op_parallelism_threads() { return g_setting.load(std::memory_order_relaxed); }

int effective_intra_op_parallelism_threads() {
  const int n = g_setting.load(std::memory_order_relaxed);
  return n > 0 ? n : default_threads();
}

void sync_calling_thread() {
  const int gen = g_generation.load(std::memory_order_acquire);
  if (gen == t_generation) return;
  t_generation = gen;
  const int n = effective_intra_op_parallelism_threads();
  const int cap = parallel::calling_thread_cap();
  omp_set_num_threads(cap > 0 ? std::min(n, cap) : n);
}

}  // namespace tfcc::config::threading
