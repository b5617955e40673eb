// float32 batch normalisation on oneDNN: channels-last data as [m, c, 1, 1] in nhwc layout
// (oneDNN's channels-last implementation; a plain "nc" 2-D array takes its channel-first path,
// 20x slower on [43264, 32]). Primitives
// are cached by (direction, training, m, c, epsilon, thread count), so a repeated shape reuses
// its primitive; each execution gets its own scratchpad (Debian's oneDNN shares the library
// one between concurrent executions otherwise, see linalg_cpu.cc).
#include <omp.h>

#include <atomic>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/ops/linalg/onednn.h"
#include "tfcc/ops/nn/nn_internal.h"

namespace tfcc::nn_internal {
namespace {

using dnnl::memory;
using Flags = dnnl::normalization_flags;

// The shared engine (it applies TFCC_MAX_CPU_ISA's cap before oneDNN's first use).
dnnl::engine& engine() { return onednn::engine(); }

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

struct Entry {
  std::unique_ptr<dnnl::primitive> prim;  // null: oneDNN rejected the problem
  memory::desc data_md, stat_md, scratch_md;
};

struct Cache {
  std::mutex mu;
  std::map<std::vector<int64_t>, std::shared_ptr<const Entry>> entries;
  std::atomic<int64_t> hits{0}, misses{0};
};

Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

std::shared_ptr<const Entry> get(bool backward, bool training, int64_t m, int64_t c,
                                 double epsilon) {
  // Out-of-float-range or NaN epsilons stay with the loops (no UB in the conversion).
  if (!(epsilon >= 0 && epsilon <= 1e30)) return std::make_shared<const Entry>();
  const float eps = static_cast<float>(epsilon);
  std::vector<int64_t> key = {backward,
                              training,
                              m,
                              c,
                              static_cast<int64_t>(std::bit_cast<uint32_t>(eps)),
                              static_cast<int64_t>(omp_get_max_threads())};
  Cache& cc = cache();
  {
    std::lock_guard lock(cc.mu);
    auto it = cc.entries.find(key);
    if (it != cc.entries.end()) {
      cc.hits.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
  }
  auto e = std::make_shared<Entry>();
  e->data_md = memory::desc({m, c, 1, 1}, memory::data_type::f32, memory::format_tag::nhwc);
  e->stat_md = memory::desc({c}, memory::data_type::f32, memory::format_tag::a);
  Flags flags = Flags::use_scale | Flags::use_shift;
  if (!training) flags = flags | Flags::use_global_stats;
  try {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::batch_normalization_forward::desc fd(
        training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference,
        e->data_md, eps, flags);
    dnnl::batch_normalization_forward::primitive_desc fpd(fd, attr, engine());
    if (!backward) {
      e->scratch_md = fpd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::batch_normalization_forward>(fpd);
    } else {
      dnnl::batch_normalization_backward::desc bd(dnnl::prop_kind::backward, e->data_md, e->data_md,
                                                  eps, flags);
      dnnl::batch_normalization_backward::primitive_desc bpd(bd, attr, engine(), fpd);
      e->scratch_md = bpd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::batch_normalization_backward>(bpd);
    }
  } catch (const dnnl::error&) {
    e->prim.reset();
  }
  std::lock_guard lock(cc.mu);
  cc.misses.fetch_add(1, std::memory_order_relaxed);
  auto [it, inserted] = cc.entries.emplace(std::move(key), std::move(e));
  return it->second;
}

memory mem(const memory::desc& md, const float* p) {
  return memory(md, engine(), const_cast<float*>(p));
}

void run(const Entry& e, std::unordered_map<int, memory> args) {
  const size_t bytes = e.scratch_md.get_size();
  Tensor scratch;
  if (bytes > 0) scratch = Tensor::empty(uint8, Shape{static_cast<int64_t>(bytes)});
  args.emplace(DNNL_ARG_SCRATCHPAD,
               memory(e.scratch_md, engine(), bytes ? scratch.mutable_raw_data() : nullptr));
  dnnl::stream& s = stream();
  e.prim->execute(s, args);
  s.wait();
}

}  // namespace

bool onednn_batch_norm_forward(int64_t m, int64_t c, const float* x, const float* scale,
                               const float* offset, float* mean, float* var, float* y,
                               double epsilon, bool training) {
  std::shared_ptr<const Entry> e = get(false, training, m, c, epsilon);
  if (!e->prim) return false;
  run(*e, {{DNNL_ARG_SRC, mem(e->data_md, x)},
           {DNNL_ARG_DST, mem(e->data_md, y)},
           {DNNL_ARG_SCALE, mem(e->stat_md, scale)},
           {DNNL_ARG_SHIFT, mem(e->stat_md, offset)},
           {DNNL_ARG_MEAN, mem(e->stat_md, mean)},
           {DNNL_ARG_VARIANCE, mem(e->stat_md, var)}});
  return true;
}

bool onednn_batch_norm_backward(int64_t m, int64_t c, const float* dy, const float* x,
                                const float* scale, const float* mean, const float* var, float* dx,
                                float* dscale, float* doffset, double epsilon, bool training) {
  std::shared_ptr<const Entry> e = get(true, training, m, c, epsilon);
  if (!e->prim) return false;
  run(*e, {{DNNL_ARG_SRC, mem(e->data_md, x)},
           {DNNL_ARG_DIFF_DST, mem(e->data_md, dy)},
           {DNNL_ARG_SCALE, mem(e->stat_md, scale)},
           // The backward primitive asks for the shift it never reads (the gradient does not
           // depend on the offset); any [c] buffer serves.
           {DNNL_ARG_SHIFT, mem(e->stat_md, scale)},
           {DNNL_ARG_MEAN, mem(e->stat_md, mean)},
           {DNNL_ARG_VARIANCE, mem(e->stat_md, var)},
           {DNNL_ARG_DIFF_SRC, mem(e->data_md, dx)},
           {DNNL_ARG_DIFF_SCALE, mem(e->stat_md, dscale)},
           {DNNL_ARG_DIFF_SHIFT, mem(e->stat_md, doffset)}});
  return true;
}

BatchNormCacheStats batch_norm_cache_stats() {
  Cache& c = cache();
  BatchNormCacheStats s;
  s.hits = c.hits.load();
  s.misses = c.misses.load();
  std::lock_guard lock(c.mu);
  s.entries = static_cast<int64_t>(c.entries.size());
  return s;
}

}  // namespace tfcc::nn_internal
