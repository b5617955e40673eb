// float32 convolutions on oneDNN's convolution primitives. Activations stay NHWC (the user's
// layout: no reorder of the large tensors). Filters are TensorFlow's HWIO, described to oneDNN
// by strides; when oneDNN prefers a blocked filter layout it gets one through a cached reorder
// (the filter is small next to the activations), measured faster than the plain-layout kernels
// for the seed CNN's shapes (docs/benchmark-history.md). Primitives and reorders are cached per
// geometry, direction, fused activation and thread count.
#include "tfcc/ops/conv/conv_onednn.h"

#include <atomic>
#include <cstring>
#include <optional>

#include "tfcc/core/tensor.h"
#include "tfcc/ops/onednn_split.h"

namespace tfcc::conv_onednn {
namespace {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

enum Direction : int64_t { kForward = 101, kBackwardData = 102, kBackwardWeights = 103 };

struct Entry {
  std::unique_ptr<dnnl::primitive> prim;  // null: rejected
  memory::desc scratch_md;
  memory::desc weights_md;                 // what the primitive uses
  memory::desc user_weights_md;            // TensorFlow's HWIO
  std::unique_ptr<dnnl::reorder> reorder;  // user <-> primitive weights, when they differ
  memory::desc reorder_scratch_md;
};

onednn::PrimitiveCache<Entry>& cache() {
  static auto* c = new onednn::PrimitiveCache<Entry>;
  return *c;
}

memory::desc act_md(int64_t n, int64_t c, int64_t h, int64_t w) {
  return memory::desc({n, c, h, w}, dt::f32, tag::nhwc);
}

// HWIO filter, grouped view [KH, KW, ICg, OC] with OC = G x OCg.
memory::desc user_weights(const ConvGeometry& g) {
  const int64_t oc = g.out_c, icg = g.f_in_c, ocg = g.out_c / g.groups;
  if (g.groups == 1) {
    return memory::desc({oc, icg, g.f_h, g.f_w}, dt::f32,
                        memory::dims{1, oc, g.f_w * icg * oc, icg * oc});
  }
  return memory::desc({g.groups, ocg, icg, g.f_h, g.f_w}, dt::f32,
                      memory::dims{ocg, 1, oc, g.f_w * icg * oc, icg * oc});
}

memory::desc any_weights(const ConvGeometry& g) {
  const int64_t oc = g.out_c, icg = g.f_in_c, ocg = g.out_c / g.groups;
  if (g.groups == 1) return memory::desc({oc, icg, g.f_h, g.f_w}, dt::f32, tag::any);
  return memory::desc({g.groups, ocg, icg, g.f_h, g.f_w}, dt::f32, tag::any);
}

std::vector<int64_t> key_of(int64_t dir, const ConvGeometry& g, const Activation* act, bool bias) {
  std::vector<int64_t> k = onednn::key_prefix(dir);
  for (int64_t v : {g.batch, g.in_h, g.in_w, g.in_c, g.f_h, g.f_w, g.f_in_c, g.out_c, g.groups,
                    g.stride_h, g.stride_w, g.dil_h, g.dil_w, g.out_h, g.out_w, g.pad_top,
                    g.pad_bottom, g.pad_left, g.pad_right}) {
    k.push_back(v);
  }
  k.push_back(bias);
  if (act) {
    for (char ch : act->name) k.push_back(ch);
    int32_t bits;
    std::memcpy(&bits, &act->alpha, sizeof bits);
    k.push_back(bits);
  }
  return k;
}

dnnl::convolution_forward::desc forward_desc(const ConvGeometry& g, const memory::desc& w,
                                             bool bias) {
  const memory::dims strides{g.stride_h, g.stride_w}, dil{g.dil_h - 1, g.dil_w - 1},
      pl{g.pad_top, g.pad_left}, pr{g.pad_bottom, g.pad_right};
  const memory::desc src = act_md(g.batch, g.in_c, g.in_h, g.in_w);
  const memory::desc dst = act_md(g.batch, g.out_c, g.out_h, g.out_w);
  if (bias) {
    return dnnl::convolution_forward::desc(
        dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, src, w,
        memory::desc({g.out_c}, dt::f32, tag::a), dst, strides, dil, pl, pr);
  }
  return dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                         dnnl::algorithm::convolution_direct, src, w, dst, strides,
                                         dil, pl, pr);
}

// Adds the user <-> primitive weights reorder when the layouts differ.
void add_reorder(Entry& e, bool to_primitive) {
  if (e.weights_md == e.user_weights_md) return;
  const memory::desc& from = to_primitive ? e.user_weights_md : e.weights_md;
  const memory::desc& to = to_primitive ? e.weights_md : e.user_weights_md;
  dnnl::reorder::primitive_desc rpd(onednn::engine(), from, onednn::engine(), to,
                                    onednn::user_scratchpad_attr());
  e.reorder_scratch_md = rpd.scratchpad_desc();
  e.reorder = std::make_unique<dnnl::reorder>(rpd);
}

std::shared_ptr<Entry> build(int64_t dir, const ConvGeometry& g, const Activation* act, bool bias) {
  auto e = std::make_shared<Entry>();
  e->user_weights_md = user_weights(g);
  try {
    dnnl::primitive_attr attr = onednn::user_scratchpad_attr();
    if (act && !act->name.empty()) {
      dnnl::algorithm alg;
      float alpha, beta;
      if (!eltwise_algorithm(*act, &alg, &alpha, &beta)) return e;
      dnnl::post_ops po;
      po.append_eltwise(1.f, alg, alpha, beta);
      attr.set_post_ops(po);
    }
    const memory::desc w = any_weights(g);
    dnnl::convolution_forward::primitive_desc fwd(forward_desc(g, w, bias), attr, onednn::engine());
    if (dir == kForward) {
      e->weights_md = fwd.weights_desc();
      e->scratch_md = fwd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::convolution_forward>(fwd);
      add_reorder(*e, true);
      return e;
    }
    const memory::dims strides{g.stride_h, g.stride_w}, dil{g.dil_h - 1, g.dil_w - 1},
        pl{g.pad_top, g.pad_left}, pr{g.pad_bottom, g.pad_right};
    const memory::desc src = act_md(g.batch, g.in_c, g.in_h, g.in_w);
    const memory::desc dst = act_md(g.batch, g.out_c, g.out_h, g.out_w);
    if (dir == kBackwardData) {
      dnnl::convolution_backward_data::primitive_desc pd(
          dnnl::convolution_backward_data::desc(dnnl::algorithm::convolution_direct, src, w, dst,
                                                strides, dil, pl, pr),
          attr, onednn::engine(), fwd);
      e->weights_md = pd.weights_desc();
      e->scratch_md = pd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::convolution_backward_data>(pd);
      add_reorder(*e, true);
    } else {
      dnnl::convolution_backward_weights::primitive_desc pd(
          dnnl::convolution_backward_weights::desc(dnnl::algorithm::convolution_direct, src, w, dst,
                                                   strides, dil, pl, pr),
          attr, onednn::engine(), fwd);
      e->weights_md = pd.diff_weights_desc();
      e->scratch_md = pd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::convolution_backward_weights>(pd);
      add_reorder(*e, false);
    }
  } catch (const dnnl::error&) {
    e->prim.reset();
  }
  return e;
}

std::shared_ptr<const Entry> lookup(int64_t dir, const ConvGeometry& g, const Activation* act,
                                    bool bias) {
  std::shared_ptr<const Entry> e =
      cache().get(key_of(dir, g, act, bias), [&] { return build(dir, g, act, bias); });
  if (!e->prim) cache().count_fallback();
  return e;
}

// Runs `e.reorder` from `from` into `to`.
void reorder(const Entry& e, const memory& from, const memory& to) {
  onednn::execute(*e.reorder, e.reorder_scratch_md, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

// One-thread estimate of a convolution (forward or either gradient: the same FLOPs).
double work_ns(const ConvGeometry& g) {
  const double flops = 2.0 * static_cast<double>(g.batch) * static_cast<double>(g.out_h) *
                       static_cast<double>(g.out_w) * static_cast<double>(g.out_c) *
                       static_cast<double>(g.f_h) * static_cast<double>(g.f_w) *
                       static_cast<double>(g.f_in_c);
  return kernels::matmul_work_ns(flops);
}

// Images [lo, hi) of the batch as a geometry of their own.
ConvGeometry images(const ConvGeometry& g, int64_t lo, int64_t hi) {
  ConvGeometry s = g;
  s.batch = hi - lo;
  return s;
}
int64_t in_image(const ConvGeometry& g) { return g.in_h * g.in_w * g.in_c; }
int64_t out_image(const ConvGeometry& g) { return g.out_h * g.out_w * g.out_c; }

// The filter as the primitives of a geometry read it: the user's HWIO array, or a copy reordered
// once (before the batch is split) into the layout oneDNN chose for the whole batch, which the
// primitives of its slices choose too (a slice that wants another layout reorders its own).
class Filter {
 public:
  Filter(const Entry& whole, const float* f)
      : whole_(whole), user_(onednn::wrap(whole.user_weights_md, f)) {
    if (!whole.reorder) return;
    buf_ = Tensor::empty(uint8, Shape{static_cast<int64_t>(whole.weights_md.get_size())});
    reordered_ = memory(whole.weights_md, onednn::engine(), buf_.mutable_raw_data());
    reorder(whole, user_, reordered_);
  }
  // The filter for a slice's entry; `own` holds a copy the slice had to reorder itself.
  memory for_entry(const Entry& e, Tensor* own) const {
    if (!e.reorder) return user_;
    if (whole_.reorder && e.weights_md == whole_.weights_md) return reordered_;
    *own = Tensor::empty(uint8, Shape{static_cast<int64_t>(e.weights_md.get_size())});
    memory w(e.weights_md, onednn::engine(), own->mutable_raw_data());
    reorder(e, user_, w);
    return w;
  }

 private:
  const Entry& whole_;
  memory user_;
  Tensor buf_;
  memory reordered_;
};

}  // namespace

bool eltwise_algorithm(const Activation& act, dnnl::algorithm* alg, float* alpha, float* beta) {
  return onednn::eltwise_algorithm(act.name, act.alpha, alg, alpha, beta);
}

// Under the pool runtime each call below runs oneDNN on one thread per slice of the batch
// (kernels::onednn_split): the images of a forward or input-gradient convolution are
// independent, and the filter gradient sums per-slice partial gradients in slice order.

bool forward(const ConvGeometry& g, const float* x, const float* f, const float* bias,
             const Activation& act, float* y) {
  std::shared_ptr<const Entry> whole;
  std::optional<Filter> filter;
  const bool found = kernels::onednn_whole(work_ns(g), [&] {
    whole = lookup(kForward, g, &act, bias != nullptr);
    if (whole->prim) filter.emplace(*whole, f);
    return whole->prim != nullptr;
  });
  if (!found) return false;
  return kernels::onednn_split(g.batch, work_ns(g), 1, [&](int64_t lo, int64_t hi) {
    const ConvGeometry s = images(g, lo, hi);
    std::shared_ptr<const Entry> e =
        hi - lo == g.batch ? whole : lookup(kForward, s, &act, bias != nullptr);
    if (!e->prim) return false;
    Tensor own;
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, onednn::wrap(act_md(s.batch, s.in_c, s.in_h, s.in_w), x + lo * in_image(g))},
        {DNNL_ARG_WEIGHTS, filter->for_entry(*e, &own)},
        {DNNL_ARG_DST,
         onednn::wrap(act_md(s.batch, s.out_c, s.out_h, s.out_w), y + lo * out_image(g))}};
    if (bias)
      args.emplace(DNNL_ARG_BIAS, onednn::wrap(memory::desc({g.out_c}, dt::f32, tag::a), bias));
    onednn::execute(*e->prim, e->scratch_md, std::move(args));
    return true;
  });
}

