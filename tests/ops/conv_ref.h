// float64 references of the conv and pool families, written as plain loops over Refs
// independently of the kernels (TensorFlow's geometry re-derived here).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/ops/harness.h"

namespace tfcc::conformance::conv_ref {

/// One spatial dim: output size and leading pad, TensorFlow's rules.
struct Dim {
  int64_t out = 0, pad = 0;
};
inline Dim window(int64_t in, int64_t k, int64_t dil, int64_t stride, const std::string& padding,
                  int64_t pad_before = 0, int64_t pad_after = 0) {
  const int64_t eff = (k - 1) * dil + 1;
  if (padding == "VALID") return {(in - eff + stride) / stride, 0};
  if (padding == "SAME") {
    const int64_t out = (in + stride - 1) / stride;
    const int64_t need = std::max<int64_t>(0, (out - 1) * stride + eff - in);
    return {out, need / 2};
  }
  return {(in + pad_before + pad_after - eff + stride) / stride, pad_before};
}

/// The parameters of a convolution row.
struct Params {
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  std::string padding = "VALID";
  std::vector<int64_t> pads;  ///< top, bottom, left, right when EXPLICIT
  Dim rows(int64_t in, int64_t k) const {
    return window(in, k, dh, sh, padding, pads.empty() ? 0 : pads[0], pads.empty() ? 0 : pads[1]);
  }
  Dim cols(int64_t in, int64_t k) const {
    return window(in, k, dw, sw, padding, pads.empty() ? 0 : pads[2], pads.empty() ? 0 : pads[3]);
  }
};

/// Calls fn(n, oh, ow, kh, kw, ih, iw) for every tap of the window that lands inside the input.
template <typename F>
void for_each_tap(const Params& p, int64_t n_batch, int64_t h, int64_t w, int64_t kh_n,
                  int64_t kw_n, F&& fn) {
  const Dim r = p.rows(h, kh_n), c = p.cols(w, kw_n);
  for (int64_t n = 0; n < n_batch; ++n)
    for (int64_t oh = 0; oh < r.out; ++oh)
      for (int64_t ow = 0; ow < c.out; ++ow)
        for (int64_t kh = 0; kh < kh_n; ++kh)
          for (int64_t kw = 0; kw < kw_n; ++kw) {
            const int64_t ih = oh * p.sh - r.pad + kh * p.dh, iw = ow * p.sw - c.pad + kw * p.dw;
            if (ih >= 0 && ih < h && iw >= 0 && iw < w) fn(n, oh, ow, kh, kw, ih, iw);
          }
}

/// Conv2D (grouped when C is a multiple of the filter's in-channels) or, with `depthwise`,
/// DepthwiseConv2dNative. x [N,H,W,C], f [KH,KW,I,O].
inline Ref conv(const Ref& x, const Ref& f, const Params& p, bool depthwise) {
  const int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
  const int64_t KH = f.shape[0], KW = f.shape[1], I = f.shape[2], O = f.shape[3];
  const int64_t OC = depthwise ? C * O : O;
  const Dim r = p.rows(H, KH), c = p.cols(W, KW);
  Ref y{{N, r.out, c.out, OC}, std::vector<double>(size_t(N * r.out * c.out * OC), 0.0), {}};
  for_each_tap(
      p, N, H, W, KH, KW,
      [&](int64_t n, int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t ih, int64_t iw) {
        double* out = y.values.data() + size_t(((n * r.out + oh) * c.out + ow) * OC);
        const double* in = x.values.data() + size_t(((n * H + ih) * W + iw) * C);
        const double* fw = f.values.data() + size_t((kh * KW + kw) * I * O);
        if (depthwise) {
          for (int64_t ch = 0; ch < C; ++ch)
            for (int64_t m = 0; m < O; ++m) out[ch * O + m] += in[ch] * fw[ch * O + m];
        } else {
          if (I == 0) return;
          const int64_t groups = C / I, og = O / groups;
          for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < I; ++i) out[o] += in[(o / og) * I + i] * fw[i * O + o];
        }
      });
  return y;
}

