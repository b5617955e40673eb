// CPU kernels of the random family. Every element's value depends only on the generator (seed
// pair, call) and the element's index: blocks of Philox output are computed from the index, so
// results do not change with the OpenMP thread count or the split of the loop.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/random/random_internal.h"

namespace tfcc {
namespace {

using kernels::parallel_for;
using random_internal::stateful_generator;
using random_internal::stateless_generator;

template <bool kStateless>
Philox generator(const KernelContext& c) {
  if constexpr (kStateless) {
    const auto& s = c.attr<std::vector<int64_t>>("seed");
    return stateless_generator(s[0], s[1]);
  } else {
    return stateful_generator(c.attr<int64_t>("seed"), c.attr<int64_t>("seed2"));
  }
}

// Calls f(i, words) for each element i < n, where each Philox block gives kPer elements of
// 4 / kPer words each. Parallel over blocks; the block of element i is i / kPer.
template <int kPer, typename F>
void for_each_block(const Philox& g, int64_t n, F f) {
  const int64_t blocks = (n + kPer - 1) / kPer;
  parallel_for(
      blocks,
      [&](int64_t lo, int64_t hi) {
        auto emit = [&](int64_t b, const uint32_t* w) {
          for (int j = 0; j < kPer; ++j) {
            const int64_t i = b * kPer + j;
            if (i < n) f(i, w + j * (4 / kPer));
          }
        };
        // Sixteen blocks at a time (vectorised Philox), then the rest one by one.
        constexpr int kLanes = 16;
        int64_t b = lo;
        for (; b + kLanes <= hi; b += kLanes) {
          uint32_t words[4][kLanes];
          g.blocks<kLanes>(uint64_t(b), words);
          for (int l = 0; l < kLanes; ++l) {
            const uint32_t w[4] = {words[0][l], words[1][l], words[2][l], words[3][l]};
            emit(b + l, w);
          }
        }
        for (; b < hi; ++b) emit(b, g.block(uint64_t(b)).data());
      },
      kernels::kParallelGrain / 8);
}

uint64_t u64(const uint32_t* w) { return (uint64_t(w[0]) << 32) | w[1]; }

// The same draws as for_each_block<4> (element i takes word i % 4 of block i / 4), handed out
// as runs: f(i0, count, words) with words[e] the word of element i0 + e. Runs of 64 elements
// come from sixteen blocks computed in SIMD lanes, so f's loop over a run vectorises too.
template <typename F>
void for_each_word_run(const Philox& g, int64_t n, F f) {
  const int64_t blocks = (n + 3) / 4;
  parallel_for(
      blocks,
      [&](int64_t lo, int64_t hi) {
        constexpr int kLanes = 16;
        uint32_t run[4 * kLanes];
        int64_t b = lo;
        for (; b + kLanes <= hi; b += kLanes) {
          uint32_t words[4][kLanes];
          g.blocks<kLanes>(uint64_t(b), words);
          for (int l = 0; l < kLanes; ++l) {
            for (int j = 0; j < 4; ++j) run[l * 4 + j] = words[j][l];
          }
          const int64_t i0 = b * 4;
          f(i0, std::min<int64_t>(4 * kLanes, n - i0), run);
        }
        for (; b < hi; ++b) {
          const Philox::Block w = g.block(uint64_t(b));
          const int64_t i0 = b * 4;
          f(i0, std::min<int64_t>(4, n - i0), w.data());
        }
      },
      kernels::kParallelGrain / 8);
}

template <typename T, bool kStateless>
void uniform_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const int64_t n = out.num_elements();
  const double lo = c.attr<double>("minval"), hi = c.attr<double>("maxval");
  const Philox g = generator<kStateless>(c);
  if constexpr (std::is_same_v<T, float>) {
    const float flo = float(lo), range = float(hi - lo);
    for_each_block<4>(g, n, [&](int64_t i, const uint32_t* w) {
      p[i] = flo + range * Philox::to_unit_float(w[0]);
    });
  } else if constexpr (std::is_same_v<T, double>) {
    const double range = hi - lo;
    for_each_block<2>(g, n, [&](int64_t i, const uint32_t* w) {
      p[i] = lo + range * Philox::to_unit_double(w[0], w[1]);
    });
  } else {
    // Integers in [lo, hi): hi > lo was checked, so the range is in (0, 2^64).
    const uint64_t base = uint64_t(static_cast<int64_t>(lo));
    const uint64_t range = uint64_t(static_cast<int64_t>(hi)) - base;
    if constexpr (std::is_same_v<T, int32_t>) {
      for_each_block<4>(g, n, [&](int64_t i, const uint32_t* w) {
        p[i] = static_cast<T>(static_cast<int64_t>(base + uint64_t(w[0]) % range));
      });
    } else {
      for_each_block<2>(g, n, [&](int64_t i, const uint32_t* w) {
        p[i] = static_cast<T>(base + u64(w) % range);
      });
    }
  }
}

// FusedDropout: the uniforms are drawn exactly as uniform_kernel draws them (same blocks, same
// words, minval 0 and range 1), and compared and scaled in the dtype as the composite
// where(uniform >= rate, x * (1 / (1 - rate)), 0) does, so both give the same bits.
template <typename T>
void dropout_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  Tensor& y = c.allocate_output(0);
  Tensor& keep = c.allocate_output(1);
  const T* px = x.data<T>();
  T* py = y.mutable_data<T>();
  bool* pk = keep.mutable_data<bool>();
  const double rate = c.attr<double>("rate");
  const T threshold = T(rate), scale = T(1.0 / (1.0 - rate));
  const Philox g = generator<false>(c);
  if constexpr (std::is_same_v<T, float>) {
    for_each_word_run(g, x.num_elements(), [=](int64_t i0, int64_t count, const uint32_t* w) {
      const float* __restrict xs = px + i0;
      float* __restrict ys = py + i0;
      bool* __restrict ks = pk + i0;
      const float t = threshold, s = scale;  // locals: stores could alias the closure's copies
      for (int64_t e = 0; e < count; ++e) {
        const bool k = 0.0f + 1.0f * Philox::to_unit_float(w[e]) >= t;
        const float kept = xs[e] * s;
        ks[e] = k;
        ys[e] = k ? kept : 0.0f;
      }
    });
  } else {
    auto apply = [&](int64_t i, T u) {
      const bool k = u >= threshold;
      const T kept = px[i] * scale;
      pk[i] = k;
      py[i] = k ? kept : T(0);
    };
    for_each_block<2>(g, x.num_elements(), [&](int64_t i, const uint32_t* w) {
      apply(i, 0.0 + 1.0 * Philox::to_unit_double(w[0], w[1]));
    });
  }
}

