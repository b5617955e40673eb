// CPU kernels of FusedBatchNormV3 and FusedBatchNormGradV3 over channels-last data seen as a
// row-major [m, c] array. Large float32 problems run on oneDNN (batch_norm_onednn.cc); small
// ones (below kOneDnnMinElements: the seed's BatchNormalization after Dense(64) is [64, 64]),
// float64, and float32 problems oneDNN rejects run the loops below, which measured 2x faster
// than the oneDNN primitive call at [64, 64] (5 against 9.5 us forward, one core) and equal at
// [64, 26, 26, 32] (1.0 ms). The loops: statistics are accumulated
// in double (two passes, so the variance does not cancel), per-chunk partial sums are combined
// in chunk order, so results do not depend on the thread schedule.
#include <cmath>
#include <limits>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/ops/onednn_split.h"

namespace tfcc {
namespace {

constexpr int64_t kOneDnnMinElements = int64_t{1} << 16;

// Whether a training-mode (statistics-reducing) oneDNN batch norm may run. Under the pool runtime
// oneDNN runs on one OpenMP thread and its statistics cannot be split, so where the loops below
// have more than one intra-op thread they run instead, on the pool (one core: the two measured
// equal at [64, 26, 26, 32]); inference-mode problems are split by rows (kernels::onednn_split).
bool onednn_reduction_ok() {
  return parallel::runtime() == parallel::Runtime::kOpenMp || kernels::intra_op_threads() <= 1;
}

// Sums `width` doubles over the rows [0, m): body(r0, r1, acc) adds rows r0..r1 into acc.
template <typename F>
std::vector<double> row_sums(int64_t m, int64_t row_work, size_t width, F&& body) {
  const int64_t chunks =
      std::clamp<int64_t>(m * std::max<int64_t>(1, row_work) / kernels::kParallelGrain, 1,
                          std::min<int64_t>(kernels::intra_op_threads(), std::max<int64_t>(1, m)));
  std::vector<double> part(static_cast<size_t>(chunks) * width, 0.0);
  auto run = [&](int64_t ch) {
    body(m * ch / chunks, m * (ch + 1) / chunks, part.data() + static_cast<size_t>(ch) * width);
  };
  if (chunks == 1) {
    run(0);
  } else {
    kernels::parallel_chunks(chunks, run);
  }
  for (int64_t ch = 1; ch < chunks; ++ch) {
    for (size_t k = 0; k < width; ++k) part[k] += part[static_cast<size_t>(ch) * width + k];
  }
  part.resize(width);
  return part;
}

// y = (x - mean) * a + b per channel.
template <typename T>
void affine(int64_t m, int64_t c, const T* x, const std::vector<T>& mean, const std::vector<T>& a,
            const T* b, T* y) {
  const T* pm = mean.data();
  const T* pa = a.data();
  const T* pb = b;
  kernels::parallel_for(
      m,
      [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const T* xr = x + r * c;
          T* yr = y + r * c;
          for (int64_t k = 0; k < c; ++k) yr[k] = (xr[k] - pm[k]) * pa[k] + pb[k];
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, c)));
}

struct Dims {
  int64_t m = 1, c = 0;
};
Dims dims_of(const Tensor& x) {
  const auto& d = x.shape().dims();
  Dims r;
  for (size_t i = 0; i + 1 < d.size(); ++i) r.m *= d[i];
  r.c = d.back();
  return r;
}

template <typename T>
void fused_batch_norm_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Dims dims = dims_of(x);
  const int64_t m = dims.m, c = dims.c;
  const bool training = ctx.attr<bool>("is_training");
  const double eps = ctx.attr<double>("epsilon");
  const double f = ctx.attr<double>("exponential_avg_factor");
  const T* px = x.data<T>();
  const T* scale = ctx.input(1).data<T>();
  const T* offset = ctx.input(2).data<T>();
  T* py = ctx.allocate_output(0).mutable_data<T>();
  T* out_mean = ctx.allocate_output(1).mutable_data<T>();
  T* out_var = ctx.allocate_output(2).mutable_data<T>();
  T* saved_mean = ctx.allocate_output(3).mutable_data<T>();
  T* saved_var = ctx.allocate_output(4).mutable_data<T>();
  ctx.allocate_output(5);
  const size_t uc = static_cast<size_t>(c);
  std::vector<T> mean(uc), var(uc);
  if (!training) {
    const T* pm = ctx.input(3).data<T>();
    const T* pv = ctx.input(4).data<T>();
    std::copy(pm, pm + c, mean.begin());
    std::copy(pv, pv + c, var.begin());
  } else if (m == 0) {
    std::fill(mean.begin(), mean.end(), std::numeric_limits<T>::quiet_NaN());
    std::fill(var.begin(), var.end(), std::numeric_limits<T>::quiet_NaN());
  }
  bool done = false;
  if constexpr (std::is_same_v<T, float>) {
    if (m > 0 && c > 0 && m * c >= kOneDnnMinElements && !training) {
      const double work = static_cast<double>(m * c) * kernels::cost::kElementwise;
      done = kernels::onednn_split(m, work, 16, [&](int64_t lo, int64_t hi) {
        return nn_internal::onednn_batch_norm_forward(hi - lo, c, px + lo * c, scale, offset,
                                                      mean.data(), var.data(), py + lo * c, eps,
                                                      false);
      });
    } else if (m > 0 && c > 0 && m * c >= kOneDnnMinElements && onednn_reduction_ok()) {
      done = nn_internal::onednn_batch_norm_forward(m, c, px, scale, offset, mean.data(),
                                                    var.data(), py, eps, training);
    }
  }
  if (!done && m > 0 && c > 0) {
    if (training) {
      std::vector<double> s = row_sums(m, c, uc, [&](int64_t r0, int64_t r1, double* acc) {
        for (int64_t r = r0; r < r1; ++r) {
          const T* xr = px + r * c;
          for (int64_t k = 0; k < c; ++k) acc[k] += static_cast<double>(xr[k]);
        }
      });
      std::vector<double> mu(uc);
      for (size_t k = 0; k < uc; ++k) mu[k] = s[k] / static_cast<double>(m);
      std::vector<double> q = row_sums(m, c, uc, [&](int64_t r0, int64_t r1, double* acc) {
        const double* pmu = mu.data();
        for (int64_t r = r0; r < r1; ++r) {
          const T* xr = px + r * c;
          for (int64_t k = 0; k < c; ++k) {
            const double d = static_cast<double>(xr[k]) - pmu[k];
            acc[k] += d * d;
          }
        }
      });
      for (size_t k = 0; k < uc; ++k) {
        mean[k] = static_cast<T>(mu[k]);
        var[k] = static_cast<T>(q[k] / static_cast<double>(m));
      }
    }
    std::vector<T> a(uc);
    for (size_t k = 0; k < uc; ++k) {
      a[k] = static_cast<T>(scale[k] / std::sqrt(static_cast<double>(var[k]) + eps));
    }
    affine(m, c, px, mean, a, offset, py);
  }
  // Statistics outputs: TensorFlow's convention (biased variance saved for the gradient,
  // Bessel-corrected variance for the moving average, blended by exponential_avg_factor).
  const double adjust = m > 1 ? static_cast<double>(m) / static_cast<double>(m - 1) : 1.0;
  const T* in_mean = ctx.input(3).num_elements() == c ? ctx.input(3).data<T>() : nullptr;
  const T* in_var = ctx.input(4).num_elements() == c ? ctx.input(4).data<T>() : nullptr;
  for (size_t k = 0; k < uc; ++k) {
    saved_mean[k] = mean[k];
    saved_var[k] = var[k];
    if (!training) {
      out_mean[k] = mean[k];
      out_var[k] = var[k];
      continue;
    }
    const double unbiased = static_cast<double>(var[k]) * adjust;
    if (f == 1.0 || in_mean == nullptr || in_var == nullptr) {
      out_mean[k] = mean[k];
      out_var[k] = static_cast<T>(unbiased);
    } else {
      out_mean[k] = static_cast<T>((1 - f) * in_mean[k] + f * mean[k]);
      out_var[k] = static_cast<T>((1 - f) * in_var[k] + f * unbiased);
    }
  }
}