/// The input gradient: dx[n, ih, iw, ch] += f * dy over every tap (scatter form).
inline Ref conv_input_grad(const std::vector<int64_t>& xs, const Ref& f, const Ref& dy,
                           const Params& p, bool depthwise) {
  const int64_t N = xs[0], H = xs[1], W = xs[2], C = xs[3];
  const int64_t KH = f.shape[0], KW = f.shape[1], I = f.shape[2], O = f.shape[3];
  const int64_t OC = depthwise ? C * O : O;
  const Dim r = p.rows(H, KH), c = p.cols(W, KW);
  Ref dx{xs, std::vector<double>(size_t(N * H * W * C), 0.0), {}};
  for_each_tap(
      p, N, H, W, KH, KW,
      [&](int64_t n, int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t ih, int64_t iw) {
        const double* d = dy.values.data() + size_t(((n * r.out + oh) * c.out + ow) * OC);
        double* g = dx.values.data() + size_t(((n * H + ih) * W + iw) * C);
        const double* fw = f.values.data() + size_t((kh * KW + kw) * I * O);
        if (depthwise) {
          for (int64_t ch = 0; ch < C; ++ch)
            for (int64_t m = 0; m < O; ++m) g[ch] += d[ch * O + m] * fw[ch * O + m];
        } else {
          if (I == 0) return;
          const int64_t og = O / (C / I);
          for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < I; ++i) g[(o / og) * I + i] += d[o] * fw[i * O + o];
        }
      });
  return dx;
}

/// The filter gradient: df[kh, kw, i, o] += x * dy over every tap.
inline Ref conv_filter_grad(const Ref& x, const std::vector<int64_t>& fs, const Ref& dy,
                            const Params& p, bool depthwise) {
  const int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
  const int64_t KH = fs[0], KW = fs[1], I = fs[2], O = fs[3];
  const int64_t OC = depthwise ? C * O : O;
  const Dim r = p.rows(H, KH), c = p.cols(W, KW);
  Ref df{fs, std::vector<double>(size_t(KH * KW * I * O), 0.0), {}};
  for_each_tap(
      p, N, H, W, KH, KW,
      [&](int64_t n, int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t ih, int64_t iw) {
        const double* d = dy.values.data() + size_t(((n * r.out + oh) * c.out + ow) * OC);
        const double* in = x.values.data() + size_t(((n * H + ih) * W + iw) * C);
        double* g = df.values.data() + size_t((kh * KW + kw) * I * O);
        if (depthwise) {
          for (int64_t ch = 0; ch < C; ++ch)
            for (int64_t m = 0; m < O; ++m) g[ch * O + m] += in[ch] * d[ch * O + m];
        } else {
          if (I == 0) return;
          const int64_t og = O / (C / I);
          for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < I; ++i) g[i * O + o] += in[(o / og) * I + i] * d[o];
        }
      });
  return df;
}

/// Rounds a reference to what `dtype` holds (float32 inputs are exact float32 values already).
inline Ref as_dtype(Ref r, DType dtype) {
  if (dtype == float32) {
    for (double& v : r.values) v = static_cast<double>(static_cast<float>(v));
  }
  return r;
}

}  // namespace tfcc::conformance::conv_ref

namespace tfcc::conformance {

/// Gives every row without invalid cases those of the first row covering the same op (the
/// invalid calls test the op, whichever row's attributes they sit in).
inline void share_invalid_cases(std::vector<OpRow>& rows) {
  for (OpRow& r : rows) {
    if (!r.invalid.empty() || r.ops.empty()) continue;
    for (const OpRow& other : rows) {
      if (!other.invalid.empty() && !other.ops.empty() && other.ops[0] == r.ops[0]) {
        r.invalid = other.invalid;
        break;
      }
    }
  }
}

}  // namespace tfcc::conformance
