// float32 Conv3D and its gradients on oneDNN's 3-D convolution primitives. Activations stay
// NDHWC (no reorder of the large tensors); the DHWIO filter is described to oneDNN by strides and,
// when the primitive prefers a blocked layout, reordered (the filter is small). Primitives are
// cached per geometry, direction and thread count. The forward and input-gradient calls split the
// batch over tfcc's pool (kernels::onednn_split); the filter gradient runs as one call.
#include "tfcc/ops/conv3d/conv3d_onednn.h"

#include "tfcc/core/tensor.h"
#include "tfcc/ops/onednn_split.h"

namespace tfcc::conv3d_onednn {
namespace {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

enum Direction : int64_t { kForward = 201, kBackwardData = 202, kBackwardWeights = 203 };

struct Entry {
  std::unique_ptr<dnnl::primitive> prim;  // null: rejected
  memory::desc scratch_md, weights_md, user_weights_md;
  std::unique_ptr<dnnl::reorder> reorder;  // user <-> primitive weights, when they differ
  memory::desc reorder_scratch_md;
};

onednn::PrimitiveCache<Entry>& cache() {
  static auto* c = new onednn::PrimitiveCache<Entry>;
  return *c;
}

memory::desc act_md(int64_t n, int64_t c, const std::array<int64_t, 3>& s) {
  return memory::desc({n, c, s[0], s[1], s[2]}, dt::f32, tag::ndhwc);
}

// DHWIO as oneDNN's (O, I, D, H, W) with strides.
memory::desc user_weights(const Window3D& g) {
  const int64_t oc = g.out_c, ic = g.in_c;
  return memory::desc({oc, ic, g.k[0], g.k[1], g.k[2]}, dt::f32,
                      memory::dims{1, oc, g.k[1] * g.k[2] * ic * oc, g.k[2] * ic * oc, ic * oc});
}

std::vector<int64_t> key_of(int64_t dir, const Window3D& g) {
  std::vector<int64_t> k = onednn::key_prefix(dir);
  for (int64_t v : {g.batch, g.in_c, g.out_c}) k.push_back(v);
  for (const auto* a : {&g.in, &g.k, &g.stride, &g.dil, &g.out, &g.pad}) {
    for (int64_t v : *a) k.push_back(v);
  }
  return k;
}

void add_reorder(Entry& e, bool to_primitive) {
  if (e.weights_md == e.user_weights_md) return;
  const memory::desc& from = to_primitive ? e.user_weights_md : e.weights_md;
  const memory::desc& to = to_primitive ? e.weights_md : e.user_weights_md;
  dnnl::reorder::primitive_desc rpd(onednn::engine(), from, onednn::engine(), to,
                                    onednn::user_scratchpad_attr());
  e.reorder_scratch_md = rpd.scratchpad_desc();
  e.reorder = std::make_unique<dnnl::reorder>(rpd);
}

std::shared_ptr<Entry> build(int64_t dir, const Window3D& g) {
  auto e = std::make_shared<Entry>();
  e->user_weights_md = user_weights(g);
  try {
    const dnnl::primitive_attr attr = onednn::user_scratchpad_attr();
    const memory::desc w({g.out_c, g.in_c, g.k[0], g.k[1], g.k[2]}, dt::f32, tag::any);
    const memory::desc src = act_md(g.batch, g.in_c, g.in);
    const memory::desc dst = act_md(g.batch, g.out_c, g.out);
    const memory::dims strides{g.stride[0], g.stride[1], g.stride[2]},
        dil{g.dil[0] - 1, g.dil[1] - 1, g.dil[2] - 1}, pl{g.pad[0], g.pad[1], g.pad[2]};
    memory::dims pr(3);
    for (size_t i = 0; i < 3; ++i) {
      // Padding after: what the last window reaches past the input.
      const int64_t eff = (g.k[i] - 1) * g.dil[i] + 1;
      pr[i] = std::max<int64_t>(0, (g.out[i] - 1) * g.stride[i] + eff - g.in[i] - g.pad[i]);
    }
    dnnl::convolution_forward::primitive_desc fwd(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                        dnnl::algorithm::convolution_direct, src, w, dst, strides,
                                        dil, pl, pr),
        attr, onednn::engine());
    if (dir == kForward) {
      e->weights_md = fwd.weights_desc();
      e->scratch_md = fwd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::convolution_forward>(fwd);
      add_reorder(*e, true);
    } else if (dir == kBackwardData) {
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

std::shared_ptr<const Entry> lookup(int64_t dir, const Window3D& g) {
  std::shared_ptr<const Entry> e = cache().get(key_of(dir, g), [&] { return build(dir, g); });
  if (!e->prim) cache().count_fallback();
  return e;
}

double work_ns(const Window3D& g) {
  double flops = 2.0 * static_cast<double>(g.batch * g.out_c * g.in_c);
  for (size_t i = 0; i < 3; ++i) flops *= static_cast<double>(g.out[i] * g.k[i]);
  return kernels::matmul_work_ns(flops);
}

Window3D images(const Window3D& g, int64_t lo, int64_t hi) {
  Window3D s = g;
  s.batch = hi - lo;
  return s;
}
int64_t in_image(const Window3D& g) { return g.in[0] * g.in[1] * g.in[2] * g.in_c; }
int64_t out_image(const Window3D& g) { return g.out[0] * g.out[1] * g.out[2] * g.out_c; }

// The filter as entry `e` reads it: the user's array, or a copy reordered into `own`.
memory filter_for(const Entry& e, const float* f, Tensor* own) {
  memory user = onednn::wrap(e.user_weights_md, f);
  if (!e.reorder) return user;
  *own = Tensor::empty(uint8, Shape{static_cast<int64_t>(e.weights_md.get_size())});
  memory w(e.weights_md, onednn::engine(), own->mutable_raw_data());
  onednn::execute(*e.reorder, e.reorder_scratch_md, {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, w}});
  return w;
}

// Runs the forward (x -> y) or input-gradient (dy -> dx) primitive over slices of the batch.
bool data_pass(int64_t dir, const Window3D& g, const float* f, const float* a, float* b) {
  return kernels::onednn_split(g.batch, work_ns(g), 1, [&](int64_t lo, int64_t hi) {
    const Window3D s = images(g, lo, hi);
    std::shared_ptr<const Entry> e = lookup(dir, s);
    if (!e->prim) return false;
    Tensor own;
    const memory w = filter_for(*e, f, &own);
    const memory in = onednn::wrap(act_md(s.batch, s.in_c, s.in),
                                   dir == kForward ? a + lo * in_image(g) : b + lo * in_image(g));
    const memory out =
        onednn::wrap(act_md(s.batch, s.out_c, s.out),
                     dir == kForward ? b + lo * out_image(g) : a + lo * out_image(g));
    if (dir == kForward) {
      onednn::execute(*e->prim, e->scratch_md,
                      {{DNNL_ARG_SRC, in}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, out}});
    } else {
      onednn::execute(*e->prim, e->scratch_md,
                      {{DNNL_ARG_DIFF_SRC, in}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DIFF_DST, out}});
    }
    return true;
  });
}

}  // namespace

