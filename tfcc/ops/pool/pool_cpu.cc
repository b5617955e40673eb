// CPU kernels of the pool family. MaxPool, AvgPool and AvgPoolGrad in float32 run on oneDNN's
// pooling primitives (NHWC in and out, cached per geometry and thread count); float64 and the
// max-pooling gradients run the loops here, channels innermost. The max-pooling gradients route
// through the first maximum of each window (row-major window order), TensorFlow's choice;
// oneDNN's backward max pooling would need the forward pass's workspace, which the op does not
// have, so it would cost a second forward pass.
#include <cstring>
#include <limits>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/onednn_split.h"
#include "tfcc/ops/pool/pool_internal.h"

namespace tfcc {
namespace {

using dnnl::memory;
using kernels::parallel_for;

// ---- oneDNN (float32) ----

struct Entry {
  std::unique_ptr<dnnl::primitive> prim;
  memory::desc scratch_md;
};

onednn::PrimitiveCache<Entry>& cache() {
  static auto* c = new onednn::PrimitiveCache<Entry>;
  return *c;
}

memory::desc nhwc(int64_t n, int64_t h, int64_t w, int64_t c) {
  return memory::desc({n, c, h, w}, memory::data_type::f32, memory::format_tag::nhwc);
}

enum Kind : int64_t { kMaxFwd = 201, kAvgFwd = 202, kAvgBwd = 203 };

std::shared_ptr<const Entry> lookup(Kind kind, const PoolGeometry& g) {
  std::vector<int64_t> key = onednn::key_prefix(kind);
  for (int64_t v : {g.batch, g.in_h, g.in_w, g.c, g.k_h, g.k_w, g.stride_h, g.stride_w, g.out_h,
                    g.out_w, g.pad_top, g.pad_bottom, g.pad_left, g.pad_right}) {
    key.push_back(v);
  }
  auto e = cache().get(key, [&] {
    auto e = std::make_shared<Entry>();
    const memory::dims strides{g.stride_h, g.stride_w}, kernel{g.k_h, g.k_w},
        pl{g.pad_top, g.pad_left}, pr{g.pad_bottom, g.pad_right};
    const memory::desc src = nhwc(g.batch, g.in_h, g.in_w, g.c);
    const memory::desc dst = nhwc(g.batch, g.out_h, g.out_w, g.c);
    const auto alg = kind == kMaxFwd ? dnnl::algorithm::pooling_max
                                     : dnnl::algorithm::pooling_avg_exclude_padding;
    try {
      const auto attr = onednn::user_scratchpad_attr();
      dnnl::pooling_forward::primitive_desc fwd(
          dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, alg, src, dst, strides,
                                      kernel, pl, pr),
          attr, onednn::engine());
      if (kind == kAvgBwd) {
        dnnl::pooling_backward::primitive_desc bwd(
            dnnl::pooling_backward::desc(alg, src, dst, strides, kernel, pl, pr), attr,
            onednn::engine(), fwd);
        e->scratch_md = bwd.scratchpad_desc();
        e->prim = std::make_unique<dnnl::pooling_backward>(bwd);
      } else {
        e->scratch_md = fwd.scratchpad_desc();
        e->prim = std::make_unique<dnnl::pooling_forward>(fwd);
      }
    } catch (const dnnl::error&) {
      e->prim.reset();
    }
    return e;
  });
  if (!e->prim) cache().count_fallback();
  return e;
}

// One-thread estimate of a pooling pass: the loops' cost model (a cheap element-wise step per
// window element of each output).
double work_ns(const PoolGeometry& g) {
  return static_cast<double>(g.batch * g.out_h * g.out_w * g.c * g.k_h * g.k_w) *
         kernels::cost::kElementwise;
}

// Images [lo, hi) of the batch as a geometry of their own.
PoolGeometry images(const PoolGeometry& g, int64_t lo, int64_t hi) {
  PoolGeometry s = g;
  s.batch = hi - lo;
  return s;
}

// Both run one primitive per slice of the batch on the pool runtime (kernels::onednn_split: one
// OpenMP thread each), one primitive over the batch on the OpenMP runtime.
bool onednn_forward(Kind kind, const PoolGeometry& g, const float* x, float* y) {
  const int64_t in_image = g.in_h * g.in_w * g.c, out_image = g.out_h * g.out_w * g.c;
  return kernels::onednn_split(g.batch, work_ns(g), 1, [&](int64_t lo, int64_t hi) {
    const PoolGeometry s = images(g, lo, hi);
    auto e = lookup(kind, s);
    if (!e->prim) return false;
    onednn::execute(
        *e->prim, e->scratch_md,
        {{DNNL_ARG_SRC, onednn::wrap(nhwc(s.batch, s.in_h, s.in_w, s.c), x + lo * in_image)},
         {DNNL_ARG_DST, onednn::wrap(nhwc(s.batch, s.out_h, s.out_w, s.c), y + lo * out_image)}});
    return true;
  });
}

bool onednn_avg_backward(const PoolGeometry& g, const float* dy, float* dx) {
  const int64_t in_image = g.in_h * g.in_w * g.c, out_image = g.out_h * g.out_w * g.c;
  return kernels::onednn_split(g.batch, work_ns(g), 1, [&](int64_t lo, int64_t hi) {
    const PoolGeometry s = images(g, lo, hi);
    auto e = lookup(kAvgBwd, s);
    if (!e->prim) return false;
    onednn::execute(*e->prim, e->scratch_md,
                    {{DNNL_ARG_DIFF_DST,
                      onednn::wrap(nhwc(s.batch, s.out_h, s.out_w, s.c), dy + lo * out_image)},
                     {DNNL_ARG_DIFF_SRC,
                      onednn::wrap(nhwc(s.batch, s.in_h, s.in_w, s.c), dx + lo * in_image)}});
    return true;
  });
}

// ---- Loops ----

// The window of output (oh, ow), clipped to the input: [h0, h1) x [w0, w1).
struct Window {
  int64_t h0, h1, w0, w1;
};
Window window(const PoolGeometry& g, int64_t oh, int64_t ow) {
  const int64_t hs = oh * g.stride_h - g.pad_top, ws = ow * g.stride_w - g.pad_left;
  return {std::max<int64_t>(hs, 0), std::min(hs + g.k_h, g.in_h), std::max<int64_t>(ws, 0),
          std::min(ws + g.k_w, g.in_w)};
}

int64_t grain(const PoolGeometry& g) {
  return std::max<int64_t>(
      1, kernels::kParallelGrain / std::max<int64_t>(1, g.out_w * g.c * g.k_h * g.k_w));
}

template <typename T>
void pool_forward_loop(const PoolGeometry& g, bool max, const T* x, T* y) {
  parallel_for(
      g.batch * g.out_h,
      [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          const int64_t n = r / g.out_h, oh = r % g.out_h;
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const Window w = window(g, oh, ow);
            T* out = y + ((n * g.out_h + oh) * g.out_w + ow) * g.c;
            const T init = max ? -std::numeric_limits<T>::infinity() : T(0);
            std::fill(out, out + g.c, init);
            for (int64_t ih = w.h0; ih < w.h1; ++ih) {
              for (int64_t iw = w.w0; iw < w.w1; ++iw) {
                const T* in = x + ((n * g.in_h + ih) * g.in_w + iw) * g.c;
                if (max) {
                  for (int64_t c = 0; c < g.c; ++c) out[c] = in[c] > out[c] ? in[c] : out[c];
                } else {
                  for (int64_t c = 0; c < g.c; ++c) out[c] += in[c];
                }
              }
            }
            if (!max) {
              const T count = T((w.h1 - w.h0) * (w.w1 - w.w0));
              for (int64_t c = 0; c < g.c; ++c) out[c] /= count;
            }
          }
        }
      },
      grain(g));
}

