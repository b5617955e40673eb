// CPU kernels of BiasAdd and BiasAddGrad. Data is seen as [outer, C, inner]: inner is 1 for
// channels-last, H*W*... for NCHW. Channels-last rows vectorise over C.
#include <cstring>
#include <type_traits>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/nn/nn_internal.h"

namespace tfcc {
namespace {

struct Layout {
  int64_t outer = 1, channels = 1, inner = 1;
};

Layout layout_of(const Shape& s, const std::string& format) {
  const auto& d = s.dims();
  const int64_t rank = static_cast<int64_t>(d.size());
  const int64_t axis = format == "NCHW" && rank >= 3 ? 1 : rank - 1;
  Layout l;
  for (int64_t i = 0; i < axis; ++i) l.outer *= d[static_cast<size_t>(i)];
  l.channels = d[static_cast<size_t>(axis)];
  for (int64_t i = axis + 1; i < rank; ++i) l.inner *= d[static_cast<size_t>(i)];
  return l;
}

// a + b, wrapping for integers (no signed-overflow UB).
template <typename T>
inline T add_wrap(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <typename T>
void bias_add_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Layout l = layout_of(x.shape(), ctx.attr<std::string>("data_format"));
  Tensor& out = ctx.allocate_output(0, x.shape());
  if (x.num_elements() == 0) return;
  const T* px = x.data<T>();
  const T* pb = ctx.input(1).data<T>();
  T* po = out.mutable_data<T>();
  const int64_t c = l.channels, inner = l.inner;
  // One "row" is one [C, inner] block of the outer index.
  kernels::parallel_for(
      l.outer,
      [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const T* xr = px + r * c * inner;
          T* yr = po + r * c * inner;
          if (inner == 1) {
            for (int64_t k = 0; k < c; ++k) yr[k] = add_wrap(xr[k], pb[k]);
          } else {
            for (int64_t k = 0; k < c; ++k) {
              const T b = pb[k];
              for (int64_t i = 0; i < inner; ++i) {
                yr[k * inner + i] = add_wrap(xr[k * inner + i], b);
              }
            }
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, c * inner)));
}

// Sums over outer and inner into [C]; per-thread partial sums, combined in order, so the result
// does not depend on scheduling.
template <typename T>
void bias_add_grad_kernel(KernelContext& ctx) {
  const Tensor& g = ctx.input(0);
  const Layout l = layout_of(g.shape(), ctx.attr<std::string>("data_format"));
  Tensor& out = ctx.allocate_output(0, Shape{l.channels});
  T* po = out.mutable_data<T>();
  const int64_t c = l.channels, inner = l.inner;
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;
  std::vector<Acc> acc(static_cast<size_t>(c), Acc(0));
  if (g.num_elements() > 0) {
    const T* pg = g.data<T>();
    const int64_t per_row = c * inner;
    const int64_t chunks =
        std::clamp<int64_t>(g.num_elements() / kernels::kParallelGrain, 1,
                            std::min<int64_t>(kernels::intra_op_threads(), l.outer));
    std::vector<std::vector<Acc>> part(static_cast<size_t>(chunks));
    auto run = [&](int64_t ch) {
      std::vector<Acc>& a = part[static_cast<size_t>(ch)];
      a.assign(static_cast<size_t>(c), Acc(0));
      const int64_t r0 = l.outer * ch / chunks, r1 = l.outer * (ch + 1) / chunks;
      for (int64_t r = r0; r < r1; ++r) {
        const T* gr = pg + r * per_row;
        if (inner == 1) {
          for (int64_t k = 0; k < c; ++k) a[static_cast<size_t>(k)] += static_cast<Acc>(gr[k]);
        } else {
          for (int64_t k = 0; k < c; ++k) {
            Acc s = 0;
            for (int64_t i = 0; i < inner; ++i) s += static_cast<Acc>(gr[k * inner + i]);
            a[static_cast<size_t>(k)] += s;
          }
        }
      }
    };
    if (chunks == 1) {
      run(0);
    } else {
      kernels::parallel_chunks(chunks, run);
    }
    for (const auto& a : part) {
      for (int64_t k = 0; k < c; ++k) acc[static_cast<size_t>(k)] += a[static_cast<size_t>(k)];
    }
  }
  for (int64_t k = 0; k < c; ++k) po[k] = static_cast<T>(acc[static_cast<size_t>(k)]);
}

}  // namespace

KernelFn bias_add_cpu_kernel(const std::string& op, DType dtype) {
  const bool grad = op == "BiasAddGrad";
  if (!grad && op != "BiasAdd") return nullptr;
  switch (dtype) {
    case float32:
      return grad ? bias_add_grad_kernel<float> : bias_add_kernel<float>;
    case float64:
      return grad ? bias_add_grad_kernel<double> : bias_add_kernel<double>;
    case int32:
      return grad ? bias_add_grad_kernel<int32_t> : bias_add_kernel<int32_t>;
    case int64:
      return grad ? bias_add_grad_kernel<int64_t> : bias_add_kernel<int64_t>;
    case uint8:
      return grad ? bias_add_grad_kernel<uint8_t> : bias_add_kernel<uint8_t>;
    default:
      return nullptr;
  }
}

}  // namespace tfcc
