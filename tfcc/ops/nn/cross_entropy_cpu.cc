// CPU kernels of the fused softmax cross-entropies. Per row: max-shift, exp into the backprop
// buffer, one sum (in double), then loss = log(sum) - shifted[label] and backprop =
// exp / sum - onehot, so each row is read twice and written once. Rows run in parallel.
#include <cmath>
#include <string>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/nn/nn_internal.h"

namespace tfcc {
namespace {

// exp(x[j] - max) into e[j]; returns (max, sum of e) for one row of n classes.
template <typename T>
inline std::pair<T, double> exp_row(const T* x, int64_t n, int64_t stride, T* e) {
  T mx = x[0];
  for (int64_t j = 1; j < n; ++j) mx = std::max(mx, x[j * stride]);
  double sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    e[j] = std::exp(x[j * stride] - mx);
    sum += static_cast<double>(e[j]);
  }
  return {mx, sum};
}

int64_t row_grain(int64_t classes) {
  return std::max<int64_t>(1, kernels::kParallelGrain / 8 / std::max<int64_t>(1, classes));
}

template <typename T, typename L>
void sparse_xent(KernelContext& ctx) {
  const Tensor& features = ctx.input(0);
  const Tensor& labels = ctx.input(1);
  const int64_t batch = features.shape().dims()[0], classes = features.shape().dims()[1];
  const L* pl = labels.data<L>();
  for (int64_t i = 0; i < batch; ++i) {
    if (pl[i] < 0 || pl[i] >= classes) {
      std::string values;
      for (int64_t k = 0; k < batch; ++k) {
        if (k) values += ' ';
        values += std::to_string(pl[k]);
      }
      ctx.fail(internal::str_cat("Received a label value of ", pl[i],
                                 " which is outside the valid range of [0, ", classes,
                                 ").  Label values: ", values));
    }
  }
  T* loss = ctx.allocate_output(0).mutable_data<T>();
  T* back = ctx.allocate_output(1).mutable_data<T>();
  if (batch == 0 || classes == 0) return;
  const T* px = features.data<T>();
  kernels::parallel_for(
      batch,
      [&](int64_t r0, int64_t r1) {
        for (int64_t i = r0; i < r1; ++i) {
          const T* x = px + i * classes;
          T* e = back + i * classes;
          auto [mx, sum] = exp_row(x, classes, 1, e);
          const T inv = static_cast<T>(1.0 / sum);
          for (int64_t j = 0; j < classes; ++j) e[j] *= inv;
          const int64_t label = static_cast<int64_t>(pl[i]);
          e[label] -= T(1);
          loss[i] = static_cast<T>(std::log(sum) - static_cast<double>(x[label] - mx));
        }
      },
      row_grain(classes));
}

// Logits and labels may broadcast along either dimension (size 1).
template <typename T>
void xent(KernelContext& ctx) {
  const Tensor& features = ctx.input(0);
  const Tensor& labels = ctx.input(1);
  T* loss = ctx.allocate_output(0).mutable_data<T>();
  Tensor& backprop = ctx.allocate_output(1);
  T* back = backprop.mutable_data<T>();
  const int64_t batch = backprop.shape().dims()[0], classes = backprop.shape().dims()[1];
  if (batch == 0) return;
  if (classes == 0) {
    std::fill(loss, loss + batch, T(0));
    return;
  }
  // Inputs of rank < 2 broadcast as if padded with leading 1s.
  auto as_matrix = [](const Shape& s) {
    std::vector<int64_t> d = s.dims();
    while (d.size() < 2) d.insert(d.begin(), 1);
    return d;
  };
  const std::vector<int64_t> fd = as_matrix(features.shape()), ld = as_matrix(labels.shape());
  const int64_t fr = fd[0] == 1 ? 0 : fd[1], fc = fd[1] == 1 ? 0 : 1;
  const int64_t lr = ld[0] == 1 ? 0 : ld[1], lc = ld[1] == 1 ? 0 : 1;
  const T* px = features.data<T>();
  const T* pz = labels.data<T>();
  kernels::parallel_for(
      batch,
      [&](int64_t r0, int64_t r1) {
        for (int64_t i = r0; i < r1; ++i) {
          const T* x = px + i * fr;
          const T* z = pz + i * lr;
          T* e = back + i * classes;
          auto [mx, sum] = exp_row(x, classes, fc, e);
          const double log_sum = std::log(sum);
          const T inv = static_cast<T>(1.0 / sum);
          double l = 0;
          for (int64_t j = 0; j < classes; ++j) {
            const T zj = z[j * lc];
            l += static_cast<double>(zj) * (log_sum - static_cast<double>(x[j * fc] - mx));
            e[j] = e[j] * inv - zj;
          }
          loss[i] = static_cast<T>(l);
        }
      },
      row_grain(classes));
}

template <typename T>
void sparse_dispatch(KernelContext& ctx) {
  if (ctx.input(1).dtype() == int32) {
    sparse_xent<T, int32_t>(ctx);
  } else {
    sparse_xent<T, int64_t>(ctx);
  }
}

}  // namespace

KernelFn cross_entropy_cpu_kernel(const std::string& op, DType dtype) {
  const bool sparse = op == "SparseSoftmaxCrossEntropyWithLogits";
  if (!sparse && op != "SoftmaxCrossEntropyWithLogits") return nullptr;
  switch (dtype) {
    case float32:
      return sparse ? sparse_dispatch<float> : xent<float>;
    case float64:
      return sparse ? sparse_dispatch<double> : xent<double>;
    default:
      return nullptr;
  }
}

}  // namespace tfcc
