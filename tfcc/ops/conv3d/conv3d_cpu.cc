// CPU kernels of Conv3D and its backprop ops. float32 runs on oneDNN's 3-D convolution
// (conv3d_onednn.cc); float64, and problems oneDNN rejects, run the plain loops here (NDHWC,
// DHWIO filters, channels innermost so the compiler vectorises them), parallelised with OpenMP
// over output (or input) rows.
#include <cstring>

#include "tfcc/ops/conv3d/conv3d_internal.h"
#include "tfcc/ops/conv3d/conv3d_onednn.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, work_per_item));
}

// Offset of pixel (n, d, h, w) of an NDHWC tensor with spatial dims `s` and `c` channels.
inline int64_t pixel(const std::array<int64_t, 3>& s, int64_t c, int64_t n, int64_t d, int64_t h,
                     int64_t w) {
  return (((n * s[0] + d) * s[1] + h) * s[2] + w) * c;
}

// The input coordinate of output `o` and tap `k` along spatial dim `i`, or -1 outside the input.
inline int64_t tap(const Window3D& g, size_t i, int64_t o, int64_t k) {
  const int64_t v = o * g.stride[i] - g.pad[i] + k * g.dil[i];
  return v >= 0 && v < g.in[i] ? v : -1;
}

// The output coordinate that reads input `v` through tap `k` along dim `i`, or -1 if none.
inline int64_t back_tap(const Window3D& g, size_t i, int64_t v, int64_t k) {
  const int64_t t = v + g.pad[i] - k * g.dil[i];
  if (t < 0 || t % g.stride[i] != 0 || t / g.stride[i] >= g.out[i]) return -1;
  return t / g.stride[i];
}

template <typename T>
void forward_loop(const Window3D& g, const T* x, const T* f, T* y) {
  const int64_t OC = g.out_c, IC = g.in_c;
  parallel_for(
      g.batch * g.out[0] * g.out[1],
      [&](int64_t lo, int64_t hi) {
        std::vector<T> acc(static_cast<size_t>(OC));
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t oh = r % g.out[1], od = r / g.out[1] % g.out[0],
                        n = r / g.out[1] / g.out[0];
          for (int64_t ow = 0; ow < g.out[2]; ++ow) {
            std::fill(acc.begin(), acc.end(), T(0));
            for (int64_t kd = 0; kd < g.k[0]; ++kd) {
              const int64_t id = tap(g, 0, od, kd);
              if (id < 0) continue;
              for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                const int64_t ih = tap(g, 1, oh, kh);
                if (ih < 0) continue;
                for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                  const int64_t iw = tap(g, 2, ow, kw);
                  if (iw < 0) continue;
                  const T* xp = x + pixel(g.in, IC, n, id, ih, iw);
                  const T* fp = f + ((kd * g.k[1] + kh) * g.k[2] + kw) * IC * OC;
                  for (int64_t ic = 0; ic < IC; ++ic) {
                    const T xv = xp[ic];
                    const T* fr = fp + ic * OC;
                    for (int64_t oc = 0; oc < OC; ++oc) acc[size_t(oc)] += xv * fr[oc];
                  }
                }
              }
            }
            std::memcpy(y + pixel(g.out, OC, n, od, oh, ow), acc.data(),
                        sizeof(T) * static_cast<size_t>(OC));
          }
        }
      },
      grain_for(g.out[2] * OC * IC * g.k[0] * g.k[1] * g.k[2]));
}

template <typename T>
void backward_data_loop(const Window3D& g, const T* f, const T* dy, T* dx) {
  const int64_t OC = g.out_c, IC = g.in_c;
  parallel_for(
      g.batch * g.in[0] * g.in[1],
      [&](int64_t lo, int64_t hi) {
        std::vector<T> acc(static_cast<size_t>(IC));
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t ih = r % g.in[1], id = r / g.in[1] % g.in[0], n = r / g.in[1] / g.in[0];
          for (int64_t iw = 0; iw < g.in[2]; ++iw) {
            std::fill(acc.begin(), acc.end(), T(0));
            for (int64_t kd = 0; kd < g.k[0]; ++kd) {
              const int64_t od = back_tap(g, 0, id, kd);
              if (od < 0) continue;
              for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                const int64_t oh = back_tap(g, 1, ih, kh);
                if (oh < 0) continue;
                for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                  const int64_t ow = back_tap(g, 2, iw, kw);
                  if (ow < 0) continue;
                  const T* d = dy + pixel(g.out, OC, n, od, oh, ow);
                  const T* fp = f + ((kd * g.k[1] + kh) * g.k[2] + kw) * IC * OC;
                  for (int64_t ic = 0; ic < IC; ++ic) {
                    const T* fr = fp + ic * OC;
                    T s = 0;
                    for (int64_t oc = 0; oc < OC; ++oc) s += fr[oc] * d[oc];
                    acc[size_t(ic)] += s;
                  }
                }
              }
            }
            std::memcpy(dx + pixel(g.in, IC, n, id, ih, iw), acc.data(),
                        sizeof(T) * static_cast<size_t>(IC));
          }
        }
      },
      grain_for(g.in[2] * OC * IC * g.k[0] * g.k[1] * g.k[2]));
}

