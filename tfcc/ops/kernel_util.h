// Helpers shared by CPU kernels and shape functions: parallel loops (the cost model), broadcasting,
// axis handling.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "tfcc/ops/isa_dispatch.h"
#include "tfcc/ops/op_def.h"
#include "tfcc/platform/parallel.h"

namespace tfcc::kernels {

/// Elements of a cheap element-wise loop (a few ns per element or less) worth one thread: the
/// old fixed grain, now the default cost model (kMinParallelWorkNs over this many elements).
inline constexpr int64_t kParallelGrain = 1 << 15;

/// Estimated cost (ns per item) of the main op families' inner loops, measured on the project's
/// machines (benchmarks/parallel_cost_bench.cc): parallel_for runs a loop on the calling thread
/// unless n * cost pays for waking another thread (parallel::kMinParallelWorkNs).
namespace cost {
/// Copies, casts, adds and compares on float32: memory bound.
inline constexpr double kElementwise = parallel::kMinParallelWorkNs / kParallelGrain;
/// exp, log, tanh, sigmoid, pow: a polynomial per element.
inline constexpr double kTranscendental = 4 * kElementwise;
}  // namespace cost

/// Runs fn(begin, end) over [0, n) on the calling thread or, when n * cost_per_item_ns pays for
/// it, split across the intra-op threads (the calling thread's OpenMP thread count, which
/// config::threading sets) by tfcc's pool (tfcc/platform/parallel.h). Chunks start at multiples
/// of 16 elements so vector loops stay aligned. Each chunk runs compiled for the CPU's widest
/// instruction set (isa_dispatch.h).
template <typename F>
void parallel_for_cost(int64_t n, double cost_per_item_ns, F&& fn) {
  if (n <= 0) return;
  const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  const cpu::Isa level = cpu::isa();
  parallel::parallel_for(n, cost_per_item_ns, max_threads,
                         [&](int64_t lo, int64_t hi) { isa_call(level, fn, lo, hi); });
}

/// parallel_for_cost with the cost given as a grain: `grain` items are worth one thread
/// (kParallelGrain: a cheap element-wise loop).
template <typename F>
void parallel_for(int64_t n, F&& fn, int64_t grain = kParallelGrain) {
  parallel_for_cost(n,
                    parallel::kMinParallelWorkNs / static_cast<double>(std::max<int64_t>(grain, 1)),
                    std::forward<F>(fn));
}

/// Runs fn(chunk) for chunk in [0, chunks) where each chunk is worth a thread of its own (the
/// caller sized them): kernels that combine per-chunk partial results in chunk order, so their
/// results do not depend on which thread ran which chunk.
template <typename F>
void parallel_chunks(int64_t chunks, F&& fn) {
  if (chunks <= 0) return;
  const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  const cpu::Isa level = cpu::isa();
  parallel::parallel_for(
      chunks, parallel::kMinParallelWorkNs, max_threads,
      [&](int64_t lo, int64_t hi) {
        for (int64_t c = lo; c < hi; ++c) isa_call(level, fn, c);
      },
      /*align=*/1);
}

/// The intra-op thread count of the calling thread (1 inside an OpenMP region).
inline int intra_op_threads() { return omp_in_parallel() ? 1 : omp_get_max_threads(); }

/// Under the OpenMP runtime (onednn_split.h), oneDNN runs a primitive as one OpenMP region: for
/// a small problem it costs more than the work, and on a busy machine its barrier
/// waits for a descheduled thread. While one of these is alive, oneDNN calls made on this thread
/// (primitive creation included: caches key primitives by the thread count) run on this thread
/// alone when `work_ns` is below 2 * parallel::kMinParallelWorkNs. Calls that do run parallel
/// are counted in parallel::regions_started().
class OneDnnThreads {
 public:
  explicit OneDnnThreads(double work_ns) : saved_(omp_get_max_threads()) {
    if (saved_ > 1 && work_ns < 2 * parallel::kMinParallelWorkNs) {
      omp_set_num_threads(1);
      serial_ = true;
    } else if (saved_ > 1 && !omp_in_parallel()) {
      parallel::note_region();
    }
  }
  ~OneDnnThreads() {
    if (serial_) omp_set_num_threads(saved_);
  }
  OneDnnThreads(const OneDnnThreads&) = delete;
  OneDnnThreads& operator=(const OneDnnThreads&) = delete;

 private:
  int saved_;
  bool serial_ = false;
};

/// Estimated ns of a float32 matmul-like oneDNN call of `flops` floating-point operations on one
/// thread (about 100 GFLOP/s at the small sizes where this decides anything).
inline double matmul_work_ns(double flops) { return flops * 0.01; }

/// The NumPy broadcast of two static shapes; fails through ctx on a mismatch.
PartialShape broadcast_shapes(const InferenceContext& ctx, const PartialShape& a,
                              const PartialShape& b);
/// The NumPy broadcast of two concrete shapes, or std::nullopt if they do not broadcast.
std::optional<Shape> try_broadcast(const Shape& a, const Shape& b);

/// Normalises a possibly negative axis against `rank`; fails through `op` when out of range.
int64_t normalize_axis(const OpDef& op, int64_t axis, int64_t rank);

/// Strides (in elements) of `in` laid against `out` under broadcasting: 0 where `in` repeats.
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

/// Calls fn(out_begin, count, offsets...) for runs of output elements in which every input
/// advances by a constant stride (0 or 1) given in `inner_strides`: the core of broadcasting
/// kernels. `ins` are the input shapes, `out` the broadcast output shape.
struct BroadcastPlan {
  std::vector<int64_t> out_dims;                 // collapsed output dims
  std::vector<std::vector<int64_t>> in_strides;  // per input, per collapsed dim
  BroadcastPlan(const std::vector<Shape>& ins, const Shape& out);
  int64_t inner() const { return out_dims.empty() ? 1 : out_dims.back(); }
  int64_t outer() const;
  /// Offsets of each input at the start of outer row `row`.
  void offsets(int64_t row, int64_t* offs) const;
};

}  // namespace tfcc::kernels
