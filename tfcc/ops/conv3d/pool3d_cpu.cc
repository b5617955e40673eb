// CPU kernels of MaxPool3D, AvgPool3D and their gradient ops: plain loops over NDHWC tensors
// with the channels innermost (vectorised), parallelised with OpenMP over output rows (forward
// ops) or over the images of the batch (the scattering gradients, whose windows overlap).
#include <limits>

#include "tfcc/ops/conv3d/conv3d_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

inline int64_t pixel(const std::array<int64_t, 3>& s, int64_t n, int64_t d, int64_t h, int64_t w) {
  return ((n * s[0] + d) * s[1] + h) * s[2] + w;
}

// Calls fn(o, i) with the pixel indices of output (n, od, oh, ow) and of each input pixel of its
// window (row-major window order), clipped to the input.
template <typename F>
void for_window(const Window3D& g, int64_t n, int64_t od, int64_t oh, int64_t ow, F&& fn) {
  const int64_t o = pixel(g.out, n, od, oh, ow);
  const int64_t d0 = od * g.stride[0] - g.pad[0], h0 = oh * g.stride[1] - g.pad[1],
                w0 = ow * g.stride[2] - g.pad[2];
  for (int64_t d = std::max<int64_t>(d0, 0); d < std::min(d0 + g.k[0], g.in[0]); ++d)
    for (int64_t h = std::max<int64_t>(h0, 0); h < std::min(h0 + g.k[1], g.in[1]); ++h)
      for (int64_t w = std::max<int64_t>(w0, 0); w < std::min(w0 + g.k[2], g.in[2]); ++w)
        fn(o, pixel(g.in, n, d, h, w));
}

// Calls fn(n, od, oh, ow) for the output pixels of rows [lo, hi) (a row: n, od, oh).
template <typename F>
void for_rows(const Window3D& g, int64_t lo, int64_t hi, F&& fn) {
  for (int64_t r = lo; r < hi; ++r) {
    const int64_t oh = r % g.out[1], od = r / g.out[1] % g.out[0], n = r / g.out[1] / g.out[0];
    for (int64_t ow = 0; ow < g.out[2]; ++ow) fn(n, od, oh, ow);
  }
}

int64_t grain(const Window3D& g) {
  const int64_t work = std::max<int64_t>(1, g.out[2] * g.in_c * g.k[0] * g.k[1] * g.k[2]);
  return std::max<int64_t>(1, (int64_t{1} << 15) / work);
}

template <typename T>
void pool_forward(const Window3D& g, const T* x, T* y, bool max) {
  const int64_t C = g.in_c;
  parallel_for(
      g.batch * g.out[0] * g.out[1],
      [&](int64_t lo, int64_t hi) {
        for_rows(g, lo, hi, [&](int64_t n, int64_t od, int64_t oh, int64_t ow) {
          T* out = y + pixel(g.out, n, od, oh, ow) * C;
          std::fill(out, out + C, max ? -std::numeric_limits<T>::infinity() : T(0));
          int64_t count = 0;
          for_window(g, n, od, oh, ow, [&](int64_t, int64_t i) {
            const T* in = x + i * C;
            if (max) {
              for (int64_t c = 0; c < C; ++c) out[c] = in[c] > out[c] ? in[c] : out[c];
            } else {
              for (int64_t c = 0; c < C; ++c) out[c] += in[c];
            }
            ++count;
          });
          if (!max && count > 0) {
            const T inv = T(1) / static_cast<T>(count);
            for (int64_t c = 0; c < C; ++c) out[c] *= inv;
          }
        });
      },
      grain(g));
}

// For each output element, the input index (pixel * C + c) of its window's first maximum.
template <typename T>
void argmax_window(const Window3D& g, const T* x, int64_t n, int64_t od, int64_t oh, int64_t ow,
                   int64_t* arg, T* best) {
  const int64_t C = g.in_c;
  std::fill(arg, arg + C, int64_t{-1});
  for_window(g, n, od, oh, ow, [&](int64_t, int64_t i) {
    const T* in = x + i * C;
    for (int64_t c = 0; c < C; ++c) {
      if (arg[c] < 0 || in[c] > best[c]) {
        arg[c] = i * C + c;
        best[c] = in[c];
      }
    }
  });
}