template <typename T>
void dropout_grad_kernel(KernelContext& c) {
  const T* dy = c.input(0).data<T>();
  const bool* keep = c.input(1).data<bool>();
  Tensor& out = c.allocate_output(0);
  T* po = out.mutable_data<T>();
  const T scale = T(1.0 / (1.0 - c.attr<double>("rate")));
  parallel_for(out.num_elements(), [=](int64_t lo, int64_t hi) {
    // Restrict pointers, the mask read as bytes and the scale as a local (a store through `o`
    // could alias the closure's copy): the select vectorises.
    const T* __restrict d = dy;
    const uint8_t* __restrict k = reinterpret_cast<const uint8_t*>(keep);
    T* __restrict o = po;
    const T s = scale;
    for (int64_t i = lo; i < hi; ++i) {
      const T g = d[i] * s;
      o[i] = k[i] != 0 ? g : T(0);
    }
  });
}

// Box-Muller: two uniforms give two standard normals.
inline void box_muller(double u1, double u2, double* z0, double* z1) {
  u1 = std::max(u1, 1e-12);
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = 2.0 * std::numbers::pi * u2;
  *z0 = r * std::sin(theta);
  *z1 = r * std::cos(theta);
}

// The normals of one Philox block: four from 32-bit uniforms (float32), two from 64-bit ones.
template <typename T>
int block_normals(const Philox::Block& w, double* z) {
  if constexpr (std::is_same_v<T, float>) {
    box_muller(1.0 - Philox::to_unit_float(w[0]), Philox::to_unit_float(w[1]), &z[0], &z[1]);
    box_muller(1.0 - Philox::to_unit_float(w[2]), Philox::to_unit_float(w[3]), &z[2], &z[3]);
    return 4;
  } else {
    box_muller(1.0 - Philox::to_unit_double(w[0], w[1]), Philox::to_unit_double(w[2], w[3]), &z[0],
               &z[1]);
    return 2;
  }
}

template <typename T, bool kStateless>
void normal_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const int64_t n = out.num_elements();
  const double mean = c.attr<double>("mean"), stddev = c.attr<double>("stddev");
  const Philox g = generator<kStateless>(c);
  constexpr int kPer = std::is_same_v<T, float> ? 4 : 2;
  const int64_t blocks = (n + kPer - 1) / kPer;
  parallel_for(
      blocks,
      [&](int64_t lo, int64_t hi) {
        double z[4];
        for (int64_t b = lo; b < hi; ++b) {
          block_normals<T>(g.block(uint64_t(b)), z);
          for (int j = 0; j < kPer && b * kPer + j < n; ++j) {
            p[b * kPer + j] = static_cast<T>(mean + stddev * z[j]);
          }
        }
      },
      kernels::kParallelGrain / 8);
}

