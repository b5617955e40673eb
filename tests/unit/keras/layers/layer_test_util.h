// Helpers for layer tests: gradient checks through a layer against central differences.
#pragma once

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::keras::testing {

/// Max |tape - numeric| of d(sum(layer(x) * probe))/dx and /d(each trainable weight), in float64.
inline double layer_gradient_error(Layer& layer, const Tensor& x, bool training = false) {
  // A random probe makes the scalar depend on every output element differently.
  Tensor y0 = layer(x, {training});
  Tensor probe = random::normal(y0.shape().dims(), 0, 1, y0.dtype(), 1234);
  double worst = 0;
  auto f_input = [&](const std::vector<Tensor>& xs) {
    return reduce_sum(multiply(layer(xs[0], {training}), probe));
  };
  if (x.dtype() == float64)
    worst = std::max(worst, test::max_error(test::compute_gradient(f_input, {x})));
  for (auto& v : layer.trainable_variables()) {
    Tensor original = v.read_value();
    auto f_weight = [&](const std::vector<Tensor>& ws) {
      v.assign(ws[0]);
      return reduce_sum(multiply(layer(x, {training}), probe));
    };
    // The tape's gradient for the variable against central differences of f_weight.
    GradientTape tape;
    tape.watch(v);
    Tensor out = reduce_sum(multiply(layer(x, {training}), probe));
    Tensor g = tape.gradient(out, std::vector<Variable>{v})[0];
    auto gv = g.to_vector<double>();
    auto base = original.to_vector<double>();
    const double eps = 1e-6;
    for (size_t i = 0; i < base.size(); ++i) {
      auto plus = base, minus = base;
      plus[i] += eps;
      minus[i] -= eps;
      double fp = f_weight({Tensor::from_vector(plus, original.shape())}).item<double>();
      double fm = f_weight({Tensor::from_vector(minus, original.shape())}).item<double>();
      worst = std::max(worst, std::abs((fp - fm) / (2 * eps) - gv[i]));
    }
    v.assign(original);
  }
  return worst;
}

}  // namespace tfcc::keras::testing