bool backward_data(const ConvGeometry& g, const float* f, const float* dy, float* dx) {
  std::shared_ptr<const Entry> whole;
  std::optional<Filter> filter;
  const bool found = kernels::onednn_whole(work_ns(g), [&] {
    whole = lookup(kBackwardData, g, nullptr, false);
    if (whole->prim) filter.emplace(*whole, f);
    return whole->prim != nullptr;
  });
  if (!found) return false;
  return kernels::onednn_split(g.batch, work_ns(g), 1, [&](int64_t lo, int64_t hi) {
    const ConvGeometry s = images(g, lo, hi);
    std::shared_ptr<const Entry> e =
        hi - lo == g.batch ? whole : lookup(kBackwardData, s, nullptr, false);
    if (!e->prim) return false;
    Tensor own;
    onednn::execute(*e->prim, e->scratch_md,
                    {{DNNL_ARG_DIFF_SRC,
                      onednn::wrap(act_md(s.batch, s.in_c, s.in_h, s.in_w), dx + lo * in_image(g))},
                     {DNNL_ARG_WEIGHTS, filter->for_entry(*e, &own)},
                     {DNNL_ARG_DIFF_DST, onednn::wrap(act_md(s.batch, s.out_c, s.out_h, s.out_w),
                                                      dy + lo * out_image(g))}});
    return true;
  });
}

