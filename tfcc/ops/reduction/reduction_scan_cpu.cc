// CPU kernels of ArgMax, ArgMin, Cumsum and Cumprod: ops along one axis.
//
// The input is viewed as [outer, n, inner] around the axis. The work is a set of outer * inner
// independent lanes of n elements; threads take contiguous ranges of lanes, and each range is
// walked as segments of one outer row, so the innermost loop runs over contiguous `inner`
// elements (vectorisable) and inner == 1 degenerates to a plain scan of a row.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/reduction/reduction_internal.h"

namespace tfcc {
namespace {

struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};

AxisView view_around(const Shape& s, int64_t axis) {
  AxisView v;
  for (int i = 0; i < s.rank(); ++i) {
    if (i < axis) v.outer *= s.dim(i);
    if (i == axis) v.n = s.dim(i);
    if (i > axis) v.inner *= s.dim(i);
  }
  return v;
}

/// Calls fn(p, k0, k1) for every segment (outer row p, inner range [k0, k1)) of the lanes,
/// spreading lanes over threads when the total work is large.
template <typename F>
void for_segments(const AxisView& v, F fn) {
  const int64_t lanes = v.outer * v.inner;
  if (lanes == 0) return;
  auto run = [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo / v.inner; p * v.inner < hi; ++p) {
      fn(p, std::max(lo, p * v.inner) - p * v.inner, std::min(hi, (p + 1) * v.inner) - p * v.inner);
    }
  };
  // Each lane is scanned whole by one thread, so the split does not change results.
  kernels::parallel_for_cost(lanes, static_cast<double>(v.n) * kernels::cost::kElementwise, run);
}

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  return false;
}

/// ArgMax/ArgMin of a contiguous row: a vectorised pass for the extreme value, then a scan for
/// its first occurrence. NaN is never picked (its comparisons are false); an all-NaN row gives 0.
template <typename T, bool kMax>
int64_t arg_contiguous(const T* p, int64_t n) {
  constexpr int kLanes = 32;
  // Start from the value every element beats or ties, so a NaN never enters a lane.
  T start;
  if constexpr (std::is_floating_point_v<T>) {
    start = kMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  } else {
    start = kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  T lanes[kLanes];
  for (T& l : lanes) l = start;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) {
      T v = p[i + j];
      lanes[j] = (kMax ? v > lanes[j] : v < lanes[j]) ? v : lanes[j];
    }
  }
  for (; i < n; ++i) lanes[0] = (kMax ? p[i] > lanes[0] : p[i] < lanes[0]) ? p[i] : lanes[0];
  T best = lanes[0];
  for (int j = 1; j < kLanes; ++j)
    best = (kMax ? lanes[j] > best : lanes[j] < best) ? lanes[j] : best;
  for (i = 0; i < n && !(p[i] == best); ++i) {
  }
  return i < n ? i : 0;  // every element NaN
}

// ArgMax / ArgMin: the first index of the extreme value, skipping NaN (as TensorFlow; an all-NaN
// lane gives 0).
template <typename T, typename Out, bool kMax>
void arg_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const int64_t axis = scan_axis(ctx.op(), ctx.attr<int64_t>("axis"), in.rank());
  const AxisView v = view_around(in.shape(), axis);
  Tensor& out = ctx.allocate_output(0);
  const T* px = in.data<T>();
  Out* po = out.mutable_data<Out>();
  auto better = [](T cand, T best) {
    if (is_nan(cand)) return false;
    if (is_nan(best)) return true;
    return kMax ? cand > best : cand < best;
  };
  for_segments(v, [&](int64_t p, int64_t k0, int64_t k1) {
    const T* base = px + p * v.n * v.inner;
    if (v.inner == 1) {
      po[p] = static_cast<Out>(arg_contiguous<T, kMax>(base, v.n));
      return;
    }
    std::vector<T> best(base + k0, base + k1);
    Out* idx = po + p * v.inner;
    for (int64_t k = k0; k < k1; ++k) idx[k] = 0;
    for (int64_t i = 1; i < v.n; ++i) {
      const T* row = base + i * v.inner;
      for (int64_t k = k0; k < k1; ++k) {
        if (better(row[k], best[k - k0])) best[k - k0] = row[k], idx[k] = static_cast<Out>(i);
      }
    }
  });
}

// Cumsum / Cumprod, accumulating in float64 for floats and wrapping unsigned for integers.
template <typename T, bool kProd>
void scan_kernel(KernelContext& ctx) {
  using Acc = WideT<T>;
  const Tensor& in = ctx.input(0);
  const int64_t axis = scan_axis(ctx.op(), ctx.attr<int64_t>("axis"), in.rank());
  const bool exclusive = ctx.attr<bool>("exclusive"), reverse = ctx.attr<bool>("reverse");
  const AxisView v = view_around(in.shape(), axis);
  Tensor& out = ctx.allocate_output(0);
  const T* px = in.data<T>();
  T* po = out.mutable_data<T>();
  for_segments(v, [&](int64_t p, int64_t k0, int64_t k1) {
    if (v.inner == 1) {  // one contiguous row: a plain scalar scan
      const T* src = px + p * v.n;
      T* dst = po + p * v.n;
      Acc a = Acc(kProd ? 1 : 0);
      for (int64_t step = 0; step < v.n; ++step) {
        const int64_t i = reverse ? v.n - 1 - step : step;
        const Acc before = a;
        a = kProd ? static_cast<Acc>(a * static_cast<Acc>(src[i]))
                  : static_cast<Acc>(a + static_cast<Acc>(src[i]));
        dst[i] = static_cast<T>(exclusive ? before : a);
      }
      return;
    }
    std::vector<Acc> acc(static_cast<size_t>(k1 - k0), Acc(kProd ? 1 : 0));
    Acc* a = acc.data();
    const int64_t n = k1 - k0;
    for (int64_t step = 0; step < v.n; ++step) {
      const int64_t i = reverse ? v.n - 1 - step : step;
      const int64_t off = (p * v.n + i) * v.inner + k0;
      const T* src = px + off;
      T* dst = po + off;
      for (int64_t j = 0; j < n; ++j) {
        const Acc before = a[j];
        a[j] = kProd ? static_cast<Acc>(a[j] * static_cast<Acc>(src[j]))
                     : static_cast<Acc>(a[j] + static_cast<Acc>(src[j]));
        dst[j] = static_cast<T>(exclusive ? before : a[j]);
      }
    }
  });
}

}  // namespace

KernelFn scan_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      if (op == "ArgMax" || op == "ArgMin") {
        return [](KernelContext& c) {
          const bool is_max = c.op().name() == "ArgMax";
          if (c.attr<DType>("output_type") == int32) {
            (is_max ? arg_kernel<T, int32_t, true> : arg_kernel<T, int32_t, false>)(c);
          } else {
            (is_max ? arg_kernel<T, int64_t, true> : arg_kernel<T, int64_t, false>)(c);
          }
        };
      }
      if (op == "Cumsum") return scan_kernel<T, false>;
      if (op == "Cumprod") return scan_kernel<T, true>;
      return nullptr;
    }
  });
}

}  // namespace tfcc
