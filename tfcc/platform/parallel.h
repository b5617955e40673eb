// Intra-op parallelism for tfcc's kernels (ARCHITECTURE.md, decision 13): a loop over [0, n)
// runs on the calling thread unless its estimated work pays for waking other threads; when it
// does, it is cut into more chunks than threads (4 per thread) and the threads claim chunks
// from one atomic counter, so a thread that starts late (descheduled on a busy machine) leaves
// its share to the others instead of owning a fixed slice.
//
// Two runtimes run the chunks, chosen per region (parallel_runtime.h): tfcc's own pool, where
// the caller waits only for chunks already running and idle workers spin 30 us, then block, and
// oneDNN runs one OpenMP thread per slice (tfcc/ops/onednn_split.h) so libgomp starts no thread;
// or one OpenMP region per loop, each large oneDNN primitive a region of its own. The pool once
// this process's threads wait for CPUs, OpenMP regions otherwise (docs/threading.md).
//
//   tfcc::parallel::parallel_for(n, /*cost_per_item_ns=*/0.5, /*max_threads=*/2,
//                                [&](int64_t lo, int64_t hi) { for (...) y[i] = x[i] + 1; });
//
// Chunk boundaries depend only on n, the cost and max_threads, never on which thread ran what,
// so a kernel whose chunks write disjoint outputs gives the same bits on every schedule.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfcc::parallel {

/// The least estimated work (ns) worth one more thread: waking a blocked worker costs 5-20 us
/// on these machines. A loop with less than twice this stays on the calling thread.
inline constexpr double kMinParallelWorkNs = 20000.0;

/// Chunks per participating thread: a late thread leaves at most a few small chunks to others.
inline constexpr int64_t kChunksPerThread = 4;

/// The number of threads a loop of n items costing cost_per_item_ns each would use, at most
/// max_threads: 1 when the whole loop is below 2 * kMinParallelWorkNs.
int threads_for(int64_t n, double cost_per_item_ns, int max_threads);

/// A non-owning reference to a callable taking (begin, end), so the pool needs no allocation.
class RangeFn {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeFn>>>
  RangeFn(F&& f)  // NOLINT(google-explicit-constructor): built at each call site
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, int64_t b, int64_t e) { (*static_cast<std::decay_t<F>*>(o))(b, e); }) {}
  void operator()(int64_t begin, int64_t end) const { call_(obj_, begin, end); }

 private:
  void* obj_;
  void (*call_)(void*, int64_t, int64_t);
};

/// Runs fn(begin, end) over consecutive ranges covering [0, n), on up to max_threads threads
/// (the caller and pool workers) as threads_for() decides. Returns when every range ran. An
/// exception thrown by fn is rethrown here (the first one; other ranges may still have run).
/// `align` rounds inner chunk boundaries to multiples of it (vector-friendly starts).
void parallel_for(int64_t n, double cost_per_item_ns, int max_threads, RangeFn fn,
                  int64_t align = 16);

/// Number of parallel regions (loops that woke pool workers) started in this process: for tests
/// of the cost model. Serial loops do not count.
int64_t regions_started();

/// Caps the intra-op threads of ops run on the calling thread at max_threads (0: no cap),
/// whatever config::threading says: for threads that are one of several running ops at once
/// (tf.data's parallel map workers). Takes effect at the thread's next op.
void cap_calling_thread(int max_threads);

/// The calling thread's cap (0: none).
int calling_thread_cap();

/// Counts a parallel region started outside this pool (a oneDNN OpenMP region, openmp runtime).
void note_region();

}  // namespace tfcc::parallel
