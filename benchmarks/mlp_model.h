// The benchmarks' MLP: 784-512-512-10 ReLU, batch 128, mean softmax cross-entropy, plain SGD.
// Shared by mlp_step_bench.cc (timing) and mlp_op_profile_bench.cc (op-by-op profile), and an
// OpenMP thread-count scope used by every tfcc benchmark.
#pragma once

#include <omp.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc_bench {

constexpr int64_t kBatch = 128, kIn = 784, kHidden = 512, kClasses = 10;
constexpr float kLearningRate = 0.01f;

// Forward + backward matmul flops of one step (the input's gradient is not computed).
constexpr double kStepFlops =
    2.0 * kBatch * (kIn * kHidden + kHidden * kHidden + kHidden * kClasses) * 3 -
    2.0 * kBatch * kIn * kHidden;

struct Mlp {
  std::vector<tfcc::Variable> params;
  tfcc::Tensor x, labels;

  Mlp() {
    tfcc::random::set_seed(1);
    auto glorot = [](int64_t fan_in, int64_t fan_out) {
      const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
      return tfcc::random::uniform({fan_in, fan_out}, -limit, limit);
    };
    params = {tfcc::Variable(glorot(kIn, kHidden), {.name = "w1"}),
              tfcc::Variable(tfcc::zeros({kHidden}), {.name = "b1"}),
              tfcc::Variable(glorot(kHidden, kHidden), {.name = "w2"}),
              tfcc::Variable(tfcc::zeros({kHidden}), {.name = "b2"}),
              tfcc::Variable(glorot(kHidden, kClasses), {.name = "w3"}),
              tfcc::Variable(tfcc::zeros({kClasses}), {.name = "b3"})};
    x = tfcc::random::uniform({kBatch, kIn}, 0, 1);
    std::vector<int32_t> l(static_cast<size_t>(kBatch));
    for (int64_t i = 0; i < kBatch; ++i) l[static_cast<size_t>(i)] = static_cast<int32_t>(i % 10);
    labels = tfcc::Tensor::from_vector<int32_t>(l);
  }

  // The forward pass and the mean softmax cross-entropy.
  tfcc::Tensor loss() const {
    const auto& p = params;
    tfcc::Tensor h1 = tfcc::relu(tfcc::matmul(x, p[0]) + p[1]);
    tfcc::Tensor h2 = tfcc::relu(tfcc::matmul(h1, p[2]) + p[3]);
    tfcc::Tensor logits = tfcc::matmul(h2, p[4]) + p[5];
    return tfcc::reduce_mean(tfcc::nn::sparse_softmax_cross_entropy_with_logits(labels, logits));
  }

  // One training step; returns the loss.
  tfcc::Tensor step() {
    tfcc::GradientTape tape;
    tfcc::Tensor loss = this->loss();
    std::vector<tfcc::Tensor> grads = tape.gradient(loss, params);
    // In place, one pass per weight: the op Keras' SGD runs (PyTorch's optimizer: p.add_(g, -lr)).
    for (size_t i = 0; i < params.size(); ++i) {
      tfcc::training::apply_gradient_descent(params[i], kLearningRate, grads[i]);
    }
    return loss;
  }
};

/// Limits OpenMP (tfcc's kernels and oneDNN) to `threads` for its lifetime.
class OmpThreads {
 public:
  explicit OmpThreads(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(saved_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
};

}  // namespace tfcc_bench
