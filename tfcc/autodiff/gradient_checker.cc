#include "tfcc/autodiff/gradient_checker.h"

#include <cmath>
#include <cstring>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"

namespace tfcc::test {
namespace {

// A copy of x with element j moved by d (x float32 or float64).
Tensor perturbed(const Tensor& x, int64_t j, double d) {
  Tensor t = Tensor::from_bytes(x.dtype(), x.shape(), x.raw_data(), x.nbytes());
  visit_dtype(x.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      T* p = t.mutable_data<T>();
      p[j] = static_cast<T>(p[j] + d);
    }
  });
  return t;
}

}  // namespace

std::vector<JacobianPair> compute_gradient(const TestFn& f, const std::vector<Tensor>& xs,
                                           double delta) {
  for (const Tensor& x : xs) {
    TFCC_CHECK_ARG(is_floating(x.dtype()), "compute_gradient needs floating inputs, got ",
                   dtype_name(x.dtype()));
  }
  std::vector<JacobianPair> out(xs.size());
  // Theoretical: one backward pass per output element, seeded with a one-hot gradient.
  GradientTape tape({.persistent = true});
  tape.watch(xs);
  Tensor y = f(xs);
  const int64_t ny = y.num_elements();
  for (size_t k = 0; k < xs.size(); ++k) {
    const int64_t nx = xs[k].num_elements();
    out[k].theoretical = {nx, ny, std::vector<double>(static_cast<size_t>(nx * ny), 0.0)};
    out[k].numerical = out[k].theoretical;
  }
  for (int64_t i = 0; i < ny; ++i) {
    Tensor seed = reshape(one_hot(constant(i), ny, 1, 0, y.dtype()), y.shape().dims());
    auto grads = tape.gradient(y, xs, {{seed}, UnconnectedGradients::kZero});
    for (size_t k = 0; k < xs.size(); ++k) {
      std::vector<double> g = grads[k].to_vector<double>();
      for (int64_t j = 0; j < static_cast<int64_t>(g.size()); ++j) {
        out[k].theoretical.values[j * ny + i] = g[j];
      }
    }
  }
  // Numerical: central differences, one input element at a time.
  for (size_t k = 0; k < xs.size(); ++k) {
    for (int64_t j = 0; j < xs[k].num_elements(); ++j) {
      std::vector<Tensor> plus = xs, minus = xs;
      plus[k] = perturbed(xs[k], j, delta);
      minus[k] = perturbed(xs[k], j, -delta);
      std::vector<double> yp = f(plus).to_vector<double>();
      std::vector<double> ym = f(minus).to_vector<double>();
      for (int64_t i = 0; i < ny; ++i) {
        out[k].numerical.values[j * ny + i] = (yp[i] - ym[i]) / (2 * delta);
      }
    }
  }
  return out;
}

double max_error(const std::vector<JacobianPair>& jacobians) {
  double err = 0;
  for (const auto& p : jacobians) {
    for (size_t i = 0; i < p.theoretical.values.size(); ++i) {
      double d = std::fabs(p.theoretical.values[i] - p.numerical.values[i]);
      if (std::isnan(d)) return INFINITY;
      err = std::max(err, d);
    }
  }
  return err;
}

}  // namespace tfcc::test