namespace {

// The filter gradient of images [lo, hi) into df (the user's HWIO layout).
bool backward_weights_images(const ConvGeometry& g, int64_t lo, int64_t hi, const float* x,
                             const float* dy, float* df) {
  const ConvGeometry s = images(g, lo, hi);
  std::shared_ptr<const Entry> e = lookup(kBackwardWeights, s, nullptr, false);
  if (!e->prim) return false;
  memory wu = onednn::wrap(e->user_weights_md, df);
  Tensor wbuf;
  memory w = wu;
  if (e->reorder) {
    wbuf = Tensor::empty(uint8, Shape{static_cast<int64_t>(e->weights_md.get_size())});
    w = memory(e->weights_md, onednn::engine(), wbuf.mutable_raw_data());
  }
  onednn::execute(
      *e->prim, e->scratch_md,
      {{DNNL_ARG_SRC, onednn::wrap(act_md(s.batch, s.in_c, s.in_h, s.in_w), x + lo * in_image(g))},
       {DNNL_ARG_DIFF_WEIGHTS, w},
       {DNNL_ARG_DIFF_DST,
        onednn::wrap(act_md(s.batch, s.out_c, s.out_h, s.out_w), dy + lo * out_image(g))}});
  if (e->reorder) reorder(*e, w, wu);
  return true;
}

}  // namespace

