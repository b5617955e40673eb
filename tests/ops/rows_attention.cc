// Conformance rows of the fused attention op (ScaledDotProductAttention and its gradient op)
// against a float64 reference that builds the whole score matrix: masked scores replaced by
// Keras' large negative number, then softmax and the weighted sum of values.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

struct Setup {
  bool causal = false;
  std::optional<double> scale;
  int mask_input = -1, bias_input = -1;  // positions among the inputs, -1: none
};

// Element (b, i, j) of `r` broadcast (right-aligned) to [batch..., tq, tk].
double at(const Ref& r, const std::vector<int64_t>& full, int64_t flat) {
  std::vector<int64_t> idx(full.size());
  for (size_t d = full.size(); d-- > 0;) {
    idx[d] = flat % full[d];
    flat /= full[d];
  }
  int64_t off = 0;
  const size_t lead = full.size() - r.shape.size();
  for (size_t d = 0; d < r.shape.size(); ++d) {
    off = off * r.shape[d] + (r.shape[d] == 1 ? 0 : idx[lead + d]);
  }
  return r.values[size_t(off)];
}

Ref sdpa_reference(const Setup& s, const std::vector<Ref>& in) {
  const Ref &q = in[0], &k = in[1], &v = in[2];
  const size_t r = q.shape.size();
  const int64_t tq = q.shape[r - 2], d = q.shape[r - 1], tk = k.shape[r - 2], dv = v.shape[r - 1];
  int64_t nb = 1;
  for (size_t i = 0; i + 2 < r; ++i) nb *= q.shape[i];
  std::vector<int64_t> full(q.shape.begin(), q.shape.end() - 1);
  full.push_back(tk);
  const double scale = s.scale.value_or(1.0 / std::sqrt(double(d)));
  const double large_negative = -0.7 * 3.38953e38;
  Ref out{full, {}, std::nullopt};
  out.shape.back() = dv;
  for (int64_t b = 0; b < nb; ++b) {
    for (int64_t i = 0; i < tq; ++i) {
      std::vector<double> sc(static_cast<size_t>(tk));
      for (int64_t j = 0; j < tk; ++j) {
        double dotp = 0;
        for (int64_t c = 0; c < d; ++c) {
          dotp += q.values[size_t((b * tq + i) * d + c)] * k.values[size_t((b * tk + j) * d + c)];
        }
        const int64_t flat = (b * tq + i) * tk + j;
        sc[size_t(j)] = dotp * scale + (s.bias_input >= 0 ? at(in[s.bias_input], full, flat) : 0);
        const bool keep =
            (s.mask_input < 0 || at(in[s.mask_input], full, flat) != 0) && !(s.causal && j > i);
        if (!keep) sc[size_t(j)] = large_negative;
      }
      double m = -INFINITY, l = 0;
      for (double x : sc) m = std::max(m, x);
      for (double& x : sc) l += (x = std::exp(x - m));
      for (int64_t c = 0; c < dv; ++c) {
        double o = 0;
        for (int64_t j = 0; j < tk; ++j)
          o += sc[size_t(j)] * v.values[size_t((b * tk + j) * dv + c)];
        out.values.push_back(l > 0 ? o / l : 0);
      }
    }
  }
  return out;
}

Tensor call(const Setup& s, const std::vector<Tensor>& in) {
  AttentionOptions o{.is_causal = s.causal, .scale = s.scale};
  if (s.mask_input >= 0) o.mask = in[size_t(s.mask_input)];
  if (s.bias_input >= 0) o.bias = in[size_t(s.bias_input)];
  return scaled_dot_product_attention(in[0], in[1], in[2], o);
}

Tensor f32(std::vector<int64_t> s, DType dtype = float32) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return to_tensor(Ref{s, std::vector<double>(size_t(n), 1.0), std::nullopt}, dtype);
}

Ref keep_mask(std::vector<int64_t> shape, uint64_t seed, bool first_row_masked) {
  Ref m = filled(shape, 0, 1, seed, bool_);
  for (double& x : m.values) x = x < 0.6 ? 1 : 0;
  const int64_t tk = shape.back();
  if (first_row_masked) {
    for (int64_t j = 0; j < tk; ++j) m.values[size_t(j)] = 0;
  }
  return m;
}

