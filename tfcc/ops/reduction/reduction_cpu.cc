// CPU kernels of Sum, Prod, Max, Min, All, Any over any set of axes.
//
// The input is viewed with size-1 dimensions dropped and adjacent dimensions of the same kind
// (kept / reduced) merged, so the innermost dimension is contiguous. Two loop shapes cover every
// case: an innermost reduced dimension is folded per output with a pairwise, multi-lane loop
// (accurate and vectorisable); an innermost kept dimension is accumulated row by row into a
// vector of outputs, in blocks of rows for accuracy. Work is split across threads over outputs
// or, when there are few outputs, over the largest reduced dimension (per-thread partials).
// Float32 sums and products accumulate in float64; integer ones in the unsigned type (wrapping).
#include <algorithm>
#include <limits>
#include <type_traits>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/reduction/reduction_internal.h"

namespace tfcc {
namespace {

template <typename T>
struct SumR {
  using Acc = WideT<T>;
  static Acc identity() { return Acc(0); }
  static Acc load(T v) { return static_cast<Acc>(v); }
  static Acc combine(Acc a, Acc b) { return static_cast<Acc>(a + b); }
};

template <typename T>
struct ProdR {
  using Acc = WideT<T>;
  static Acc identity() { return Acc(1); }
  static Acc load(T v) { return static_cast<Acc>(v); }
  static Acc combine(Acc a, Acc b) { return static_cast<Acc>(a * b); }
};

// Max and Min propagate NaN: once the accumulator is NaN it stays NaN.
template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  return false;
}

template <typename T>
struct MaxR {
  using Acc = T;
  static Acc identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::lowest();
  }
  static Acc load(T v) { return v; }
  static Acc combine(Acc a, Acc b) { return (a < b || is_nan(b)) ? b : a; }
};

template <typename T>
struct MinR {
  using Acc = T;
  static Acc identity() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::max();
  }
  static Acc load(T v) { return v; }
  static Acc combine(Acc a, Acc b) { return (b < a || is_nan(b)) ? b : a; }
};

struct AllR {
  using Acc = uint8_t;
  static Acc identity() { return 1; }
  static Acc load(bool v) { return v; }
  static Acc combine(Acc a, Acc b) { return a & b; }
};

struct AnyR {
  using Acc = uint8_t;
  static Acc identity() { return 0; }
  static Acc load(bool v) { return v; }
  static Acc combine(Acc a, Acc b) { return a | b; }
};

/// Folds p[0, n) contiguous: pairwise above kBase elements; below, kLanes independent
/// accumulators (enough vector registers to hide the combine latency), folded as a tree.
template <typename R, typename T>
typename R::Acc fold_contiguous(const T* p, int64_t n) {
  using Acc = typename R::Acc;
  constexpr int64_t kBase = 1024;
  constexpr int kLanes = std::min<int>(64, 256 / sizeof(Acc));
  if (n > kBase) {
    int64_t half = (n / 2) & ~int64_t{kLanes - 1};
    return R::combine(fold_contiguous<R>(p, half), fold_contiguous<R>(p + half, n - half));
  }
  Acc lanes[kLanes];
  for (Acc& l : lanes) l = R::identity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) lanes[j] = R::combine(lanes[j], R::load(p[i + j]));
  }
  for (int j = 0; i < n; ++i, ++j) lanes[j] = R::combine(lanes[j], R::load(p[i]));
  for (int w = kLanes / 2; w > 0; w /= 2) {
    for (int j = 0; j < w; ++j) lanes[j] = R::combine(lanes[j], lanes[j + w]);
  }
  return lanes[0];
}

/// Walks a multi-index over `dims`, tracking the element offset under `strides`.
struct Odometer {
  const std::vector<int64_t>& dims;
  const std::vector<int64_t>& strides;
  std::vector<int64_t> idx;
  int64_t offset = 0;
  Odometer(const std::vector<int64_t>& d, const std::vector<int64_t>& s, int64_t start)
      : dims(d), strides(s), idx(d.size(), 0) {
    for (int i = static_cast<int>(d.size()) - 1; i >= 0; --i) {
      idx[i] = start % d[i];
      start /= d[i];
      offset += idx[i] * s[i];
    }
  }
  void next() {
    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
      offset += strides[i];
      if (++idx[i] < dims[i]) return;
      offset -= dims[i] * strides[i];
      idx[i] = 0;
    }
  }
};

