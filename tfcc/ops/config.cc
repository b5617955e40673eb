// The intra-op thread setting: a process-wide value with a generation counter; each thread
// compares the generation it last applied with the current one before running a kernel, and
// calls omp_set_num_threads when they differ (OpenMP's thread count is a per-thread setting).
#include "tfcc/ops/config.h"

#include <omp.h>

#include <atomic>

#include "tfcc/platform/errors.h"

namespace tfcc::config::threading {
namespace {

std::atomic<int> g_setting{0};
std::atomic<int> g_generation{0};
// OpenMP's own default, read once before anything changed it.
const int g_default_threads = omp_get_max_threads();

thread_local int t_generation = 0;

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
  return n > 0 ? n : g_default_threads;
}

void sync_calling_thread() {
  const int gen = g_generation.load(std::memory_order_acquire);
  if (gen == t_generation) return;
  t_generation = gen;
  omp_set_num_threads(effective_intra_op_parallelism_threads());
}

}  // namespace tfcc::config::threading