template <typename T>
void backward_weights_loop(const Window3D& g, const T* x, const T* dy, T* df) {
  const int64_t OC = g.out_c, IC = g.in_c, per_tap = IC * OC;
  parallel_for(
      g.k[0] * g.k[1] * g.k[2],
      [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
          const int64_t kw = t % g.k[2], kh = t / g.k[2] % g.k[1], kd = t / g.k[2] / g.k[1];
          T* acc = df + t * per_tap;
          std::fill(acc, acc + per_tap, T(0));
          for (int64_t n = 0; n < g.batch; ++n) {
            for (int64_t od = 0; od < g.out[0]; ++od) {
              const int64_t id = tap(g, 0, od, kd);
              if (id < 0) continue;
              for (int64_t oh = 0; oh < g.out[1]; ++oh) {
                const int64_t ih = tap(g, 1, oh, kh);
                if (ih < 0) continue;
                for (int64_t ow = 0; ow < g.out[2]; ++ow) {
                  const int64_t iw = tap(g, 2, ow, kw);
                  if (iw < 0) continue;
                  const T* xp = x + pixel(g.in, IC, n, id, ih, iw);
                  const T* d = dy + pixel(g.out, OC, n, od, oh, ow);
                  for (int64_t ic = 0; ic < IC; ++ic) {
                    const T xv = xp[ic];
                    T* a = acc + ic * OC;
                    for (int64_t oc = 0; oc < OC; ++oc) a[oc] += xv * d[oc];
                  }
                }
              }
            }
          }
        }
      },
      1);
}

bool empty(const Window3D& g) {
  return g.batch == 0 || g.in_c == 0 || g.out_c == 0 || g.out[0] == 0 || g.out[1] == 0 ||
         g.out[2] == 0;
}

// Geometry of a backprop op from its attribute sizes (a -1 batch takes out_backprop's).
Window3D backprop_geometry(KernelContext& ctx, bool data) {
  std::vector<int64_t> sizes =
      ctx.attr<std::vector<int64_t>>(data ? "input_sizes" : "filter_sizes");
  const Shape& dy = ctx.input(1).shape();
  if (data && sizes.size() == 5 && sizes[0] == -1 && dy.rank() == 5) sizes[0] = dy.dim(0);
  const PartialShape in = data ? PartialShape(sizes) : ctx.input(0).partial_shape();
  const PartialShape f = data ? ctx.input(0).partial_shape() : PartialShape(sizes);
  return conv3d_geometry(ctx.op(), ctx.attrs(), in, f);
}

template <typename T>
void forward_kernel(KernelContext& ctx) {
  const Window3D g = conv3d_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape(),
                                     ctx.input(1).partial_shape());
  Tensor& out = ctx.allocate_output(0, Shape(g.output_dims()));
  if (out.num_elements() == 0) return;
  T* y = out.mutable_data<T>();
  if (empty(g)) {
    std::fill(y, y + out.num_elements(), T(0));
    return;
  }
  const T* x = ctx.input(0).data<T>();
  const T* f = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (conv3d_onednn::forward(g, x, f, y)) return;
  }
  forward_loop<T>(g, x, f, y);
}

template <typename T>
void backprop_input_kernel(KernelContext& ctx) {
  const Window3D g = backprop_geometry(ctx, true);
  Tensor& out = ctx.allocate_output(0, Shape(g.input_dims()));
  if (out.num_elements() == 0) return;
  T* dx = out.mutable_data<T>();
  if (empty(g)) {
    std::fill(dx, dx + out.num_elements(), T(0));
    return;
  }
  const T* f = ctx.input(0).data<T>();
  const T* dy = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (conv3d_onednn::backward_data(g, f, dy, dx)) return;
  }
  backward_data_loop<T>(g, f, dy, dx);
}

template <typename T>
void backprop_filter_kernel(KernelContext& ctx) {
  const Window3D g = backprop_geometry(ctx, false);
  Tensor& out = ctx.allocate_output(0, Shape(g.filter_dims()));
  if (out.num_elements() == 0) return;
  T* df = out.mutable_data<T>();
  if (empty(g)) {
    std::fill(df, df + out.num_elements(), T(0));
    return;
  }
  const T* x = ctx.input(0).data<T>();
  const T* dy = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (conv3d_onednn::backward_weights(g, x, dy, df)) return;
  }
  backward_weights_loop<T>(g, x, dy, df);
}

template <typename T>
KernelFn kernel_for(const std::string& op) {
  if (op == "Conv3D") return forward_kernel<T>;
  if (op == "Conv3DBackpropInputV2") return backprop_input_kernel<T>;
  if (op == "Conv3DBackpropFilterV2") return backprop_filter_kernel<T>;
  return nullptr;
}

}  // namespace

KernelFn conv3d_cpu_kernel(const std::string& op, DType dtype) {
  if (dtype == float32) return kernel_for<float>(op);
  if (dtype == float64) return kernel_for<double>(op);
  return nullptr;
}

}  // namespace tfcc