bool forward(const Window3D& g, const float* x, const float* f, float* y) {
  return data_pass(kForward, g, f, x, y);
}

bool backward_data(const Window3D& g, const float* f, const float* dy, float* dx) {
  return data_pass(kBackwardData, g, f, dy, dx);
}

bool backward_weights(const Window3D& g, const float* x, const float* dy, float* df) {
  return kernels::onednn_whole(work_ns(g), [&] {
    std::shared_ptr<const Entry> e = lookup(kBackwardWeights, g);
    if (!e->prim) return false;
    const memory user = onednn::wrap(e->user_weights_md, df);
    Tensor buf;
    memory w = user;
    if (e->reorder) {
      buf = Tensor::empty(uint8, Shape{static_cast<int64_t>(e->weights_md.get_size())});
      w = memory(e->weights_md, onednn::engine(), buf.mutable_raw_data());
    }
    onednn::execute(*e->prim, e->scratch_md,
                    {{DNNL_ARG_SRC, onednn::wrap(act_md(g.batch, g.in_c, g.in), x)},
                     {DNNL_ARG_DIFF_WEIGHTS, w},
                     {DNNL_ARG_DIFF_DST, onednn::wrap(act_md(g.batch, g.out_c, g.out), dy)}});
    if (e->reorder) {
      onednn::execute(*e->reorder, e->reorder_scratch_md,
                      {{DNNL_ARG_FROM, w}, {DNNL_ARG_TO, user}});
    }
    return true;
  });
}

}  // namespace tfcc::conv3d_onednn

namespace tfcc {
onednn::CacheStats conv3d_cache_stats() { return conv3d_onednn::cache().stats(); }
}  // namespace tfcc