/// The collapsed view of the input: kept and reduced dimensions with their strides.
struct Layout {
  std::vector<int64_t> dims, strides;
  std::vector<bool> reduced;
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides;
  int64_t outputs = 1, reduce_count = 1;

  void finish() {
    kept_dims.clear(), kept_strides.clear(), red_dims.clear(), red_strides.clear();
    outputs = reduce_count = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      (reduced[i] ? red_dims : kept_dims).push_back(dims[i]);
      (reduced[i] ? red_strides : kept_strides).push_back(strides[i]);
      (reduced[i] ? reduce_count : outputs) *= dims[i];
    }
  }
  bool inner_reduced() const { return !reduced.empty() && reduced.back(); }
};

Layout collapse(const Shape& shape, const std::vector<bool>& mask) {
  Layout l;
  for (int i = 0; i < shape.rank(); ++i) {
    if (shape.dim(i) == 1) continue;
    if (!l.dims.empty() && l.reduced.back() == mask[i]) {
      l.dims.back() *= shape.dim(i);
    } else {
      l.dims.push_back(shape.dim(i));
      l.reduced.push_back(mask[i]);
    }
  }
  l.strides.assign(l.dims.size(), 1);
  for (int i = static_cast<int>(l.dims.size()) - 2; i >= 0; --i) {
    l.strides[i] = l.strides[i + 1] * l.dims[i + 1];
  }
  l.finish();
  return l;
}

/// Computes outputs [lo, hi) of the layout into out[lo, hi), reading from x.
template <typename R, typename T>
void reduce_range(const Layout& l, const T* x, int64_t lo, int64_t hi, typename R::Acc* out) {
  using Acc = typename R::Acc;
  if (lo >= hi) return;
  if (l.inner_reduced()) {
    const int64_t len = l.red_dims.back();
    const std::vector<int64_t> od(l.red_dims.begin(), l.red_dims.end() - 1);
    const std::vector<int64_t> os(l.red_strides.begin(), l.red_strides.end() - 1);
    const int64_t outer = l.reduce_count / len;
    Odometer o(l.kept_dims, l.kept_strides, lo);
    for (int64_t i = lo; i < hi; ++i, o.next()) {
      Acc acc = R::identity();
      Odometer m(od, os, 0);
      for (int64_t j = 0; j < outer; ++j, m.next()) {
        acc = R::combine(acc, fold_contiguous<R>(x + o.offset + m.offset, len));
      }
      out[i] = acc;
    }
    return;
  }
  // Innermost kept: segments of output rows, accumulated over every reduced position.
  constexpr int64_t kBlockRows = 256;
  const int64_t k = l.kept_dims.back();  // inner kept: kept_dims is not empty
  const std::vector<int64_t> rd(l.kept_dims.begin(), l.kept_dims.end() - 1);
  const std::vector<int64_t> rs(l.kept_strides.begin(), l.kept_strides.end() - 1);
  std::vector<Acc> block(static_cast<size_t>(std::min(k, hi - lo)));
  Odometer row(rd, rs, lo / k);
  for (int64_t p = lo / k; p * k < hi; ++p, row.next()) {
    const int64_t k0 = std::max(lo, p * k) - p * k, k1 = std::min(hi, (p + 1) * k) - p * k;
    const int64_t n = k1 - k0;
    Acc* total = out + p * k + k0;
    for (int64_t j = 0; j < n; ++j) total[j] = R::identity();
    Odometer m(l.red_dims, l.red_strides, 0);
    for (int64_t r0 = 0; r0 < l.reduce_count; r0 += kBlockRows) {
      for (int64_t j = 0; j < n; ++j) block[j] = R::identity();
      const int64_t r1 = std::min(l.reduce_count, r0 + kBlockRows);
      for (int64_t r = r0; r < r1; ++r, m.next()) {
        const T* src = x + row.offset + m.offset + k0;
        Acc* b = block.data();
        for (int64_t j = 0; j < n; ++j) b[j] = R::combine(b[j], R::load(src[j]));
      }
      for (int64_t j = 0; j < n; ++j) total[j] = R::combine(total[j], block[j]);
    }
  }
}