OpRow sdpa_row(std::string name, Setup s, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {"ScaledDotProductAttention"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [s](const std::vector<Tensor>& in) { return std::vector<Tensor>{call(s, in)}; };
  row.reference = [s](const std::vector<Ref>& in, DType) {
    return std::vector<Ref>{sdpa_reference(s, in)};
  };
  row.rtol32 = 1e-4;
  row.atol32 = 1e-5;
  row.rtol64 = 1e-10;
  row.atol64 = 1e-12;
  row.invalid = {
      {"rank 1", [] { scaled_dot_product_attention(f32({3}), f32({3}), f32({3})); },
       ErrorCode::kInvalidArgument, "at least 2"},
      {"ranks differ",
       [] {
         scaled_dot_product_attention(f32({2, 3, 4}), f32({3, 4}), f32({3, 4}));
       },
       ErrorCode::kInvalidArgument, "same rank"},
      {"depth",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 3}), f32({5, 2}));
       },
       ErrorCode::kInvalidArgument, "same depth"},
      {"keys",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 4}), f32({6, 2}));
       },
       ErrorCode::kInvalidArgument, "number of keys"},
      {"batch",
       [] {
         scaled_dot_product_attention(f32({2, 3, 4}), f32({3, 5, 4}), f32({3, 5, 2}));
       },
       ErrorCode::kInvalidArgument, "batch dimensions"},
      {"mask not bool",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 4}), f32({5, 2}), {.mask = f32({3, 5})});
       },
       ErrorCode::kInvalidArgument, "mask must be bool"},
      {"mask shape",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 4}), f32({5, 2}),
                                      {.mask = f32({3, 4}, bool_)});
       },
       ErrorCode::kInvalidArgument, "does not broadcast"},
      {"bias shape",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 4}), f32({5, 2}),
                                      {.bias = f32({2, 3, 5})});
       },
       ErrorCode::kInvalidArgument, "does not broadcast"},
      {"int32",
       [] {
         scaled_dot_product_attention(f32({3, 4}, int32), f32({5, 4}, int32), f32({5, 2}, int32));
       }},
      {"mixed dtypes",
       [] {
         scaled_dot_product_attention(f32({3, 4}), f32({5, 4}, float64), f32({5, 2}));
       },
       ErrorCode::kInvalidArgument, "[Op:ScaledDotProductAttention]"},
  };
  return row;
}

Case qkv(std::string label, std::vector<int64_t> batch, int64_t tq, int64_t tk, int64_t d,
         int64_t dv, uint64_t seed, std::vector<Ref> extra = {}) {
  auto shape = [&](int64_t a, int64_t b) {
    std::vector<int64_t> s = batch;
    s.push_back(a);
    s.push_back(b);
    return s;
  };
  std::vector<Ref> in = {filled(shape(tq, d), -2, 2, seed), filled(shape(tk, d), -2, 2, seed + 1),
                         filled(shape(tk, dv), -2, 2, seed + 2)};
  in.insert(in.end(), extra.begin(), extra.end());
  return {std::move(label), std::move(in), {}};
}

