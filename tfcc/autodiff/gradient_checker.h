// Numeric gradient checking, like tf.test.compute_gradient.
//
//   auto f = [](const std::vector<tfcc::Tensor>& xs) { return tfcc::sin(xs[0]) * xs[1]; };
//   auto jac = tfcc::test::compute_gradient(f, {x, y});
//   double err = tfcc::test::max_error(jac);   // |theoretical - numerical|, max over entries
//
// For each input x_k the result holds two [x_size, y_size] matrices: the Jacobian from the tape
// (theoretical) and from central differences (numerical). Use float64 inputs.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::test {

/// Row-major [rows x cols] matrix of doubles.
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;
  double at(int64_t r, int64_t c) const { return values[r * cols + c]; }
};

/// The two Jacobians of one input.
struct JacobianPair {
  Matrix theoretical, numerical;
};

using TestFn = std::function<Tensor(const std::vector<Tensor>&)>;

/// Jacobians of f at xs, one pair per input. `delta` is the central-difference step.
std::vector<JacobianPair> compute_gradient(const TestFn& f, const std::vector<Tensor>& xs,
                                           double delta = 1e-6);

/// Largest |theoretical - numerical| over every entry of every pair.
double max_error(const std::vector<JacobianPair>& jacobians);

}  // namespace tfcc::test
#pragma GCC visibility pop