// Each element draws from its own run of blocks (index << 8 | try) until a normal lands within
// two standard deviations, so its value depends only on its index.
template <typename T, bool kStateless>
void truncated_normal_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const int64_t n = out.num_elements();
  const double mean = c.attr<double>("mean"), stddev = c.attr<double>("stddev");
  const Philox g = generator<kStateless>(c);
  parallel_for(
      n,
      [&](int64_t lo, int64_t hi) {
        double z[4];
        for (int64_t i = lo; i < hi; ++i) {
          double v = 0;
          bool found = false;
          for (uint64_t t = 0; t < 256 && !found; ++t) {
            int k = block_normals<T>(g.block((uint64_t(i) << 8) | t), z);
            for (int j = 0; j < k; ++j) {
              if (std::fabs(z[j]) < 2.0) {
                v = z[j];
                found = true;
                break;
              }
            }
          }
          p[i] = static_cast<T>(mean + stddev * v);
        }
      },
      kernels::kParallelGrain / 8);
}

template <typename T>
void multinomial_kernel(KernelContext& c) {
  const Tensor& logits = c.input(0);
  const int64_t batch = logits.shape().dim(0), classes = logits.shape().dim(1);
  const int64_t ns = c.attr<int64_t>("num_samples");
  Tensor& out = c.allocate_output(0, Shape{batch, ns});
  int64_t* po = out.mutable_data<int64_t>();
  if (batch * ns == 0) return;
  const T* pl = logits.data<T>();
  const Philox g = stateful_generator(c.attr<int64_t>("seed"), c.attr<int64_t>("seed2"));
  parallel_for(
      batch,
      [&](int64_t lo, int64_t hi) {
        std::vector<double> cdf(static_cast<size_t>(classes));
        for (int64_t b = lo; b < hi; ++b) {
          const T* row = pl + b * classes;
          double mx = -INFINITY;
          for (int64_t j = 0; j < classes; ++j) {
            if (!std::isnan(double(row[j]))) mx = std::max(mx, double(row[j]));
          }
          double total = 0;
          for (int64_t j = 0; j < classes; ++j) {
            const double l = double(row[j]);
            double w = 0;
            if (std::isinf(mx)) {
              w = (mx > 0 && l == mx) ? 1 : 0;
            } else if (!std::isnan(l)) {
              w = std::exp(l - mx);
            }
            total += w;
            cdf[size_t(j)] = total;
          }
          for (int64_t s = 0; s < ns; ++s) {
            const uint64_t e = uint64_t(b * ns + s);
            const Philox::Block w = g.block(e / 2);
            const double u = Philox::to_unit_double(w[2 * (e % 2)], w[2 * (e % 2) + 1]);
            const double x = u * total;
            int64_t k = std::upper_bound(cdf.begin(), cdf.end(), x) - cdf.begin();
            po[b * ns + s] = std::min(k, classes - 1);
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, classes + ns)));
}

void shuffle_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t n = x.shape().rank() == 0 ? 1 : x.shape().dim(0);
  const Philox g = stateful_generator(c.attr<int64_t>("seed"), c.attr<int64_t>("seed2"));
  if (n <= 1 || x.num_elements() == 0) {
    c.set_output(0, x);
    return;
  }
  // Fisher-Yates with the i-th swap drawn from block i.
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const Philox::Block w = g.block(uint64_t(i));
    const int64_t j = static_cast<int64_t>(u64(w.data()) % uint64_t(i + 1));
    std::swap(perm[size_t(i)], perm[size_t(j)]);
  }
  Tensor& out = c.allocate_output(0, x.shape());
  const size_t row = x.nbytes() / size_t(n);
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.mutable_raw_data());
  parallel_for(
      n,
      [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          std::memcpy(dst + size_t(i) * row, src + size_t(perm[size_t(i)]) * row, row);
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / int64_t(std::max<size_t>(1, row))));
}

}  // namespace

KernelFn random_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "RandomShuffle") return shuffle_kernel;
  if (op == "FusedDropout" || op == "FusedDropoutGrad") {
    const bool grad = op == "FusedDropoutGrad";
    if (dtype == float32) return grad ? dropout_grad_kernel<float> : dropout_kernel<float>;
    if (dtype == float64) return grad ? dropout_grad_kernel<double> : dropout_kernel<double>;
    return nullptr;
  }
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    constexpr bool kFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;
    if constexpr (kFloat || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      if (op == "RandomUniform") return uniform_kernel<T, false>;
      if (op == "StatelessRandomUniformV2") return uniform_kernel<T, true>;
    }
    if constexpr (kFloat) {
      if (op == "RandomStandardNormal") return normal_kernel<T, false>;
      if (op == "StatelessRandomNormalV2") return normal_kernel<T, true>;
      if (op == "TruncatedNormal") return truncated_normal_kernel<T, false>;
      if (op == "StatelessTruncatedNormalV2") return truncated_normal_kernel<T, true>;
      if (op == "Multinomial") return multinomial_kernel<T>;
    }
    return nullptr;
  });
}

}  // namespace tfcc
