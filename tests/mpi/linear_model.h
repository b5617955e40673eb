// A tiny linear-regression model shared by the MPI tests: deterministic data, SGD steps.
#pragma once

#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::mpi_test {

struct LinearModel {
  Variable w{random::stateless_normal({4, 3}, {7, 1}), {.name = "w"}};
  Variable b{zeros({3}), {.name = "b"}};
};

/// Step `step`'s global batch: rows [0, n) of features [n, 4] and targets [n, 3].
inline std::pair<Tensor, Tensor> global_batch(int step, int64_t n) {
  Tensor x = random::stateless_normal({n, 4}, {step, 11});
  Tensor y = random::stateless_normal({n, 3}, {step, 13});
  return {x, y};
}

/// Mean squared error of the model on (x, y) and its gradients for [w, b].
inline std::vector<Tensor> gradients(LinearModel& m, const Tensor& x, const Tensor& y) {
  GradientTape tape;
  Tensor pred = matmul(x, m.w) + m.b;
  Tensor loss = reduce_mean(square(pred - y));
  return tape.gradient(loss, std::vector<Variable>{m.w, m.b});
}

inline void sgd(LinearModel& m, const std::vector<Tensor>& g, float lr) {
  m.w.assign_sub(g[0] * lr);
  m.b.assign_sub(g[1] * lr);
}

}  // namespace tfcc::mpi_test