// For every window, the tap (row-major position in the clipped window) of each channel's first
// maximum, found with branch-free compares over contiguous channels (vectorised); then
// fn(n, out_offset, tap_offsets, taps, tap_count, maxima) per window, where the input offset of
// channel c's maximum is tap_offsets[taps[c]] + c and its value maxima[c]. Parallel over images
// (each image's windows touch only its slice).
template <typename T, typename F>
void for_each_window_argmax(const PoolGeometry& g, const T* x, F&& fn) {
  parallel_for(
      g.batch,
      [&](int64_t lo, int64_t hi) {
        std::vector<T> best(static_cast<size_t>(g.c));
        std::vector<int32_t> tap(static_cast<size_t>(g.c));
        std::vector<int64_t> offs(static_cast<size_t>(g.k_h * g.k_w));
        T* bp = best.data();
        int32_t* tp = tap.data();
        for (int64_t n = lo; n < hi; ++n) {
          for (int64_t oh = 0; oh < g.out_h; ++oh) {
            for (int64_t ow = 0; ow < g.out_w; ++ow) {
              const Window w = window(g, oh, ow);
              int32_t taps = 0;
              for (int64_t ih = w.h0; ih < w.h1; ++ih) {
                for (int64_t iw = w.w0; iw < w.w1; ++iw) {
                  offs[size_t(taps++)] = ((n * g.in_h + ih) * g.in_w + iw) * g.c;
                }
              }
              if (taps == 0) continue;
              const T* x0 = x + offs[0];
              for (int64_t c = 0; c < g.c; ++c) {
                bp[c] = x0[c];
                tp[c] = 0;
              }
              for (int32_t t = 1; t < taps; ++t) {
                const T* xt = x + offs[size_t(t)];
                for (int64_t c = 0; c < g.c; ++c) {
                  const bool gt = xt[c] > bp[c];
                  bp[c] = gt ? xt[c] : bp[c];
                  tp[c] = gt ? t : tp[c];
                }
              }
              fn(n, ((n * g.out_h + oh) * g.out_w + ow) * g.c, offs.data(), tp, taps, bp);
            }
          }
        }
      },
      1);
}

