// CPU kernels of the conv family. float32 runs on oneDNN (conv_onednn.cc); float64, and float32
// problems oneDNN rejects, run the plain loops here (NHWC, grouped HWIO filters, channels
// innermost so the compiler vectorises them), parallelised with OpenMP over output rows.
// Depthwise ops reuse the grouped kernels: their filter is, in memory, a grouped one.
#include <cmath>
#include <cstring>

#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/ops/conv/conv_onednn.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/linalg/fused.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

// Work per task below which a loop stays on one thread.
int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(1, work_per_item));
}

template <typename T>
void forward_loop(const ConvGeometry& g, const T* x, const T* f, T* y) {
  const int64_t oc_n = g.out_c, icg = g.f_in_c, ocg = g.out_c / g.groups;
  parallel_for(
      g.batch * g.out_h,
      [&](int64_t lo, int64_t hi) {
        std::vector<T> acc(static_cast<size_t>(oc_n));
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t n = r / g.out_h, oh = r % g.out_h;
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            std::fill(acc.begin(), acc.end(), T(0));
            for (int64_t kh = 0; kh < g.f_h; ++kh) {
              const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dil_h;
              if (ih < 0 || ih >= g.in_h) continue;
              for (int64_t kw = 0; kw < g.f_w; ++kw) {
                const int64_t iw = ow * g.stride_w - g.pad_left + kw * g.dil_w;
                if (iw < 0 || iw >= g.in_w) continue;
                const T* xp = x + ((n * g.in_h + ih) * g.in_w + iw) * g.in_c;
                const T* fp = f + (kh * g.f_w + kw) * icg * oc_n;
                for (int64_t grp = 0; grp < g.groups; ++grp) {
                  T* a = acc.data() + grp * ocg;
                  for (int64_t ic = 0; ic < icg; ++ic) {
                    const T xv = xp[grp * icg + ic];
                    const T* fr = fp + ic * oc_n + grp * ocg;
                    for (int64_t oc = 0; oc < ocg; ++oc) a[oc] += xv * fr[oc];
                  }
                }
              }
            }
            std::memcpy(y + ((n * g.out_h + oh) * g.out_w + ow) * oc_n, acc.data(),
                        sizeof(T) * static_cast<size_t>(oc_n));
          }
        }
      },
      grain_for(g.out_w * g.out_c * g.f_h * g.f_w * icg));
}

template <typename T>
void backward_data_loop(const ConvGeometry& g, const T* f, const T* dy, T* dx) {
  const int64_t oc_n = g.out_c, icg = g.f_in_c, ocg = g.out_c / g.groups;
  parallel_for(
      g.batch * g.in_h,
      [&](int64_t lo, int64_t hi) {
        std::vector<T> acc(static_cast<size_t>(g.in_c));
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t n = r / g.in_h, ih = r % g.in_h;
          for (int64_t iw = 0; iw < g.in_w; ++iw) {
            std::fill(acc.begin(), acc.end(), T(0));
            for (int64_t kh = 0; kh < g.f_h; ++kh) {
              const int64_t th = ih + g.pad_top - kh * g.dil_h;
              if (th < 0 || th % g.stride_h != 0 || th / g.stride_h >= g.out_h) continue;
              const int64_t oh = th / g.stride_h;
              for (int64_t kw = 0; kw < g.f_w; ++kw) {
                const int64_t tw = iw + g.pad_left - kw * g.dil_w;
                if (tw < 0 || tw % g.stride_w != 0 || tw / g.stride_w >= g.out_w) continue;
                const int64_t ow = tw / g.stride_w;
                const T* dyp = dy + ((n * g.out_h + oh) * g.out_w + ow) * oc_n;
                const T* fp = f + (kh * g.f_w + kw) * icg * oc_n;
                for (int64_t grp = 0; grp < g.groups; ++grp) {
                  for (int64_t ic = 0; ic < icg; ++ic) {
                    const T* fr = fp + ic * oc_n + grp * ocg;
                    const T* d = dyp + grp * ocg;
                    T s = 0;
                    for (int64_t oc = 0; oc < ocg; ++oc) s += fr[oc] * d[oc];
                    acc[size_t(grp * icg + ic)] += s;
                  }
                }
              }
            }
            std::memcpy(dx + ((n * g.in_h + ih) * g.in_w + iw) * g.in_c, acc.data(),
                        sizeof(T) * static_cast<size_t>(g.in_c));
          }
        }
      },
      grain_for(g.in_w * g.out_c * g.f_h * g.f_w * icg));
}

