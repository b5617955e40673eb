// CPU kernels of the array family that move data without looking at it: reshape-like aliases,
// transpose, concat/split, slicing, reverse, pad, tile, broadcast. They work on element bytes
// (one instantiation per element size), copy contiguous runs with memcpy, and run in parallel
// over rows. Shapes and attributes were validated by the shape functions before a kernel runs.
#include <cstring>

#include "tfcc/ops/array/array_cpu_util.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace array_cpu {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * dims[d + 1];
  return s;
}

int64_t product(const std::vector<int64_t>& dims, size_t lo, size_t hi) {
  int64_t p = 1;
  for (size_t i = lo; i < hi; ++i) p *= dims[i];
  return p;
}

}  // namespace array_cpu

namespace {

using namespace array_cpu;  // NOLINT

// Output i shares the input's buffer (Reshape, ExpandDims, Squeeze, Identity, StopGradient).
void alias_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Shape s = ctx.spec(0).shape.to_shape();
  ctx.set_output(0, Tensor::with_buffer(x.dtype(), s, x.buffer()));
}

void transpose_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  const auto& perm = ctx.attr<std::vector<int64_t>>("perm");
  std::vector<int64_t> in_strides = row_major_strides(x.shape().dims());
  std::vector<int64_t> src(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) src[i] = in_strides[static_cast<size_t>(perm[i])];
  // The identity permutation (and rank <= 1) is a plain copy.
  strided_copy(x, 0, src, out);
}

void concat_kernel(KernelContext& ctx) {
  Tensor& out = ctx.allocate_output(0);
  if (out.num_elements() == 0) return;
  const auto& od = out.shape().dims();
  int64_t axis = ctx.attr<int64_t>("axis");
  if (axis < 0) axis += static_cast<int64_t>(od.size());
  int64_t outer = product(od, 0, static_cast<size_t>(axis));
  size_t esize = dtype_size(out.dtype());
  int64_t row = out.num_elements() / outer * static_cast<int64_t>(esize);
  std::vector<const char*> src;
  std::vector<int64_t> chunk;
  for (const Tensor& t : ctx.inputs()) {
    src.push_back(static_cast<const char*>(t.raw_data()));
    chunk.push_back(outer == 0 ? 0 : t.num_elements() / outer * static_cast<int64_t>(esize));
  }
  char* dst = static_cast<char*>(out.mutable_raw_data());
  kernels::parallel_for(
      outer,
      [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          char* p = dst + r * row;
          for (size_t k = 0; k < src.size(); ++k) {
            if (chunk[k] == 0) continue;
            std::memcpy(p, src[k] + r * chunk[k], static_cast<size_t>(chunk[k]));
            p += chunk[k];
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, row / 4)));
}

// Splits along `axis` into outputs whose sizes along the axis are taken from their specs.
void split_outputs(KernelContext& ctx, int64_t axis, bool drop_axis) {
  const Tensor& x = ctx.input(0);
  const auto& xd = x.shape().dims();
  int64_t outer = product(xd, 0, static_cast<size_t>(axis));
  int64_t inner = product(xd, static_cast<size_t>(axis) + 1, xd.size());
  size_t esize = dtype_size(x.dtype());
  int64_t row = xd[static_cast<size_t>(axis)] * inner * static_cast<int64_t>(esize);
  const char* src = static_cast<const char*>(x.raw_data());
  int64_t offset = 0;
  for (int k = 0; k < ctx.num_outputs(); ++k) {
    Tensor& out = ctx.allocate_output(k);
    int64_t len = drop_axis ? 1 : out.shape().dim(static_cast<int>(axis));
    int64_t chunk = len * inner * static_cast<int64_t>(esize);
    if (chunk > 0 && outer > 0) {
      char* dst = static_cast<char*>(out.mutable_raw_data());
      kernels::parallel_for(
          outer,
          [&](int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
              std::memcpy(dst + r * chunk, src + r * row + offset, static_cast<size_t>(chunk));
            }
          },
          std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, chunk / 4)));
    }
    offset += chunk;
  }
}

void split_kernel(KernelContext& ctx) {
  int64_t axis = ctx.attr<int64_t>("axis");
  if (axis < 0) axis += ctx.input(0).rank();
  split_outputs(ctx, axis, /*drop_axis=*/ctx.op().name() == "Unpack");
}

void slice_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  const auto& begin = ctx.attr<std::vector<int64_t>>("begin");
  std::vector<int64_t> is = row_major_strides(x.shape().dims());
  int64_t base = 0;
  for (size_t d = 0; d < is.size(); ++d) base += begin[d] * is[d];
  strided_copy(x, base, is, out);
}

// Where a strided slice of a row-major array of `dims` starts (element offset) and how far each
// of its dimensions steps (elements): shared by the slice and its gradient.
std::pair<int64_t, std::vector<int64_t>> sliced_layout(const StridedSliceSpec& spec,
                                                       const std::vector<int64_t>& dims) {
  std::vector<int64_t> is = row_major_strides(dims);
  int64_t base = 0;
  std::vector<int64_t> steps(is.size());
  for (size_t d = 0; d < is.size(); ++d) {
    base += spec.begin[d] * is[d];
    steps[d] = spec.strides[d] * is[d];
  }
  return {base, steps};
}