template <typename T>
void pool_forward_kernel(KernelContext& ctx) {
  const bool max = ctx.op().name() == "MaxPool";
  const PoolGeometry g = pool_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape());
  Tensor& out = ctx.allocate_output(0, Shape(g.output_dims()));
  if (out.num_elements() == 0) return;
  const T* x = ctx.input(0).data<T>();
  T* y = out.mutable_data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (onednn_forward(max ? kMaxFwd : kAvgFwd, g, x, y)) return;
  }
  pool_forward_loop<T>(g, max, x, y);
}

// MaxPoolGrad, MaxPoolGradGrad and _MaxPoolGradReluGrad (MaxPoolGrad, then zero wherever
// orig_input is not > 0: the mask of a window's maximum is taken from its value, which is the
// input there, so the result is bitwise ReluGrad(MaxPoolGrad(x, y, g), x)).
template <typename T>
void max_pool_grad_kernel(KernelContext& ctx) {
  const std::string& name = ctx.op().name();
  const bool gradgrad = name == "MaxPoolGradGrad";
  const bool relu = name == "_MaxPoolGradReluGrad";
  const PoolGeometry g = pool_geometry(ctx.op(), ctx.attrs(), ctx.input(0).partial_shape());
  Tensor& out = ctx.allocate_output(0, Shape(gradgrad ? g.output_dims() : g.input_dims()));
  if (out.num_elements() == 0) return;
  const T* x = ctx.input(0).data<T>();
  const T* grad = ctx.input(2).data<T>();
  T* o = out.mutable_data<T>();
  const int64_t c_n = g.c;
  if (gradgrad) {
    auto pick = [&](int64_t, int64_t out_off, const int64_t* offs, const int32_t* taps, int32_t,
                    const T*) {
      for (int64_t c = 0; c < c_n; ++c) o[out_off + c] = grad[offs[taps[c]] + c];
    };
    for_each_window_argmax<T>(g, x, pick);
    return;
  }
  // Windows that do not overlap (the usual 2x2 / stride 2): each input element is in at most one
  // window, so each window's taps are written once, a select over contiguous channels
  // (vectorised), with no read-modify-write. When they tile the image exactly, nothing is left
  // for a zero fill; otherwise each image is zeroed by the thread that fills it.
  const bool disjoint = g.stride_h >= g.k_h && g.stride_w >= g.k_w;
  const bool tiled = g.stride_h == g.k_h && g.stride_w == g.k_w &&
                     g.out_h * g.k_h - g.pad_top >= g.in_h &&
                     g.out_w * g.k_w - g.pad_left >= g.in_w;
  const int64_t image = g.in_h * g.in_w * g.c;
  std::vector<char> zeroed(static_cast<size_t>(g.batch), tiled ? 1 : 0);
  auto zero_image = [&](int64_t n) {
    if (zeroed[size_t(n)]) return;
    std::fill(o + n * image, o + (n + 1) * image, T(0));
    zeroed[size_t(n)] = 1;
  };
  if (disjoint) {
    auto route = [&](int64_t n, int64_t out_off, const int64_t* offs, const int32_t* taps,
                     int32_t count, const T* maxima) {
      zero_image(n);
      const T* gr = grad + out_off;
      for (int32_t t = 0; t < count; ++t) {
        T* p = o + offs[t];
        if (relu) {
          for (int64_t c = 0; c < c_n; ++c) p[c] = taps[c] == t && maxima[c] > T(0) ? gr[c] : T(0);
        } else {
          for (int64_t c = 0; c < c_n; ++c) p[c] = taps[c] == t ? gr[c] : T(0);
        }
      }
    };
    for_each_window_argmax<T>(g, x, route);
  } else {
    auto accumulate = [&](int64_t n, int64_t out_off, const int64_t* offs, const int32_t* taps,
                          int32_t, const T* maxima) {
      zero_image(n);
      // Every window adding into an element has it as its maximum, so all of them see its
      // value: masked alike, summed in order.
      for (int64_t c = 0; c < c_n; ++c) {
        if (relu && !(maxima[c] > T(0))) continue;
        o[offs[taps[c]] + c] += grad[out_off + c];
      }
    };
    for_each_window_argmax<T>(g, x, accumulate);
  }
  // Images no window wrote (an empty output) still need zeros.
  for (int64_t n = 0; n < g.batch; ++n) zero_image(n);
}