bool backward_weights(const ConvGeometry& g, const float* x, const float* dy, float* df) {
  const double work = work_ns(g);
  const int threads = parallel::runtime() == parallel::Runtime::kPool
                          ? parallel::threads_for(g.batch, work / static_cast<double>(g.batch),
                                                  kernels::intra_op_threads())
                          : 1;
  if (threads <= 1) {
    return kernels::onednn_whole(work,
                                 [&] { return backward_weights_images(g, 0, g.batch, x, dy, df); });
  }
  // Slices of the batch claimed by the pool, each writing its own partial gradient; two per
  // thread keep a late thread's share small without many partials to add.
  const int64_t parts = std::min<int64_t>(g.batch, 2 * threads);
  const int64_t size = g.f_h * g.f_w * g.f_in_c * g.out_c;
  Tensor partial = Tensor::empty(float32, Shape{parts, size});
  float* pp = partial.mutable_data<float>();
  std::atomic<bool> ok{true};
  {
    kernels::OneOmpThread one;
    parallel::parallel_for(
        parts, 2 * parallel::kMinParallelWorkNs, threads,
        [&](int64_t lo, int64_t hi) {
          for (int64_t c = lo; c < hi; ++c) {
            if (!backward_weights_images(g, g.batch * c / parts, g.batch * (c + 1) / parts, x, dy,
                                         pp + c * size)) {
              ok.store(false, std::memory_order_relaxed);
            }
          }
        },
        /*align=*/1);
  }
  if (!ok.load()) return false;
  kernels::parallel_for(size, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      float sum = pp[i];
      for (int64_t c = 1; c < parts; ++c) sum += pp[c * size + i];
      df[i] = sum;
    }
  });
  return true;
}

}  // namespace tfcc::conv_onednn

namespace tfcc {
onednn::CacheStats conv_cache_stats() { return conv_onednn::cache().stats(); }
}  // namespace tfcc
