// CPU kernels of the linalg family. float32 matmuls run on oneDNN's matmul primitive, with the
// transposes folded into the memory descriptors' strides and broadcast batch dims expressed as
// size-1 dims; primitives are cached by (shapes, transposes, dtype). oneDNN has no float64 or
// integer matmul: those run a blocked C++ loop (integers wrap, computed in unsigned arithmetic).
#include <omp.h>

#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/linalg/fused.h"
#include "tfcc/ops/linalg/linalg_internal.h"
#include "tfcc/ops/linalg/onednn.h"
#include "tfcc/ops/onednn_split.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

// The problem after broadcasting: out[b] = op_a(A[a_off(b)]) @ op_b(B[b_off(b)]).
struct Problem {
  int64_t m = 0, k = 0, n = 0;
  bool ta = false, tb = false;
  std::vector<int64_t> out_batch;         // broadcast batch dims
  std::vector<int64_t> a_batch, b_batch;  // padded to out_batch's rank, 1 where broadcast
  int64_t batch_size() const {
    int64_t s = 1;
    for (int64_t d : out_batch) s *= d;
    return s;
  }
};

Problem make_problem(const KernelContext& c) {
  const Shape &sa = c.input(0).shape(), &sb = c.input(1).shape();
  Problem p;
  if (c.op().name() != "BatchMatMulV2") {
    p.ta = c.attr<bool>("transpose_a");
    p.tb = c.attr<bool>("transpose_b");
  } else {
    p.ta = c.attr<bool>("adj_x");
    p.tb = c.attr<bool>("adj_y");
  }
  const int ra = sa.rank(), rb = sb.rank();
  p.m = sa.dim(p.ta ? ra - 1 : ra - 2);
  p.k = sa.dim(p.ta ? ra - 2 : ra - 1);
  p.n = sb.dim(p.tb ? rb - 2 : rb - 1);
  const int batch = std::max(ra, rb) - 2;
  for (int i = 0; i < batch; ++i) {
    const int ia = i - (batch - (ra - 2)), ib = i - (batch - (rb - 2));
    const int64_t da = ia >= 0 ? sa.dim(ia) : 1, db = ib >= 0 ? sb.dim(ib) : 1;
    p.a_batch.push_back(da);
    p.b_batch.push_back(db);
    p.out_batch.push_back(da == 1 ? db : da);
  }
  return p;
}

// ---- The generic loop (float64, integers, and float32 shapes oneDNN cannot take). ----

template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, int32_t>, uint32_t,
                               std::conditional_t<std::is_same_v<T, int64_t>, uint64_t, T>>;