// MaxPool3DGrad (scatter into the input's shape) or MaxPool3DGradGrad (gather from it).
template <typename T>
void max_grad(const Window3D& g, const T* x, const T* grad, T* out, bool gradgrad) {
  const int64_t C = g.in_c, in_image = g.in[0] * g.in[1] * g.in[2] * C;
  if (!gradgrad) std::fill(out, out + g.batch * in_image, T(0));
  const int64_t rows_per_image = g.out[0] * g.out[1];
  // Scattering runs one image per task (windows of one image may overlap).
  parallel_for(
      gradgrad ? g.batch * rows_per_image : g.batch,
      [&](int64_t lo, int64_t hi) {
        std::vector<int64_t> arg(static_cast<size_t>(C));
        std::vector<T> best(static_cast<size_t>(C));
        const int64_t rlo = gradgrad ? lo : lo * rows_per_image;
        const int64_t rhi = gradgrad ? hi : hi * rows_per_image;
        for_rows(g, rlo, rhi, [&](int64_t n, int64_t od, int64_t oh, int64_t ow) {
          argmax_window(g, x, n, od, oh, ow, arg.data(), best.data());
          const int64_t o = pixel(g.out, n, od, oh, ow) * C;
          for (int64_t c = 0; c < C; ++c) {
            const int64_t a = arg[size_t(c)];
            if (gradgrad) {
              out[o + c] = a < 0 ? T(0) : grad[a];
            } else if (a >= 0) {
              out[a] += grad[o + c];
            }
          }
        });
      },
      gradgrad ? grain(g) : 1);
}

template <typename T>
void avg_grad(const Window3D& g, const T* grad, T* dx) {
  const int64_t C = g.in_c, in_image = g.in[0] * g.in[1] * g.in[2] * C;
  std::fill(dx, dx + g.batch * in_image, T(0));
  const int64_t rows_per_image = g.out[0] * g.out[1];
  parallel_for(
      g.batch,
      [&](int64_t lo, int64_t hi) {
        for_rows(g, lo * rows_per_image, hi * rows_per_image,
                 [&](int64_t n, int64_t od, int64_t oh, int64_t ow) {
                   int64_t count = 0;
                   for_window(g, n, od, oh, ow, [&](int64_t, int64_t) { ++count; });
                   if (count == 0) return;
                   const T inv = T(1) / static_cast<T>(count);
                   const T* gp = grad + pixel(g.out, n, od, oh, ow) * C;
                   for_window(g, n, od, oh, ow, [&](int64_t, int64_t i) {
                     T* d = dx + i * C;
                     for (int64_t c = 0; c < C; ++c) d[c] += gp[c] * inv;
                   });
                 });
      },
      1);
}

template <typename T>
void forward_kernel(KernelContext& ctx) {
  const Window3D g = pool3d_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape());
  Tensor& out = ctx.allocate_output(0, Shape(g.output_dims()));
  if (out.num_elements() == 0) return;
  pool_forward<T>(g, ctx.input(0).data<T>(), out.mutable_data<T>(), ctx.op().name() == "MaxPool3D");
}

template <typename T>
void max_grad_kernel(KernelContext& ctx) {
  const Window3D g = pool3d_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape());
  const bool gradgrad = ctx.op().name() == "MaxPool3DGradGrad";
  Tensor& out = ctx.allocate_output(0, Shape(gradgrad ? g.output_dims() : g.input_dims()));
  if (out.num_elements() == 0) return;
  max_grad<T>(g, ctx.input(0).data<T>(), ctx.input(2).data<T>(), out.mutable_data<T>(), gradgrad);
}

template <typename T>
void avg_grad_kernel(KernelContext& ctx) {
  std::vector<int64_t> shape = ctx.attr<std::vector<int64_t>>("orig_input_shape");
  const Shape& grad = ctx.input(0).shape();
  if (shape.size() == 5 && shape[0] == -1 && grad.rank() == 5) shape[0] = grad.dim(0);
  const Window3D g = pool3d_geometry(ctx.op(), ctx.attrs(), PartialShape(shape));
  Tensor& out = ctx.allocate_output(0, Shape(g.input_dims()));
  if (out.num_elements() == 0) return;
  avg_grad<T>(g, ctx.input(0).data<T>(), out.mutable_data<T>());
}

template <typename T>
KernelFn kernel_for(const std::string& op) {
  if (op == "MaxPool3D" || op == "AvgPool3D") return forward_kernel<T>;
  if (op == "MaxPool3DGrad" || op == "MaxPool3DGradGrad") return max_grad_kernel<T>;
  if (op == "AvgPool3DGrad") return avg_grad_kernel<T>;
  return nullptr;
}

}  // namespace

KernelFn pool3d_cpu_kernel(const std::string& op, DType dtype) {
  if (dtype == float32) return kernel_for<float>(op);
  if (dtype == float64) return kernel_for<double>(op);
  return nullptr;
}

}  // namespace tfcc
