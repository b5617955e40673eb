// Which runtime runs parallel loops and oneDNN primitives (docs/threading.md): forced by
// TFCC_PARALLEL_RUNTIME=pool|openmp, otherwise chosen per region from measured contention (the
// run-queue wait of this process's threads): OpenMP regions while the process has its CPUs,
// tfcc's blocking pool with oneDNN split over it when its threads wait for CPUs.
//
//   if (tfcc::parallel::runtime() == tfcc::parallel::Runtime::kPool) { /* oneDNN on one thread */ }
#pragma once

#include <optional>

namespace tfcc::parallel {

/// The two runtimes.
enum class Runtime {
  /// Default: tfcc's blocking pool runs parallel_for's chunks, and oneDNN primitives run split
  /// into slices on it, each call on one OpenMP thread (tfcc/ops/onednn_split.h).
  kPool,
  /// TFCC_PARALLEL_RUNTIME=openmp: parallel_for's chunks in one OpenMP region, and each large
  /// oneDNN primitive as one OpenMP region of the intra-op thread count.
  kOpenMp,
};

/// The runtime for a region starting now: force_runtime's, else TFCC_PARALLEL_RUNTIME's, else
/// kPool while contended(), kOpenMp otherwise. Read it once per region.
Runtime runtime();

/// Fixes the runtime for the whole process (tests, benchmarks); std::nullopt returns to
/// TFCC_PARALLEL_RUNTIME or the automatic choice.
void force_runtime(std::optional<Runtime> runtime);

/// Whether this process's threads have recently waited for CPUs (sampled every 50 ms: the
/// run-queue wait in /proc/self/task/*/schedstat per wall-clock second, smoothed, with
/// hysteresis between 35% and 60% of one thread's time).
bool contended();

}  // namespace tfcc::parallel