template <typename T>
void avg_pool_grad_kernel(KernelContext& ctx) {
  std::vector<int64_t> shape = ctx.attr<std::vector<int64_t>>("orig_input_shape");
  if (shape[0] == -1) shape[0] = ctx.input(0).shape().dim(0);  // checked by the shape function
  const PoolGeometry g = pool_geometry(ctx.op(), ctx.attrs(), PartialShape(shape));
  Tensor& out = ctx.allocate_output(0, Shape(g.input_dims()));
  if (out.num_elements() == 0) return;
  T* dx = out.mutable_data<T>();
  const T* dy = ctx.input(0).data<T>();
  if (g.out_h == 0 || g.out_w == 0) {
    std::fill(dx, dx + out.num_elements(), T(0));
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (onednn_avg_backward(g, dy, dx)) return;
  }
  std::fill(dx, dx + out.num_elements(), T(0));
  parallel_for(
      g.batch,
      [&](int64_t lo, int64_t hi) {
        for (int64_t n = lo; n < hi; ++n) {
          for (int64_t oh = 0; oh < g.out_h; ++oh) {
            for (int64_t ow = 0; ow < g.out_w; ++ow) {
              const Window w = window(g, oh, ow);
              const T inv = T(1) / T((w.h1 - w.h0) * (w.w1 - w.w0));
              const T* d = dy + ((n * g.out_h + oh) * g.out_w + ow) * g.c;
              for (int64_t ih = w.h0; ih < w.h1; ++ih) {
                for (int64_t iw = w.w0; iw < w.w1; ++iw) {
                  T* p = dx + ((n * g.in_h + ih) * g.in_w + iw) * g.c;
                  for (int64_t c = 0; c < g.c; ++c) p[c] += d[c] * inv;
                }
              }
            }
          }
        }
      },
      1);
}

template <typename T>
KernelFn kernel_for(const std::string& op) {
  if (op == "MaxPool" || op == "AvgPool") return pool_forward_kernel<T>;
  if (op == "MaxPoolGrad" || op == "MaxPoolGradGrad" || op == "_MaxPoolGradReluGrad") {
    return max_pool_grad_kernel<T>;
  }
  if (op == "AvgPoolGrad") return avg_pool_grad_kernel<T>;
  return nullptr;
}

}  // namespace

KernelFn pool_cpu_kernel(const std::string& op, DType dtype) {
  if (dtype == float32) return kernel_for<float>(op);
  if (dtype == float64) return kernel_for<double>(op);
  return nullptr;
}

onednn::CacheStats pool_cache_stats() { return cache().stats(); }

}  // namespace tfcc
