// CPU kernels of ScaledDotProductAttention and its gradient. One query row at a time: its scores
// against every key live in a row buffer (O(keys)), the softmax is taken in that buffer, and the
// [queries, keys] matrix never exists. The backward recomputes the scores from the saved
// logsumexp: pass 1 over query rows gives dq (and each row's dout . out); pass 2 over key rows
// gives dk and dv. Each pass writes only its own rows, so both run in parallel without atomics.
//
// Masking follows Keras' dot_product_attention, which replaces a masked score by a very large
// negative number: a masked key gets weight 0 exactly, and a row whose keys are all masked is
// uniform over all keys. Here masked keys are skipped, and a fully masked row is treated as
// scores of 0 (the same weights without the large number, whose sum would lose the row's
// logsumexp in float32). Scores of masked keys are constants, so no gradient reaches q or k
// through them.
#include <cmath>
#include <limits>
#include <vector>

#include "tfcc/ops/attention/attention_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using attention_internal::Geometry;

template <typename T>
T dot(const T* a, const T* b, int64_t n) {
  T s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// The scores of query row (b, i) against every key, into `s`; `keep[j]` says whether key j
// takes part. Returns whether any key does.
template <typename T>
bool row_scores(const Geometry& g, const T* q, const T* k, const T* bias, const bool* mask,
                int64_t b, int64_t i, T scale, bool causal, T* s, bool* keep) {
  const T* qi = q + (b * g.tq + i) * g.d;
  const T* kb = k + b * g.tk * g.d;
  const int64_t bias_row = g.bias.batch[size_t(b)] + i * g.bias.stride_q;
  const int64_t mask_row = g.mask.batch[size_t(b)] + i * g.mask.stride_q;
  bool any = false;
  for (int64_t j = 0; j < g.tk; ++j) {
    keep[j] = mask[mask_row + j * g.mask.stride_k] && !(causal && j > i);
    any = any || keep[j];
    s[j] = scale * dot(qi, kb + j * g.d, g.d) + bias[bias_row + j * g.bias.stride_k];
  }
  if (!any) {
    for (int64_t j = 0; j < g.tk; ++j) s[j] = 0;
  }
  return any;
}

template <typename T>
void attention_kernel(KernelContext& ctx) {
  const Geometry g = attention_internal::geometry(ctx);
  Tensor& out = ctx.allocate_output(0);
  Tensor& lse = ctx.allocate_output(1);
  const T* q = ctx.input(0).data<T>();
  const T* k = ctx.input(1).data<T>();
  const T* v = ctx.input(2).data<T>();
  const T* bias = ctx.input(3).data<T>();
  const bool* mask = ctx.input(4).data<bool>();
  T* po = out.mutable_data<T>();
  T* pl = lse.mutable_data<T>();
  const T scale = static_cast<T>(ctx.attr<double>("scale"));
  const bool causal = ctx.attr<bool>("causal");
  const int64_t rows = g.batch * g.tq;
  kernels::parallel_for_cost(rows, double(g.tk * (g.d + g.dv) + 1) * kernels::cost::kElementwise,
                             [&](int64_t r0, int64_t r1) {
                               std::vector<T> s(size_t(g.tk));
                               std::vector<char> keep(size_t(g.tk));
                               for (int64_t r = r0; r < r1; ++r) {
                                 const int64_t b = r / g.tq, i = r % g.tq;
                                 const bool any =
                                     row_scores(g, q, k, bias, mask, b, i, scale, causal, s.data(),
                                                reinterpret_cast<bool*>(keep.data()));
                                 T* o = po + r * g.dv;
                                 for (int64_t c = 0; c < g.dv; ++c) o[c] = 0;
                                 T m = -std::numeric_limits<T>::infinity();
                                 for (int64_t j = 0; j < g.tk; ++j) {
                                   if (!any || keep[size_t(j)]) m = std::max(m, s[size_t(j)]);
                                 }
                                 T l = 0;
                                 const T* vb = v + b * g.tk * g.dv;
                                 for (int64_t j = 0; j < g.tk; ++j) {
                                   if (any && !keep[size_t(j)]) continue;
                                   const T p = std::exp(s[size_t(j)] - m);
                                   l += p;
                                   const T* vj = vb + j * g.dv;
                                   for (int64_t c = 0; c < g.dv; ++c) o[c] += p * vj[c];
                                 }
                                 if (l > 0) {
                                   for (int64_t c = 0; c < g.dv; ++c) o[c] /= l;
                                 }
                                 pl[r] = m + std::log(l);
                               }
                             });
}

// Inputs: q, k, v, bias, mask, out, lse, dout, dlse. Outputs: dq, dk, dv.
template <typename T>
void attention_grad_kernel(KernelContext& ctx) {
  const Geometry g = attention_internal::geometry(ctx);
  Tensor& dq_t = ctx.allocate_output(0);
  Tensor& dk_t = ctx.allocate_output(1);
  Tensor& dv_t = ctx.allocate_output(2);
  const T* q = ctx.input(0).data<T>();
  const T* k = ctx.input(1).data<T>();
  const T* v = ctx.input(2).data<T>();
  const T* bias = ctx.input(3).data<T>();
  const bool* mask = ctx.input(4).data<bool>();
  const T* out = ctx.input(5).data<T>();
  const T* lse = ctx.input(6).data<T>();
  const T* dout = ctx.input(7).data<T>();
  const T* dlse = ctx.input(8).data<T>();
  T* dq = dq_t.mutable_data<T>();
  T* dk = dk_t.mutable_data<T>();
  T* dv = dv_t.mutable_data<T>();
  const T scale = static_cast<T>(ctx.attr<double>("scale"));
  const bool causal = ctx.attr<bool>("causal");
  const double cost = double(g.tk * (2 * g.d + g.dv) + 1) * kernels::cost::kElementwise;
  // delta[r] = dout_r . out_r - dlse_r; full[r]: row r has a key that takes part.
  std::vector<T> delta(size_t(g.batch * g.tq));
  std::vector<char> full(size_t(g.batch * g.tq));
  kernels::parallel_for_cost(g.batch * g.tq, cost, [&](int64_t r0, int64_t r1) {
    std::vector<T> s(size_t(g.tk));
    std::vector<char> keep(size_t(g.tk));
    bool* kp = reinterpret_cast<bool*>(keep.data());
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = r / g.tq, i = r % g.tq;
      const bool any = row_scores(g, q, k, bias, mask, b, i, scale, causal, s.data(), kp);
      full[size_t(r)] = any;
      const T* go = dout + r * g.dv;
      delta[size_t(r)] = dot(go, out + r * g.dv, g.dv) - dlse[r];
      T* gq = dq + r * g.d;
      for (int64_t c = 0; c < g.d; ++c) gq[c] = 0;
      if (!any) continue;  // constant scores: nothing reaches q
      for (int64_t j = 0; j < g.tk; ++j) {
        if (!kp[j]) continue;
        const T p = std::exp(s[size_t(j)] - lse[r]);
        const T ds = p * (dot(go, v + (b * g.tk + j) * g.dv, g.dv) - delta[size_t(r)]) * scale;
        const T* kj = k + (b * g.tk + j) * g.d;
        for (int64_t c = 0; c < g.d; ++c) gq[c] += ds * kj[c];
      }
    }
  });
  kernels::parallel_for_cost(
      g.batch * g.tk, cost * double(g.tq) / double(std::max<int64_t>(g.tk, 1)),
      [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t b = r / g.tk, j = r % g.tk;
          T* gk = dk + r * g.d;
          T* gv = dv + r * g.dv;
          for (int64_t c = 0; c < g.d; ++c) gk[c] = 0;
          for (int64_t c = 0; c < g.dv; ++c) gv[c] = 0;
          const T* vj = v + r * g.dv;
          for (int64_t i = 0; i < g.tq; ++i) {
            const int64_t qr = b * g.tq + i;
            // One score: the row helper would compute the whole row.
            const bool keep_j =
                mask[g.mask.batch[size_t(b)] + i * g.mask.stride_q + j * g.mask.stride_k] &&
                !(causal && j > i);
            const bool any = full[size_t(qr)];
            if (any && !keep_j) continue;
            const T* qi = q + qr * g.d;
            const T sc =
                any ? scale * dot(qi, k + r * g.d, g.d) +
                          bias[g.bias.batch[size_t(b)] + i * g.bias.stride_q + j * g.bias.stride_k]
                    : T(0);
            const T p = std::exp(sc - lse[qr]);
            const T* go = dout + qr * g.dv;
            for (int64_t c = 0; c < g.dv; ++c) gv[c] += p * go[c];
            if (!any) continue;
            const T ds = p * (dot(go, vj, g.dv) - delta[size_t(qr)]) * scale;
            for (int64_t c = 0; c < g.d; ++c) gk[c] += ds * qi[c];
          }
        }
      });
}

}  // namespace

KernelFn attention_cpu_kernel(const std::string& op, DType dtype) {
  const bool grad = op == "ScaledDotProductAttentionGrad";
  if (dtype == float32) return grad ? attention_grad_kernel<float> : attention_kernel<float>;
  if (dtype == float64) return grad ? attention_grad_kernel<double> : attention_kernel<double>;
  return nullptr;
}

}  // namespace tfcc
