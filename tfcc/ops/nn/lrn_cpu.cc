// CPU kernels of LRN and LRNGrad: per pixel, a running window of squared channels (the sum over
// [c - r, c + r] clipped to the channels), parallelised with OpenMP over pixels.
#include <cmath>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/nn/nn_internal.h"

namespace tfcc {
namespace {

struct LrnParams {
  int64_t r;
  double bias, alpha, beta;
};

LrnParams params_of(KernelContext& ctx) {
  return {ctx.attr<int64_t>("depth_radius"), ctx.attr<double>("bias"), ctx.attr<double>("alpha"),
          ctx.attr<double>("beta")};
}

// norm[c] = bias + alpha * sum_{j in [c - r, c + r] and [0, C)} x[j]^2 for one pixel.
template <typename T>
void norms(const T* x, int64_t C, const LrnParams& p, T* norm) {
  for (int64_t c = 0; c < C; ++c) {
    T s = 0;
    const int64_t lo = std::max<int64_t>(0, c - p.r), hi = std::min<int64_t>(C, c + p.r + 1);
    for (int64_t j = lo; j < hi; ++j) s += x[j] * x[j];
    norm[c] = static_cast<T>(p.bias) + static_cast<T>(p.alpha) * s;
  }
}

template <typename T>
void lrn_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, in.shape());
  const int64_t C = in.shape().dim(3);
  if (out.num_elements() == 0 || C == 0) return;
  const LrnParams p = params_of(ctx);
  const T* x = in.data<T>();
  T* y = out.mutable_data<T>();
  kernels::parallel_for(out.num_elements() / C, [&](int64_t lo, int64_t hi) {
    std::vector<T> norm(static_cast<size_t>(C));
    for (int64_t px = lo; px < hi; ++px) {
      norms(x + px * C, C, p, norm.data());
      for (int64_t c = 0; c < C; ++c) {
        y[px * C + c] = x[px * C + c] * std::pow(norm[size_t(c)], static_cast<T>(-p.beta));
      }
    }
  });
}

// dx[k] = sum_{c: |c - k| <= r} dy[c] * (delta(c, k) * norm[c]^-beta
//                                        - 2 alpha beta x[k] y[c] / norm[c]).
template <typename T>
void lrn_grad_kernel(KernelContext& ctx) {
  const Tensor &dy_t = ctx.input(0), &x_t = ctx.input(1), &y_t = ctx.input(2);
  Tensor& out = ctx.allocate_output(0, x_t.shape());
  const int64_t C = x_t.shape().dim(3);
  if (out.num_elements() == 0 || C == 0) return;
  const LrnParams p = params_of(ctx);
  const T *dy = dy_t.data<T>(), *x = x_t.data<T>(), *y = y_t.data<T>();
  T* dx = out.mutable_data<T>();
  const T coef = static_cast<T>(-2.0 * p.alpha * p.beta);
  kernels::parallel_for(out.num_elements() / C, [&](int64_t lo, int64_t hi) {
    std::vector<T> norm(static_cast<size_t>(C));
    for (int64_t px = lo; px < hi; ++px) {
      const T *xp = x + px * C, *yp = y + px * C, *dp = dy + px * C;
      T* dxp = dx + px * C;
      norms(xp, C, p, norm.data());
      std::fill(dxp, dxp + C, T(0));
      for (int64_t c = 0; c < C; ++c) {
        const T n = norm[size_t(c)];
        const T shared = coef * yp[c] * dp[c] / n;
        const int64_t klo = std::max<int64_t>(0, c - p.r), khi = std::min<int64_t>(C, c + p.r + 1);
        for (int64_t k = klo; k < khi; ++k) dxp[k] += shared * xp[k];
        dxp[c] += dp[c] * std::pow(n, static_cast<T>(-p.beta));
      }
    }
  });
}

}  // namespace

KernelFn lrn_cpu_kernel(const std::string& op, DType dtype) {
  const bool grad = op == "LRNGrad";
  if (op != "LRN" && !grad) return nullptr;
  if (dtype == float32) return grad ? lrn_grad_kernel<float> : lrn_kernel<float>;
  if (dtype == float64) return grad ? lrn_grad_kernel<double> : lrn_kernel<double>;
  return nullptr;
}

}  // namespace tfcc