template <typename T>
void matmul_loop(const Problem& p, const T* a, const T* b, T* c) {
  const int64_t m = p.m, k = p.k, n = p.n;
  const int64_t batches = p.batch_size();
  const int rank = static_cast<int>(p.out_batch.size());
  // Element offsets of each batch of A and B (broadcast dims repeat).
  std::vector<int64_t> a_off(static_cast<size_t>(batches)), b_off(static_cast<size_t>(batches));
  for (int64_t ob = 0; ob < batches; ++ob) {
    int64_t rem = ob, ia = 0, ib = 0, sa = m * k, sb = k * n;
    for (int i = rank - 1; i >= 0; --i) {
      const int64_t idx = rem % p.out_batch[size_t(i)];
      rem /= p.out_batch[size_t(i)];
      if (p.a_batch[size_t(i)] != 1) ia += idx * sa;
      if (p.b_batch[size_t(i)] != 1) ib += idx * sb;
      sa *= p.a_batch[size_t(i)];
      sb *= p.b_batch[size_t(i)];
    }
    a_off[size_t(ob)] = ia;
    b_off[size_t(ob)] = ib;
  }
  constexpr int64_t kRows = 4;  // rows of C computed together, sharing each row of B
  const int64_t tiles_per_batch = (m + kRows - 1) / kRows;
  const int64_t work_per_tile = std::max<int64_t>(1, kRows * k * std::max<int64_t>(n, 1));
  parallel_for(
      batches * tiles_per_batch,
      [&](int64_t lo, int64_t hi) {
        std::vector<Acc<T>> arow(static_cast<size_t>(kRows * k)),
            acc(static_cast<size_t>(kRows * n));
        for (int64_t t = lo; t < hi; ++t) {
          const int64_t ob = t / tiles_per_batch;
          const int64_t m0 = (t % tiles_per_batch) * kRows;
          const int64_t rows = std::min(kRows, m - m0);
          const T* pa = a + a_off[size_t(ob)];
          const T* pb = b + b_off[size_t(ob)];
          // Gather op_a(A)[m0 + r, :] contiguously.
          for (int64_t r = 0; r < rows; ++r) {
            for (int64_t kk = 0; kk < k; ++kk) {
              arow[size_t(r * k + kk)] =
                  Acc<T>(p.ta ? pa[kk * m + (m0 + r)] : pa[(m0 + r) * k + kk]);
            }
          }
          std::fill(acc.begin(), acc.end(), Acc<T>(0));
          if (!p.tb) {
            // acc[r, :] += A[r, kk] * B[kk, :]   (B rows contiguous)
            for (int64_t kk = 0; kk < k; ++kk) {
              const T* brow = pb + kk * n;
              for (int64_t r = 0; r < rows; ++r) {
                const Acc<T> av = arow[size_t(r * k + kk)];
                Acc<T>* cr = acc.data() + r * n;
                for (int64_t j = 0; j < n; ++j) cr[j] += av * Acc<T>(brow[j]);
              }
            }
          } else {
            // acc[r, j] = A[r, :] . B^T[j, :]   (B stored [n, k]: rows contiguous in k)
            for (int64_t j = 0; j < n; ++j) {
              const T* bcol = pb + j * k;
              for (int64_t r = 0; r < rows; ++r) {
                const Acc<T>* ar = arow.data() + r * k;
                Acc<T> s = 0;
                for (int64_t kk = 0; kk < k; ++kk) s += ar[kk] * Acc<T>(bcol[kk]);
                acc[size_t(r * n + j)] = s;
              }
            }
          }
          T* pc = c + (ob * m + m0) * n;
          for (int64_t i = 0; i < rows * n; ++i) pc[i] = static_cast<T>(acc[size_t(i)]);
        }
      },
      std::max<int64_t>(1, (int64_t{1} << 18) / work_per_tile));
}

// ---- oneDNN ----

double matmul_work_ns(const Problem& p) {
  return kernels::matmul_work_ns(2.0 * static_cast<double>(p.batch_size()) *
                                 static_cast<double>(p.m) * static_cast<double>(p.n) *
                                 static_cast<double>(p.k));
}

using onednn::apply_isa_cap;
using onednn::engine;
using onednn::stream;

struct CacheEntry {
  std::unique_ptr<dnnl::matmul> prim;  // null: oneDNN rejected the problem (use the loop)
  dnnl::memory::desc a_md, b_md, c_md, scratch_md;
};

struct Cache {
  std::mutex mu;
  std::map<std::vector<int64_t>, std::shared_ptr<const CacheEntry>> entries;
  std::atomic<int64_t> hits{0}, misses{0}, fallbacks{0};
};

Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

// Batch dims merged where A and B broadcast alike, so most problems have one batch dim.
struct Collapsed {
  std::vector<int64_t> a, b, out;
};
Collapsed collapse(const Problem& p) {
  Collapsed r;
  int last_kind = -1;
  for (size_t i = 0; i < p.out_batch.size(); ++i) {
    const int64_t da = p.a_batch[i], db = p.b_batch[i], d = p.out_batch[i];
    if (d == 1) continue;
    const int kind = da == db ? 0 : (da == 1 ? 1 : 2);
    if (kind == last_kind) {
      r.a.back() *= da;
      r.b.back() *= db;
      r.out.back() *= d;
    } else {
      r.a.push_back(da);
      r.b.push_back(db);
      r.out.push_back(d);
      last_kind = kind;
    }
  }
  return r;
}