template <typename R, typename T, typename Out>
void reduce_kernel(KernelContext& ctx) {
  using Acc = typename R::Acc;
  const Tensor& in = ctx.input(0);
  const Shape out_shape = ctx.spec(0).shape.to_shape();
  const Layout l = collapse(in.shape(), reduced_dims(ctx.op(), ctx.attrs(), in.rank()));
  if (l.reduce_count == 1 && in.num_elements() > 0) {
    // Nothing to combine: the output has the input's elements.
    ctx.set_output(0, Tensor::with_buffer(in.dtype(), out_shape, in.buffer()));
    return;
  }
  Tensor& out = ctx.allocate_output(0);
  Out* po = out.mutable_data<Out>();
  const int64_t n_out = out.num_elements();
  if (n_out == 0) return;
  if (in.num_elements() == 0) {
    std::fill(po, po + n_out, static_cast<Out>(R::identity()));
    return;
  }
  const T* px = in.data<T>();
  const int64_t total = in.num_elements();
  const int threads = kernels::intra_op_threads();
  std::vector<Acc> acc(static_cast<size_t>(n_out));
  int64_t largest = -1;  // the reduced collapsed dim with most elements, to split across threads
  for (size_t i = 0; i < l.dims.size(); ++i) {
    if (l.reduced[i] && (largest < 0 || l.dims[i] > l.dims[largest])) largest = int64_t(i);
  }
  const int64_t want = std::min<int64_t>(threads, total / kernels::kParallelGrain);
  if (want <= 1) {
    reduce_range<R>(l, px, 0, n_out, acc.data());
  } else if (n_out >= 4 * threads || l.dims[largest] < 2) {
    // Each output is reduced whole by one thread, so the split does not change results.
    kernels::parallel_for_cost(
        n_out, static_cast<double>(total / n_out) * kernels::cost::kElementwise,
        [&](int64_t lo, int64_t hi) { reduce_range<R>(l, px, lo, hi, acc.data()); });
  } else {
    // Few outputs: each thread reduces a slice of the largest reduced dim into its own partials.
    const int64_t d = l.dims[largest];
    const int64_t chunks = std::min(want, d);
    std::vector<Acc> partial(static_cast<size_t>(chunks * n_out));
    kernels::parallel_chunks(chunks, [&](int64_t c) {
      Layout part = l;
      const int64_t b = d * c / chunks, e = d * (c + 1) / chunks;
      part.dims[largest] = e - b;
      part.finish();
      reduce_range<R>(part, px + b * l.strides[largest], 0, n_out, partial.data() + c * n_out);
    });
    for (int64_t i = 0; i < n_out; ++i) {
      Acc a = partial[i];
      for (int64_t c = 1; c < chunks; ++c) a = R::combine(a, partial[c * n_out + i]);
      acc[i] = a;
    }
  }
  kernels::parallel_for(n_out, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) po[i] = static_cast<Out>(acc[i]);
  });
}

}  // namespace

KernelFn reduce_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "All") return reduce_kernel<AllR, bool, bool>;
  if (op == "Any") return reduce_kernel<AnyR, bool, bool>;
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      if (op == "Sum") return reduce_kernel<SumR<T>, T, T>;
      if (op == "Prod") return reduce_kernel<ProdR<T>, T, T>;
      if (op == "Max") return reduce_kernel<MaxR<T>, T, T>;
      if (op == "Min") return reduce_kernel<MinR<T>, T, T>;
      return nullptr;
    }
  });
}

}  // namespace tfcc
