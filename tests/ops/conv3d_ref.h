// Shared pieces of the conv3d family's conformance rows (rows_conv3d.cc, rows_pool3d.cc): the
// parameters of a 3-D window and a plain-loop walk over its taps (TensorFlow's SAME / VALID
// geometry from conv_ref::window), written independently of the kernels.
#pragma once

#include <string>
#include <vector>

#include "tests/ops/conv_ref.h"

namespace tfcc::conformance::conv3d_ref {

// One 3-D window: window sizes come from the filter / ksize, the rest from here.
struct P3 {
  std::vector<int64_t> s{1, 1, 1}, d{1, 1, 1};
  std::string padding = "VALID";
};

inline int64_t count(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

inline Tensor f32(std::vector<int64_t> s) {
  return Tensor::from_vector(std::vector<float>(size_t(count(s)), 1.f), Shape(s));
}

// Output sizes and leading pads of the three spatial dims of input xs [N,D,H,W,C] with window k.
struct Geo {
  conv_ref::Dim dim[3];
};
inline Geo geo(const std::vector<int64_t>& xs, const std::vector<int64_t>& k, const P3& p) {
  Geo g;
  for (size_t i = 0; i < 3; ++i) {
    g.dim[i] = conv_ref::window(xs[i + 1], k[i], p.d[i], p.s[i], p.padding);
  }
  return g;
}

// Calls fn(out_pixel, in_pixel, tap) for every (output pixel, window tap inside the input);
// pixels are indices without the channel, tap the filter's spatial index.
template <typename F>
void for_each_tap(const std::vector<int64_t>& xs, const std::vector<int64_t>& k, const P3& p,
                  F&& fn) {
  const Geo g = geo(xs, k, p);
  const int64_t D = xs[1], H = xs[2], W = xs[3];
  for (int64_t n = 0; n < xs[0]; ++n)
    for (int64_t od = 0; od < g.dim[0].out; ++od)
      for (int64_t oh = 0; oh < g.dim[1].out; ++oh)
        for (int64_t ow = 0; ow < g.dim[2].out; ++ow)
          for (int64_t kd = 0; kd < k[0]; ++kd)
            for (int64_t kh = 0; kh < k[1]; ++kh)
              for (int64_t kw = 0; kw < k[2]; ++kw) {
                const int64_t id = od * p.s[0] - g.dim[0].pad + kd * p.d[0];
                const int64_t ih = oh * p.s[1] - g.dim[1].pad + kh * p.d[1];
                const int64_t iw = ow * p.s[2] - g.dim[2].pad + kw * p.d[2];
                if (id < 0 || id >= D || ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                const int64_t o = ((n * g.dim[0].out + od) * g.dim[1].out + oh) * g.dim[2].out + ow;
                fn(o, ((n * D + id) * H + ih) * W + iw, (kd * k[1] + kh) * k[2] + kw);
              }
}

inline std::vector<int64_t> out_shape(const std::vector<int64_t>& xs, const std::vector<int64_t>& k,
                                      const P3& p, int64_t channels) {
  const Geo g = geo(xs, k, p);
  return {xs[0], g.dim[0].out, g.dim[1].out, g.dim[2].out, channels};
}

inline std::vector<int64_t> ints(const Ref& r) { return {r.values.begin(), r.values.end()}; }
inline Ref sizes_ref(const std::vector<int64_t>& s) { return vec({s.begin(), s.end()}, int64); }

}  // namespace tfcc::conformance::conv3d_ref