template <typename T>
void fused_batch_norm_grad_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(1);
  const Dims dims = dims_of(x);
  const int64_t m = dims.m, c = dims.c;
  const bool training = ctx.attr<bool>("is_training");
  const double eps = ctx.attr<double>("epsilon");
  const T* pdy = ctx.input(0).data<T>();
  const T* px = x.data<T>();
  const T* scale = ctx.input(2).data<T>();
  const T* mean = ctx.input(3).data<T>();
  const T* var = ctx.input(4).data<T>();
  T* pdx = ctx.allocate_output(0).mutable_data<T>();
  T* dscale = ctx.allocate_output(1).mutable_data<T>();
  T* doffset = ctx.allocate_output(2).mutable_data<T>();
  ctx.allocate_output(3);
  ctx.allocate_output(4);
  const size_t uc = static_cast<size_t>(c);
  if (m == 0 || c == 0) {
    std::fill(dscale, dscale + c, T(0));
    std::fill(doffset, doffset + c, T(0));
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (m * c >= kOneDnnMinElements && onednn_reduction_ok() &&
        nn_internal::onednn_batch_norm_backward(m, c, pdy, px, scale, mean, var, pdx, dscale,
                                                doffset, eps, training)) {
      return;
    }
  }
  // Sums of dy and dy * (x - mean) per channel.
  std::vector<double> s = row_sums(m, 2 * c, 2 * uc, [&](int64_t r0, int64_t r1, double* acc) {
    double* acc2 = acc + c;
    for (int64_t r = r0; r < r1; ++r) {
      const T* xr = px + r * c;
      const T* gr = pdy + r * c;
      for (int64_t k = 0; k < c; ++k) {
        const double g = static_cast<double>(gr[k]);
        acc[k] += g;
        acc2[k] += g * (static_cast<double>(xr[k]) - static_cast<double>(mean[k]));
      }
    }
  });
  // dx = dy * k1 + x * k2 + k3 per channel.
  std::vector<T> k1(uc), k2(uc), k3(uc);
  const double inv_m = 1.0 / static_cast<double>(m);
  for (size_t k = 0; k < uc; ++k) {
    const double inv = 1.0 / std::sqrt(static_cast<double>(var[k]) + eps);
    const double sc = static_cast<double>(scale[k]);
    dscale[k] = static_cast<T>(s[uc + k] * inv);
    doffset[k] = static_cast<T>(s[k]);
    const double a = sc * inv;
    const double b = training ? -sc * inv * inv * inv * s[uc + k] * inv_m : 0.0;
    const double cst = training ? -a * s[k] * inv_m : 0.0;
    k1[k] = static_cast<T>(a);
    k2[k] = static_cast<T>(b);
    k3[k] = static_cast<T>(cst);
  }
  const T* p1 = k1.data();
  const T* p2 = k2.data();
  const T* p3 = k3.data();
  kernels::parallel_for(
      m,
      [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const T* xr = px + r * c;
          const T* gr = pdy + r * c;
          T* dr = pdx + r * c;
          for (int64_t k = 0; k < c; ++k) dr[k] = gr[k] * p1[k] + (xr[k] - mean[k]) * p2[k] + p3[k];
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / c));
}

}  // namespace

KernelFn batch_norm_cpu_kernel(const std::string& op, DType dtype) {
  const bool grad = op == "FusedBatchNormGradV3";
  if (!grad && op != "FusedBatchNormV3") return nullptr;
  switch (dtype) {
    case float32:
      return grad ? fused_batch_norm_grad_kernel<float> : fused_batch_norm_kernel<float>;
    case float64:
      return grad ? fused_batch_norm_grad_kernel<double> : fused_batch_norm_kernel<double>;
    default:
      return nullptr;
  }
}

}  // namespace tfcc