template <typename T>
void backward_weights_loop(const ConvGeometry& g, const T* x, const T* dy, T* df) {
  const int64_t oc_n = g.out_c, icg = g.f_in_c, ocg = g.out_c / g.groups;
  const int64_t per_tap = icg * oc_n;
  parallel_for(
      g.f_h * g.f_w,
      [&](int64_t lo, int64_t hi) {
        for (int64_t tap = lo; tap < hi; ++tap) {
          const int64_t kh = tap / g.f_w, kw = tap % g.f_w;
          T* acc = df + tap * per_tap;
          std::fill(acc, acc + per_tap, T(0));
          for (int64_t n = 0; n < g.batch; ++n) {
            for (int64_t oh = 0; oh < g.out_h; ++oh) {
              const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dil_h;
              if (ih < 0 || ih >= g.in_h) continue;
              for (int64_t ow = 0; ow < g.out_w; ++ow) {
                const int64_t iw = ow * g.stride_w - g.pad_left + kw * g.dil_w;
                if (iw < 0 || iw >= g.in_w) continue;
                const T* xp = x + ((n * g.in_h + ih) * g.in_w + iw) * g.in_c;
                const T* dyp = dy + ((n * g.out_h + oh) * g.out_w + ow) * oc_n;
                for (int64_t grp = 0; grp < g.groups; ++grp) {
                  for (int64_t ic = 0; ic < icg; ++ic) {
                    const T xv = xp[grp * icg + ic];
                    T* a = acc + ic * oc_n + grp * ocg;
                    const T* d = dyp + grp * ocg;
                    for (int64_t oc = 0; oc < ocg; ++oc) a[oc] += xv * d[oc];
                  }
                }
              }
            }
          }
        }
      },
      1);
}

bool is_depthwise(const std::string& op) { return op.rfind("Depthwise", 0) == 0; }

// Geometry of a backprop op from its attribute sizes (a -1 batch takes out_backprop's).
ConvGeometry backprop_geometry(KernelContext& ctx, bool data) {
  const bool dw = is_depthwise(ctx.op().name());
  std::vector<int64_t> sizes =
      ctx.attr<std::vector<int64_t>>(data ? "input_sizes" : "filter_sizes");
  const Shape& dy = ctx.input(1).shape();
  if (data && sizes.size() == 4 && sizes[0] == -1 && dy.rank() == 4) sizes[0] = dy.dim(0);
  const PartialShape in = data ? PartialShape(sizes) : ctx.input(0).partial_shape();
  const PartialShape f = data ? ctx.input(0).partial_shape() : PartialShape(sizes);
  return conv_geometry(ctx.op(), ctx.attrs(), in, f, dw);
}

template <typename T>
void conv_forward_kernel(KernelContext& ctx) {
  const bool fused = ctx.op().name() == "_FusedConv2D";
  const ConvGeometry g = conv_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape(),
                                       ctx.input(1).partial_shape(), is_depthwise(ctx.op().name()));
  Tensor& out = ctx.allocate_output(0, Shape(g.output_dims()));
  if (out.num_elements() == 0) return;
  T* y = out.mutable_data<T>();
  const T* x = ctx.input(0).data<T>();
  const T* f = ctx.input(1).data<T>();
  const T* bias = fused ? ctx.input(2).data<T>() : nullptr;
  const std::string act = fused ? ctx.attr<std::string>("activation") : "";
  const double alpha = fused ? ctx.attr<double>("leakyrelu_alpha") : 0.0;
  if (g.in_c == 0) {
    std::fill(y, y + out.num_elements(), T(0));
  } else {
    if constexpr (std::is_same_v<T, float>) {
      if (conv_onednn::forward(g, x, f, bias, {act, static_cast<float>(alpha)}, y)) return;
    }
    forward_loop<T>(g, x, f, y);
  }
  if (fused)
    fused::apply_bias_activation<T>(y, out.num_elements() / g.out_c, g.out_c, bias, act, alpha);
}

template <typename T>
void conv_backprop_input_kernel(KernelContext& ctx) {
  const ConvGeometry g = backprop_geometry(ctx, true);
  Tensor& out = ctx.allocate_output(0, Shape(g.input_dims()));
  if (out.num_elements() == 0) return;
  T* dx = out.mutable_data<T>();
  if (g.out_c == 0 || g.out_h == 0 || g.out_w == 0) {
    std::fill(dx, dx + out.num_elements(), T(0));
    return;
  }
  const T* f = ctx.input(0).data<T>();
  const T* dy = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (conv_onednn::backward_data(g, f, dy, dx)) return;
  }
  backward_data_loop<T>(g, f, dy, dx);
}

template <typename T>
void conv_backprop_filter_kernel(KernelContext& ctx) {
  const ConvGeometry g = backprop_geometry(ctx, false);
  Tensor& out = ctx.allocate_output(0, Shape(ctx.attr<std::vector<int64_t>>("filter_sizes")));
  if (out.num_elements() == 0) return;
  T* df = out.mutable_data<T>();
  if (g.batch == 0 || g.out_h == 0 || g.out_w == 0) {
    std::fill(df, df + out.num_elements(), T(0));
    return;
  }
  const T* x = ctx.input(0).data<T>();
  const T* dy = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (conv_onednn::backward_weights(g, x, dy, df)) return;
  }
  backward_weights_loop<T>(g, x, dy, df);
}

template <typename T>
KernelFn kernel_for(const std::string& op) {
  if (op == "Conv2D" || op == "DepthwiseConv2dNative" || op == "_FusedConv2D") {
    return conv_forward_kernel<T>;
  }
  if (op == "Conv2DBackpropInput" || op == "DepthwiseConv2dNativeBackpropInput") {
    return conv_backprop_input_kernel<T>;
  }
  if (op == "Conv2DBackpropFilter" || op == "DepthwiseConv2dNativeBackpropFilter") {
    return conv_backprop_filter_kernel<T>;
  }
  return nullptr;
}

}  // namespace

KernelFn conv_cpu_kernel(const std::string& op, DType dtype) {
  if (dtype == float32) return kernel_for<float>(op);
  if (dtype == float64) return kernel_for<double>(op);
  return nullptr;
}

}  // namespace tfcc
