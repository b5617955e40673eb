// oneDNN on tfcc's pool (docs/threading.md, "oneDNN runs on the same pool"). Debian's oneDNN
// runs a primitive as one OpenMP region whose barrier waits for every thread of the team, so on
// a busy machine a descheduled thread stalls the rest. Under the pool runtime (chosen once this
// process's threads wait for CPUs, tfcc/platform/parallel_runtime.h) tfcc instead calls oneDNN
// with one OpenMP thread and splits the problem itself into slices (images of a batch, blocks of
// matmul rows, columns or depth) that tfcc's pool schedules dynamically; libgomp then starts no
// thread at all. Under the OpenMP runtime one call covers the whole problem, an OpenMP region of
// the intra-op threads (OneDnnThreads).
//
//   bool ok = kernels::onednn_split(batch, work_ns, /*align=*/1, [&](int64_t lo, int64_t hi) {
//     return run_primitive_on_images(lo, hi);   // builds/caches the primitive for hi - lo images
//   });
//   if (!ok) run_the_loop();
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/platform/parallel.h"
#include "tfcc/platform/parallel_runtime.h"

namespace tfcc::kernels {

/// Sets the calling thread's OpenMP thread count to 1 while alive: oneDNN calls made meanwhile
/// (and the primitives they build, keyed by that count) run on this thread alone.
class OneOmpThread {
 public:
  OneOmpThread() : saved_(omp_get_max_threads()) {
    if (saved_ != 1) omp_set_num_threads(1);
  }
  ~OneOmpThread() {
    if (saved_ != 1) omp_set_num_threads(saved_);
  }
  OneOmpThread(const OneOmpThread&) = delete;
  OneOmpThread& operator=(const OneOmpThread&) = delete;

 private:
  int saved_;
};

/// Runs a oneDNN problem made of `n` independent slices (the images of a batch, the rows or
/// columns of a matmul), `work_ns` of one-thread work in all. `fn(begin, end)` runs oneDNN on
/// slices [begin, end) (building the primitive for that many) and returns false when oneDNN
/// rejects the problem; onednn_split then returns false and the caller runs its own loop.
///
/// Under the pool runtime, every call runs on one OpenMP thread and the slices are
/// split by parallel::parallel_for across the intra-op threads: serial below the work threshold,
/// otherwise chunks claimed dynamically by tfcc's blocking pool, so oneDNN never starts an OpenMP
/// team and a descheduled thread stalls no barrier. Chunk boundaries are multiples of `align`.
/// Under the OpenMP runtime, fn(0, n) runs once as one OpenMP region (OneDnnThreads). The
/// runtime is read once per call (parallel::runtime()).
template <typename F>
bool onednn_split(int64_t n, double work_ns, int64_t align, F&& fn) {
  if (n <= 0) return true;
  if (work_ns < 2 * parallel::kMinParallelWorkNs ||
      parallel::runtime() == parallel::Runtime::kOpenMp) {
    OneDnnThreads threads(work_ns);
    return fn(int64_t{0}, n);
  }
  const int max_threads = intra_op_threads();
  OneOmpThread one;
  std::atomic<bool> ok{true};
  parallel::parallel_for(
      n, work_ns / static_cast<double>(n), max_threads,
      [&](int64_t lo, int64_t hi) {
        if (!fn(lo, hi)) ok.store(false, std::memory_order_relaxed);
      },
      align);
  return ok.load();
}

/// A oneDNN call that cannot be split (a reorder, a reduction over the whole input): under the
/// pool runtime it runs on the calling thread alone; under the OpenMP runtime as OneDnnThreads
/// decides from `work_ns`.
template <typename F>
auto onednn_whole(double work_ns, F&& fn) {
  if (parallel::runtime() == parallel::Runtime::kOpenMp) {
    OneDnnThreads threads(work_ns);
    return fn();
  }
  OneOmpThread one;
  return fn();
}

}  // namespace tfcc::kernels