// ScaledDotProductAttentionGrad, through the tape: the gradient of sum(w * attention) in q, k, v
// against central differences of the float64 reference.
OpRow sdpa_grad_row() {
  Setup s{.causal = true, .scale = 0.7, .mask_input = 3};
  OpRow row;
  row.name = "scaled_dot_product_attention_grad";
  row.ops = {"ScaledDotProductAttentionGrad"};
  row.dtypes = kFloat;
  auto weight = [](const std::vector<int64_t>& shape) { return filled(shape, 0.5, 1.5, 99); };
  row.cases = {qkv("rank 3, masked + causal", {2}, 3, 4, 2, 3, 5, {keep_mask({2, 3, 4}, 6, true)}),
               qkv("rank 2, all kept", {}, 4, 3, 3, 2, 9, {keep_mask({1}, 1, false)})};
  row.cases[1].inputs[3].values = {1};
  row.fn = [s, weight](const std::vector<Tensor>& in) {
    std::vector<Tensor> xs = {in[0], in[1], in[2]};
    GradientTape tape;
    tape.watch(xs);
    Tensor y = call(s, in);
    Tensor w = to_tensor(weight(y.shape().dims()), y.dtype());
    return tape.gradient(reduce_sum(multiply(y, w)), xs);
  };
  row.reference = [s, weight](const std::vector<Ref>& in, DType) {
    std::vector<Ref> grads;
    for (int x = 0; x < 3; ++x) {
      Ref g = in[size_t(x)];
      for (size_t e = 0; e < g.values.size(); ++e) {
        auto value = [&](double delta) {
          std::vector<Ref> moved = in;
          moved[size_t(x)].values[e] += delta;
          Ref y = sdpa_reference(s, moved);
          Ref w = weight(y.shape);
          double sum = 0;
          for (size_t i = 0; i < y.values.size(); ++i) sum += y.values[i] * w.values[i];
          return sum;
        };
        g.values[e] = (value(1e-6) - value(-1e-6)) / 2e-6;
      }
      grads.push_back(g);
    }
    return grads;
  };
  row.rtol32 = 1e-3;
  row.atol32 = 1e-4;
  row.rtol64 = 1e-7;
  row.atol64 = 1e-8;
  // It is itself a gradient: the backward has no second-order rule (not_differentiable).
  row.grad_check = false;
  row.invalid = sdpa_row("", {}, {}).invalid;
  return row;
}

}  // namespace

std::vector<OpRow> attention_rows() {
  const Setup plain{}, causal{.causal = true};
  const Setup masked{.mask_input = 3}, biased{.bias_input = 3};
  const Setup all{.causal = true, .scale = 0.5, .mask_input = 3, .bias_input = 4};
  return {
      sdpa_row("scaled_dot_product_attention", plain,
               {qkv("rank 3", {2}, 3, 5, 4, 3, 1), qkv("rank 2", {}, 3, 4, 2, 3, 4),
                qkv("rank 4", {2, 2}, 3, 4, 2, 3, 7), qkv("one key", {1}, 2, 1, 2, 2, 10),
                qkv("empty batch", {0}, 3, 4, 2, 2, 13), qkv("no keys", {1}, 2, 0, 3, 2, 16),
                qkv("large", {4}, 64, 48, 32, 16, 19)}),
      sdpa_row("scaled_dot_product_attention causal", causal,
               {qkv("square", {2}, 4, 4, 2, 3, 1), qkv("fewer keys", {1}, 5, 3, 2, 2, 4),
                qkv("more keys", {1}, 3, 5, 2, 2, 7), qkv("large", {2}, 96, 96, 16, 16, 10)}),
      sdpa_row("scaled_dot_product_attention mask", masked,
               {qkv("full mask, a masked row", {2}, 3, 5, 2, 2, 1, {keep_mask({2, 3, 5}, 4, true)}),
                qkv("key mask [B,1,Tk]", {2}, 3, 4, 2, 2, 5, {keep_mask({2, 1, 4}, 8, false)}),
                qkv("mask [Tk]", {2}, 3, 4, 2, 2, 9, {keep_mask({4}, 12, false)})}),
      sdpa_row("scaled_dot_product_attention bias", biased,
               {qkv("bias [Tq,Tk]", {2}, 3, 4, 2, 2, 1, {filled({3, 4}, -1, 1, 4)}),
                qkv("bias [B,Tq,Tk]", {2}, 2, 3, 2, 2, 5, {filled({2, 2, 3}, -1, 1, 8)}),
                qkv("scalar bias", {1}, 2, 3, 2, 2, 9, {scalar(0.3)})}),
      sdpa_row("scaled_dot_product_attention mask bias causal scale", all,
               {qkv("rank 3", {2}, 4, 4, 2, 2, 1,
                    {keep_mask({2, 1, 4}, 4, false), filled({4, 4}, -1, 1, 5)})}),
      sdpa_grad_row(),
  };
}

}  // namespace tfcc::conformance
