// Which runtime runs parallel loops and oneDNN primitives (docs/threading.md): tfcc's own pool
// by default, OpenMP regions with TFCC_PARALLEL_RUNTIME=openmp. Read once per process.
//
//   if (tfcc::parallel::runtime() == tfcc::parallel::Runtime::kPool) { /* oneDNN on one thread */ }
#pragma once

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

/// The runtime of this process (TFCC_PARALLEL_RUNTIME: "openmp", else the pool).
Runtime runtime();

}  // namespace tfcc::parallel