// Strides of a row-major [batch..., rows, cols] array seen as [batch..., x, y] where
// (x, y) = (rows, cols), or (cols, rows) when transposed.
dnnl::memory::desc strided_desc(const std::vector<int64_t>& batch, int64_t rows, int64_t cols,
                                bool transposed) {
  const size_t nd = batch.size() + 2;
  dnnl::memory::dims dims(nd), strides(nd);
  dims[nd - 2] = transposed ? cols : rows;
  dims[nd - 1] = transposed ? rows : cols;
  strides[nd - 2] = transposed ? 1 : cols;
  strides[nd - 1] = transposed ? cols : 1;
  int64_t s = rows * cols;
  for (size_t i = batch.size(); i-- > 0;) {
    dims[i] = batch[i];
    strides[i] = s;
    s *= batch[i];
  }
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

std::shared_ptr<const CacheEntry> get_primitive(const Problem& p, const Collapsed& cb) {
  // The thread count is part of the key: oneDNN fixes a primitive's parallel plan when it is
  // created, so a primitive made under 1 thread would run on 1 thread forever.
  std::vector<int64_t> key = {static_cast<int64_t>(float32),
                              p.m,
                              p.k,
                              p.n,
                              p.ta,
                              p.tb,
                              static_cast<int64_t>(omp_get_max_threads()),
                              static_cast<int64_t>(cb.out.size())};
  key.insert(key.end(), cb.a.begin(), cb.a.end());
  key.insert(key.end(), cb.b.begin(), cb.b.end());
  Cache& c = cache();
  {
    std::lock_guard lock(c.mu);
    auto it = c.entries.find(key);
    if (it != c.entries.end()) {
      c.hits.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
  }
  // Build outside the lock (primitive creation can take a while); a racing builder of the same
  // key just loses its copy.
  auto e = std::make_shared<CacheEntry>();
  e->a_md = p.ta ? strided_desc(cb.a, p.k, p.m, true) : strided_desc(cb.a, p.m, p.k, false);
  e->b_md = p.tb ? strided_desc(cb.b, p.n, p.k, true) : strided_desc(cb.b, p.k, p.n, false);
  e->c_md = strided_desc(cb.out, p.m, p.n, false);
  try {
    dnnl::matmul::desc d(e->a_md, e->b_md, e->c_md);
    // User-managed scratchpad: Debian's oneDNN shares one library scratchpad between concurrent
    // executions (it is not built with DNNL_ENABLE_CONCURRENT_EXEC), which corrupts results when
    // two threads run a matmul at once. Each execution gets its own from tfcc's allocator.
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::matmul::primitive_desc pd(d, attr, engine());
    e->scratch_md = pd.scratchpad_desc();
    e->prim = std::make_unique<dnnl::matmul>(pd);
  } catch (const dnnl::error&) {
    e->prim.reset();
  }
  std::lock_guard lock(c.mu);
  c.misses.fetch_add(1, std::memory_order_relaxed);
  auto [it, inserted] = c.entries.emplace(std::move(key), std::move(e));
  return it->second;
}

// Runs the batched matmul primitive on batches [lo, hi) of the leading collapsed batch dim.
bool run_primitive(const Problem& p, const Collapsed& cb, int64_t lo, int64_t hi, const float* a,
                   const float* b, float* c) {
  auto inner = [](const std::vector<int64_t>& dims) {
    int64_t s = 1;
    for (size_t i = 1; i < dims.size(); ++i) s *= dims[i];
    return s;
  };
  Collapsed s = cb;
  s.out[0] = hi - lo;
  if (cb.a[0] != 1) s.a[0] = hi - lo;
  if (cb.b[0] != 1) s.b[0] = hi - lo;
  std::shared_ptr<const CacheEntry> e = get_primitive(p, s);
  if (!e->prim) return false;
  const float* pa = a + (cb.a[0] == 1 ? 0 : lo * inner(cb.a) * p.m * p.k);
  const float* pb = b + (cb.b[0] == 1 ? 0 : lo * inner(cb.b) * p.k * p.n);
  float* pc = c + lo * inner(cb.out) * p.m * p.n;
  onednn::execute(*e->prim, e->scratch_md,
                  {{DNNL_ARG_SRC, onednn::wrap(e->a_md, pa)},
                   {DNNL_ARG_WEIGHTS, onednn::wrap(e->b_md, pb)},
                   {DNNL_ARG_DST, dnnl::memory(e->c_md, engine(), pc)}});
  return true;
}

// A single matrix product restricted to rows [lo, hi) of C (`rows`) or to its columns [lo, hi),
// through oneDNN's BLAS-style sgemm: it beats the matmul primitive here (about 180 against 150
// GFLOP/s on one core, shared/research/machine.md) and needs no primitive. Row-major, so the
// leading dimensions are the stored column counts.
bool run_sgemm(const Problem& p, bool rows, int64_t lo, int64_t hi, const float* a, const float* b,
               float* c) {
  const int64_t lda = p.ta ? p.m : p.k, ldb = p.tb ? p.k : p.n;
  int64_t m = p.m, n = p.n;
  if (rows) {
    m = hi - lo;
    a += p.ta ? lo : lo * p.k;
    c += lo * p.n;
  } else {
    n = hi - lo;
    b += p.tb ? lo * p.k : lo;
    c += lo;
  }
  return dnnl_sgemm(p.ta ? 'T' : 'N', p.tb ? 'T' : 'N', m, n, p.k, 1.0f, a, lda, b, ldb, 0.0f, c,
                    p.n) == dnnl_success;
}

// Slice boundaries for splitting `dim` rows or columns of a product of `work` ns: about two
// blocks per thread (each block repacks the other operand), multiples of 16.
int64_t block_align(int64_t dim, double work) {
  const int t =
      parallel::threads_for(dim, work / static_cast<double>(dim), kernels::intra_op_threads());
  if (t <= 1) return 16;
  const int64_t per = (dim + 2 * t - 1) / (2 * t);
  return std::max<int64_t>(16, (per + 15) / 16 * 16);
}

// The intra-op threads a single product of `work` ns gets on the pool (1: one call).
int product_threads(const Problem& p, double work) {
  if (parallel::runtime() != parallel::Runtime::kPool) return 1;
  const int64_t longest = std::max({p.m, p.n, p.k});
  return parallel::threads_for(longest, work / static_cast<double>(longest),
                               kernels::intra_op_threads());
}

// Whether a single product split in `parts` moves least memory when cut along k (partial
// products added afterwards) rather than by rows or columns of C: oneDNN's sgemm packs both
// operands per call, so each block of rows repacks all of B and each block of columns all of A,
// while each k block only writes a partial C that is read once. A Dense layer's 64 x 5408 x 64
// product (the seed CNN's) is the case: by rows it repacked 1.4 MB per block.
bool split_depth(const Problem& p, int64_t parts) {
  const double m = static_cast<double>(p.m), n = static_cast<double>(p.n),
               k = static_cast<double>(p.k), extra = static_cast<double>(parts - 1);
  const double by_depth = 2.0 * static_cast<double>(parts) * m * n;
  return p.k >= 16 * parts && by_depth < extra * k * std::min(m, n);
}

// C = A B cut along k into `parts` blocks run on the pool, one OpenMP thread each: block 0 into
// C, the others into partial products added to C in block order.
bool run_depth_split(const Problem& p, int threads, const float* a, const float* b, float* c) {
  const int64_t parts = 2 * static_cast<int64_t>(threads);
  const int64_t mn = p.m * p.n, lda = p.ta ? p.m : p.k, ldb = p.tb ? p.k : p.n;
  Tensor partial = Tensor::empty(float32, Shape{parts - 1, mn});
  float* pp = partial.mutable_data<float>();
  std::atomic<bool> ok{true};
  {
    kernels::OneOmpThread one;
    parallel::parallel_for(
        parts, 2 * parallel::kMinParallelWorkNs, threads,
        [&](int64_t lo, int64_t hi) {
          for (int64_t i = lo; i < hi; ++i) {
            const int64_t k0 = p.k * i / parts, k1 = p.k * (i + 1) / parts;
            const float* pa = a + (p.ta ? k0 * p.m : k0);
            const float* pb = b + (p.tb ? k0 : k0 * p.n);
            float* out = i == 0 ? c : pp + (i - 1) * mn;
            if (dnnl_sgemm(p.ta ? 'T' : 'N', p.tb ? 'T' : 'N', p.m, p.n, k1 - k0, 1.0f, pa, lda, pb,
                           ldb, 0.0f, out, p.n) != dnnl_success) {
              ok.store(false, std::memory_order_relaxed);
            }
          }
        },
        /*align=*/1);
  }
  if (!ok.load()) return false;
  parallel_for(mn, [&](int64_t lo, int64_t hi) {
    for (int64_t j = lo; j < hi; ++j) {
      float sum = c[j];
      for (int64_t i = 1; i < parts; ++i) sum += pp[(i - 1) * mn + j];
      c[j] = sum;
    }
  });
  return true;
}

// oneDNN on the problem; on the pool runtime split (one OpenMP thread per call): a single
// product by rows or columns of C, whichever is longer (the fewer repacks of the other operand),
// or along k when that moves less memory (split_depth); a batched one by its leading batch dim.
// False when oneDNN rejects the problem.
bool run_onednn(const Problem& p, const float* a, const float* b, float* c) {
  const Collapsed cb = collapse(p);
  const double work = matmul_work_ns(p);
  if (cb.out.empty()) {
    // No engine is involved in the sgemm path, so the ISA cap is applied here (before oneDNN's
    // first call fixes its ISA).
    apply_isa_cap();
    const int threads = product_threads(p, work);
    if (threads > 1 && split_depth(p, 2 * threads) && run_depth_split(p, threads, a, b, c)) {
      return true;
    }
    const bool rows = p.m >= p.n;
    const int64_t dim = rows ? p.m : p.n;
    if (kernels::onednn_split(dim, work, block_align(dim, work), [&](int64_t lo, int64_t hi) {
          return run_sgemm(p, rows, lo, hi, a, b, c);
        })) {
      return true;
    }
  }
  if (cb.out.empty() || cb.out.size() + 2 > 6) {
    cache().fallbacks.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  if (!kernels::onednn_split(cb.out[0], work, 1, [&](int64_t lo, int64_t hi) {
        return run_primitive(p, cb, lo, hi, a, b, c);
      })) {
    cache().fallbacks.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  return true;
}

template <typename T>
void matmul_kernel(KernelContext& ctx) {
  const Problem p = make_problem(ctx);
  std::vector<int64_t> out_dims = p.out_batch;
  out_dims.push_back(p.m);
  out_dims.push_back(p.n);
  Tensor& out = ctx.allocate_output(0, Shape(out_dims));
  T* pc = out.mutable_data<T>();
  if (out.num_elements() == 0) return;
  if (p.k == 0) {
    std::fill(pc, pc + out.num_elements(), T(0));
    return;
  }
  const T* pa = ctx.input(0).data<T>();
  const T* pb = ctx.input(1).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (run_onednn(p, pa, pb, pc)) return;
  }
  matmul_loop<T>(p, pa, pb, pc);
}

// ---- _FusedMatMul: one oneDNN matmul primitive with bias and an eltwise post-op ----

struct FusedEntry {
  std::unique_ptr<dnnl::matmul> prim;  // null: rejected (bias + activation loop instead)
  dnnl::memory::desc a_md, b_md, bias_md, c_md, scratch_md;
};

onednn::PrimitiveCache<FusedEntry>& fused_cache() {
  static auto* c = new onednn::PrimitiveCache<FusedEntry>;
  return *c;
}

// Rows [lo, hi) of C = act(A B + bias) on one primitive.
bool run_fused_rows(const Problem& whole, int64_t lo, int64_t hi, const std::string& act,
                    float alpha, const float* a, const float* b, const float* bias, float* c) {
  Problem p = whole;
  p.m = hi - lo;
  a += p.ta ? lo : lo * p.k;
  c += lo * p.n;
  // A's rows are strided by its stored row length: the whole product's m when transposed.
  const int64_t lda = p.ta ? whole.m : p.k;
  std::vector<int64_t> key = onednn::key_prefix(301);
  for (int64_t v : {p.m, p.k, p.n, int64_t(p.ta), int64_t(p.tb), lda}) key.push_back(v);
  for (char ch : act) key.push_back(ch);
  int32_t bits;
  std::memcpy(&bits, &alpha, sizeof bits);
  key.push_back(bits);
  auto e = fused_cache().get(key, [&] {
    auto e = std::make_shared<FusedEntry>();
    e->a_md = dnnl::memory::desc({p.m, p.k}, dnnl::memory::data_type::f32,
                                 p.ta ? dnnl::memory::dims{1, lda} : dnnl::memory::dims{lda, 1});
    e->b_md = p.tb ? strided_desc({}, p.n, p.k, true) : strided_desc({}, p.k, p.n, false);
    e->c_md = strided_desc({}, p.m, p.n, false);
    e->bias_md = strided_desc({}, 1, p.n, false);
    try {
      dnnl::primitive_attr attr = onednn::user_scratchpad_attr();
      if (!act.empty()) {
        dnnl::algorithm alg;
        float al, be;
        if (!onednn::eltwise_algorithm(act, alpha, &alg, &al, &be)) return e;
        dnnl::post_ops po;
        po.append_eltwise(1.f, alg, al, be);
        attr.set_post_ops(po);
      }
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(e->a_md, e->b_md, e->bias_md, e->c_md),
                                      attr, engine());
      e->scratch_md = pd.scratchpad_desc();
      e->prim = std::make_unique<dnnl::matmul>(pd);
    } catch (const dnnl::error&) {
      e->prim.reset();
    }
    return e;
  });
  if (!e->prim) {
    fused_cache().count_fallback();
    return false;
  }
  onednn::execute(*e->prim, e->scratch_md,
                  {{DNNL_ARG_SRC, onednn::wrap(e->a_md, a)},
                   {DNNL_ARG_WEIGHTS, onednn::wrap(e->b_md, b)},
                   {DNNL_ARG_BIAS, onednn::wrap(e->bias_md, bias)},
                   {DNNL_ARG_DST, onednn::wrap(e->c_md, c)}});
  return true;
}

// _FusedMatMul on oneDNN, split by rows of C (kernels::onednn_split); false when oneDNN rejects it.
bool run_fused_onednn(const Problem& p, const std::string& act, float alpha, const float* a,
                      const float* b, const float* bias, float* c) {
  const double work = matmul_work_ns(p);
  // Split by rows only (the post-ops apply per row block); where rows are not the cheaper cut,
  // the caller runs run_onednn's split and adds bias and activation itself.
  const int threads = product_threads(p, work);
  if (threads > 1 && (p.m < p.n || split_depth(p, 2 * threads))) return false;
  return kernels::onednn_split(p.m, work, block_align(p.m, work), [&](int64_t lo, int64_t hi) {
    return run_fused_rows(p, lo, hi, act, alpha, a, b, bias, c);
  });
}

template <typename T>
void fused_matmul_kernel(KernelContext& ctx) {
  const Problem p = make_problem(ctx);
  Tensor& out = ctx.allocate_output(0, Shape{p.m, p.n});
  if (out.num_elements() == 0) return;
  T* pc = out.mutable_data<T>();
  const T* pa = ctx.input(0).data<T>();
  const T* pb = ctx.input(1).data<T>();
  const T* bias = ctx.input(2).data<T>();
  const std::string& act = ctx.attr<std::string>("activation");
  const double alpha = ctx.attr<double>("leakyrelu_alpha");
  if (p.k == 0) {
    std::fill(pc, pc + out.num_elements(), T(0));
  } else {
    if constexpr (std::is_same_v<T, float>) {
      if (run_fused_onednn(p, act, static_cast<float>(alpha), pa, pb, bias, pc)) return;
      if (!run_onednn(p, pa, pb, pc)) matmul_loop<T>(p, pa, pb, pc);
    } else {
      matmul_loop<T>(p, pa, pb, pc);
    }
  }
  fused::apply_bias_activation<T>(pc, p.m, p.n, bias, act, alpha);
}

}  // namespace

onednn::CacheStats fused_matmul_cache_stats() { return fused_cache().stats(); }

MatMulCacheStats matmul_cache_stats() {
  Cache& c = cache();
  MatMulCacheStats s;
  s.hits = c.hits.load();
  s.misses = c.misses.load();
  s.fallbacks = c.fallbacks.load();
  std::lock_guard lock(c.mu);
  s.entries = static_cast<int64_t>(c.entries.size());
  return s;
}

KernelFn linalg_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "_FusedMatMul") {
    if (dtype == float32) return fused_matmul_kernel<float>;
    if (dtype == float64) return fused_matmul_kernel<double>;
    return nullptr;
  }
  if (op != "MatMul" && op != "BatchMatMulV2") return nullptr;
  switch (dtype) {
    case float32:
      return matmul_kernel<float>;
    case float64:
      return matmul_kernel<double>;
    case int32:
      return matmul_kernel<int32_t>;
    case int64:
      return matmul_kernel<int64_t>;
    default:
      return nullptr;
  }
}

}  // namespace tfcc
