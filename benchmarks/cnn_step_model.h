// The seed CNN's training step written with raw ops and a GradientTape, for cnn_step_bench.cc.
// Same architecture as the Keras model of fit_cnn_bench.cc and examples/keras_fit_cnn.cc:
//
//   Conv2D(32, 3x3, relu, L2 0.02 on the kernel) -> MaxPool 2x2 -> Flatten -> Dropout(0.1)
//   -> Dense(64, relu) -> BatchNormalization (momentum 0.99, eps 1e-3) -> Dense(10)
//
// with sparse softmax cross-entropy from logits (batch mean) plus the L2 term, and plain SGD
// through the fused ResourceApplyGradientDescent op. The PyTorch twin is cnn_step_peers.py.
//
//   tfcc_bench::SeedCnn cnn;
//   tfcc::Tensor loss = cnn.step(cnn.x, cnn.labels);     // eager
//   auto traced = tfcc::function([&](tfcc::Tensor x, tfcc::Tensor y) { return cnn.step(x, y); });
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc_bench {

/// The seed CNN's variables, one fixed batch, and its training step.
struct SeedCnn {
  static constexpr int64_t kBatch = 64, kFilters = 32, kHidden = 64, kClasses = 10;
  static constexpr int64_t kFlat = 13 * 13 * kFilters;
  static constexpr float kLearningRate = 0.01f, kL2 = 0.02f, kDropout = 0.1f;

  tfcc::Variable kernel, conv_bias, dense_w, dense_b, gamma, beta, out_w, out_b;
  tfcc::Variable moving_mean, moving_variance;
  tfcc::Tensor x, labels;  ///< one batch: images in [0, 1), labels in [0, 10)

  SeedCnn() {
    tfcc::random::set_seed(42);
    auto glorot = [](std::vector<int64_t> shape, int64_t fan_in, int64_t fan_out) {
      const double limit = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
      return tfcc::random::uniform(std::move(shape), -limit, limit);
    };
    kernel = tfcc::Variable(glorot({3, 3, 1, kFilters}, 9, 9 * kFilters), {.name = "kernel"});
    conv_bias = tfcc::Variable(tfcc::zeros({kFilters}), {.name = "conv_bias"});
    dense_w = tfcc::Variable(glorot({kFlat, kHidden}, kFlat, kHidden), {.name = "dense_w"});
    dense_b = tfcc::Variable(tfcc::zeros({kHidden}), {.name = "dense_b"});
    gamma = tfcc::Variable(tfcc::ones({kHidden}), {.name = "gamma"});
    beta = tfcc::Variable(tfcc::zeros({kHidden}), {.name = "beta"});
    out_w = tfcc::Variable(glorot({kHidden, kClasses}, kHidden, kClasses), {.name = "out_w"});
    out_b = tfcc::Variable(tfcc::zeros({kClasses}), {.name = "out_b"});
    moving_mean = tfcc::Variable(tfcc::zeros({kHidden}), {.name = "moving_mean"});
    moving_variance = tfcc::Variable(tfcc::ones({kHidden}), {.name = "moving_variance"});
    x = tfcc::random::uniform({kBatch, 28, 28, 1}, 0, 1);
    std::vector<int32_t> l(static_cast<size_t>(kBatch));
    for (int64_t i = 0; i < kBatch; ++i) l[static_cast<size_t>(i)] = static_cast<int32_t>(i % 10);
    labels = tfcc::Tensor::from_vector<int32_t>(l);
  }

  std::vector<tfcc::Variable> trainable() const {
    return {kernel, conv_bias, dense_w, dense_b, gamma, beta, out_w, out_b};
  }

  /// Forward, backward and SGD update on (images, labels); returns the loss.
  tfcc::Tensor step(const tfcc::Tensor& images, const tfcc::Tensor& y) {
    namespace nn = tfcc::nn;
    std::vector<tfcc::Variable> vars = trainable();
    tfcc::GradientTape tape;
    tfcc::Tensor h = tfcc::conv2d(images, kernel, {1}, tfcc::Padding("VALID"));
    h = tfcc::relu(nn::bias_add(h, conv_bias));
    h = tfcc::max_pool2d(h, {2}, {2}, "VALID");
    h = tfcc::reshape(h, {kBatch, kFlat});
    h = nn::dropout(h, kDropout);
    h = tfcc::relu(nn::bias_add(tfcc::matmul(h, dense_w), dense_b));
    nn::FusedBatchNormResult bn =
        nn::fused_batch_norm(h, gamma, beta, moving_mean, moving_variance,
                             {.epsilon = 1e-3, .exponential_avg_factor = 0.01});
    tfcc::Tensor logits = nn::bias_add(tfcc::matmul(bn.y, out_w), out_b);
    tfcc::Tensor loss = tfcc::reduce_mean(nn::sparse_softmax_cross_entropy_with_logits(y, logits)) +
                        kL2 * tfcc::reduce_sum(tfcc::square(kernel.read_value()));
    std::vector<tfcc::Tensor> grads = tape.gradient(loss, vars);
    for (size_t i = 0; i < vars.size(); ++i) {
      tfcc::training::apply_gradient_descent(vars[i], kLearningRate, grads[i]);
    }
    moving_mean.assign(bn.batch_mean);
    moving_variance.assign(bn.batch_variance);
    return loss;
  }
};

}  // namespace tfcc_bench