// StridedSlice: one strided read per input dimension.
void strided_slice_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  StridedSliceSpec spec = strided_slice_spec(ctx.op(), x.shape().dims(), ctx.attrs());
  Tensor& out = ctx.allocate_output(0);
  auto [base, src] = sliced_layout(spec, x.shape().dims());
  strided_copy(x, base, src, out, spec.dense_dims);
}

// StridedSliceGrad: zeros of the original shape with dy stored at the sliced positions.
void strided_slice_grad_kernel(KernelContext& ctx) {
  const Tensor& dy = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  if (out.nbytes() > 0) std::memset(out.mutable_raw_data(), 0, out.nbytes());
  StridedSliceSpec spec = strided_slice_spec(ctx.op(), out.shape().dims(), ctx.attrs());
  auto [base, dst] = sliced_layout(spec, out.shape().dims());
  strided_store(out, base, dst, dy, spec.dense_dims);
}

void reverse_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  const auto& xd = x.shape().dims();
  std::vector<int64_t> is = row_major_strides(xd);
  std::vector<bool> rev(xd.size(), false);
  for (int64_t a : ctx.attr<std::vector<int64_t>>("axis")) {
    rev[static_cast<size_t>(a < 0 ? a + x.rank() : a)] = true;
  }
  int64_t base = 0;
  std::vector<int64_t> src(xd.size());
  for (size_t d = 0; d < xd.size(); ++d) {
    if (rev[d] && xd[d] > 0) base += (xd[d] - 1) * is[d];
    src[d] = rev[d] ? -is[d] : is[d];
  }
  strided_copy(x, base, src, out);
}

void broadcast_to_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  strided_copy(x, 0, kernels::broadcast_strides(x.shape(), out.shape()), out);
}

void tile_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  if (out.num_elements() == 0) return;
  const auto& xd = x.shape().dims();
  const auto& od = out.shape().dims();
  size_t r = od.size();
  size_t esize = dtype_size(x.dtype());
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.mutable_raw_data());
  if (r == 0) {
    std::memcpy(dst, src, esize);
    return;
  }
  std::vector<int64_t> is = row_major_strides(xd);
  int64_t in_row = xd[r - 1] * static_cast<int64_t>(esize);
  int64_t out_row = od[r - 1] * static_cast<int64_t>(esize);
  int64_t rows = out.num_elements() / od[r - 1];
  kernels::parallel_for(
      rows,
      [&](int64_t lo, int64_t hi) {
        for (int64_t row = lo; row < hi; ++row) {
          int64_t rem = row, off = 0;
          for (size_t d = r - 1; d-- > 0;) {
            int64_t j = rem % od[d];
            rem /= od[d];
            off += (j % xd[d]) * is[d];
          }
          char* p = dst + row * out_row;
          for (int64_t k = 0; k < out_row; k += in_row) {
            std::memcpy(p + k, src + off * static_cast<int64_t>(esize),
                        static_cast<size_t>(in_row));
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, out_row / 4)));
}

template <typename T>
void pad_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  T value = convert_element<T>(ctx.attr<double>("constant_values"));
  T* po = out.mutable_data<T>();
  kernels::parallel_for(out.num_elements(),
                        [&](int64_t lo, int64_t hi) { std::fill(po + lo, po + hi, value); });
  std::vector<int64_t> pads = checked_paddings(ctx.op(), ctx.attrs(), x.rank());
  std::vector<int64_t> os = row_major_strides(out.shape().dims());
  int64_t base = 0;
  for (size_t d = 0; d < os.size(); ++d) base += pads[2 * d] * os[d];
  strided_store(out, base, os, x, x.shape().dims());
}

// Index into an input dimension of size n for padded position j (before: left padding).
inline int64_t mirror_index(int64_t j, int64_t before, int64_t n, bool reflect) {
  int64_t i = j - before;
  if (i < 0) return reflect ? -i : -i - 1;
  if (i >= n) return reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
  return i;
}

