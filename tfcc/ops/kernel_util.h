// Helpers shared by CPU kernels and shape functions: OpenMP loops, broadcasting, axis handling.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc::kernels {

/// Elements below which a loop stays on one thread (thread wake-up costs more than the work).
inline constexpr int64_t kParallelGrain = 1 << 15;

/// Runs fn(begin, end) over [0, n), split across OpenMP threads when n is large enough.
template <typename F>
void parallel_for(int64_t n, F&& fn, int64_t grain = kParallelGrain) {
  if (n <= grain || omp_get_max_threads() == 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  int64_t chunks = std::min<int64_t>(omp_get_max_threads(), (n + grain - 1) / grain);
#pragma omp parallel for num_threads(chunks) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t begin = n * c / chunks;
    int64_t end = n * (c + 1) / chunks;
    // Align chunk starts to 16 elements so vector loops stay aligned.
    if (c > 0) begin = std::min<int64_t>(n, (begin + 15) & ~int64_t{15});
    if (c + 1 < chunks) end = std::min<int64_t>(n, (end + 15) & ~int64_t{15});
    if (begin < end) fn(begin, end);
  }
}

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