template <typename U>
void mirror_pad_typed(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  if (out.num_elements() == 0) return;
  bool reflect = ctx.attr<std::string>("mode") == "REFLECT";
  std::vector<int64_t> pads = checked_paddings(ctx.op(), ctx.attrs(), x.rank());
  const auto& xd = x.shape().dims();
  const auto& od = out.shape().dims();
  const U* src = static_cast<const U*>(x.raw_data());
  U* dst = static_cast<U*>(out.mutable_raw_data());
  size_t r = od.size();
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  std::vector<int64_t> is = row_major_strides(xd);
  int64_t width = od[r - 1], n = xd[r - 1], before = pads[2 * (r - 1)];
  kernels::parallel_for(
      out.num_elements() / width,
      [&](int64_t lo, int64_t hi) {
        for (int64_t row = lo; row < hi; ++row) {
          int64_t rem = row, off = 0;
          for (size_t d = r - 1; d-- > 0;) {
            int64_t j = rem % od[d];
            rem /= od[d];
            off += mirror_index(j, pads[2 * d], xd[d], reflect) * is[d];
          }
          U* p = dst + row * width;
          const U* s = src + off;
          for (int64_t j = 0; j < before; ++j) p[j] = s[mirror_index(j, before, n, reflect)];
          if (n > 0) std::memcpy(p + before, s, static_cast<size_t>(n) * sizeof(U));
          for (int64_t j = before + n; j < width; ++j)
            p[j] = s[mirror_index(j, before, n, reflect)];
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / width));
}

void mirror_pad_kernel(KernelContext& ctx) {
  visit_element_size(dtype_size(ctx.input(0).dtype()),
                     [&]<typename U>() { mirror_pad_typed<U>(ctx); });
}

// The adjoint of MirrorPad: every padded position adds into the input position it copies.
template <typename T>
void mirror_pad_grad_kernel(KernelContext& ctx) {
  const Tensor& dy = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  T* po = out.mutable_data<T>();
  std::fill(po, po + out.num_elements(), T(0));
  if (dy.num_elements() == 0) return;
  bool reflect = ctx.attr<std::string>("mode") == "REFLECT";
  std::vector<int64_t> pads = checked_paddings(ctx.op(), ctx.attrs(), out.rank());
  const auto& xd = out.shape().dims();
  const auto& od = dy.shape().dims();
  std::vector<int64_t> is = row_major_strides(xd);
  const T* pd = dy.data<T>();
  size_t r = od.size();
  for (int64_t e = 0; e < dy.num_elements(); ++e) {
    int64_t rem = e, off = 0;
    for (size_t d = r; d-- > 0;) {
      int64_t j = rem % od[d];
      rem /= od[d];
      off += mirror_index(j, pads[2 * d], xd[d], reflect) * is[d];
    }
    po[off] += pd[e];
  }
}

template <typename T>
void fill_dims(Tensor& out, const std::vector<int64_t>& dims) {
  T* p = out.mutable_data<T>();
  for (size_t i = 0; i < dims.size(); ++i) p[i] = static_cast<T>(dims[i]);
}

void shape_kernel(KernelContext& ctx) {
  const auto& dims = ctx.input(0).shape().dims();
  Tensor& out = ctx.allocate_output(0);
  if (out.dtype() == int32) {
    for (int64_t d : dims) {
      if (d > INT32_MAX) ctx.fail(internal::str_cat("Shape dimension ", d, " does not fit int32"));
    }
    fill_dims<int32_t>(out, dims);
  } else {
    fill_dims<int64_t>(out, dims);
  }
}

void size_kernel(KernelContext& ctx) {
  int64_t n = ctx.input(0).num_elements();
  Tensor& out = ctx.allocate_output(0);
  if (out.dtype() == int32) {
    if (n > INT32_MAX) ctx.fail(internal::str_cat("Number of elements ", n, " does not fit int32"));
    out.mutable_data<int32_t>()[0] = static_cast<int32_t>(n);
  } else {
    out.mutable_data<int64_t>()[0] = n;
  }
}

void rank_kernel(KernelContext& ctx) {
  ctx.allocate_output(0).mutable_data<int32_t>()[0] = ctx.input(0).rank();
}

template <template <typename> class K>
KernelFn typed(DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      return [](KernelContext& c) { K<T>::run(c); };
    }
  });
}

template <typename T>
struct PadK {
  static void run(KernelContext& c) { pad_kernel<T>(c); }
};
template <typename T>
struct MirrorPadGradK {
  static void run(KernelContext& c) { mirror_pad_grad_kernel<T>(c); }
};

}  // namespace

KernelFn array_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "Reshape" || op == "ExpandDims" || op == "Squeeze" || op == "Identity" ||
      op == "StopGradient") {
    return alias_kernel;
  }
  if (op == "Transpose") return transpose_kernel;
  if (op == "ConcatV2") return concat_kernel;
  if (op == "Split" || op == "SplitV" || op == "Unpack") return split_kernel;
  if (op == "Slice") return slice_kernel;
  if (op == "StridedSlice") return strided_slice_kernel;
  if (op == "StridedSliceGrad") return strided_slice_grad_kernel;
  if (op == "ReverseV2") return reverse_kernel;
  if (op == "BroadcastTo") return broadcast_to_kernel;
  if (op == "Tile") return tile_kernel;
  if (op == "MirrorPad") return mirror_pad_kernel;
  if (op == "Shape") return shape_kernel;
  if (op == "Size") return size_kernel;
  if (op == "Rank") return rank_kernel;
  if (op == "Pad") {
    if (dtype == bool_) return [](KernelContext& c) { pad_kernel<bool>(c); };
    if (dtype == bfloat16) return [](KernelContext& c) { pad_kernel<BFloat16>(c); };
    return typed<PadK>(dtype);
  }
  if (op == "MirrorPadGrad") return typed<MirrorPadGradK>(dtype);
  return gather_scatter_cpu_kernel(op, dtype);
}

}  // namespace tfcc
