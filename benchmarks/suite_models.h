// The benchmark suite's models (issue 22), built with tfcc's Keras API exactly as
// benchmarks/suite_peers_tf.py builds them in Keras and suite_peers_torch.py in PyTorch:
//
//   resnet       functional ResNet on 28x28x1 images: Conv 32 + BN + ReLU, then 3 stages of 2
//                residual blocks (32, 64, 128 filters; stages 2 and 3 start with stride 2 and a
//                1x1 projection), GlobalAveragePooling2D, Dense(10). Batch 64.
//   gru / lstm   Embedding(50, 64) -> GRU(64) / LSTM(64) -> Dense(2), sequences of 30. Batch 64.
//   transformer  Embedding(1000, 128) -> 4 post-norm encoder layers (self-attention with 4 heads
//                of 32, residual + LayerNormalization, Dense 512 ReLU -> Dense 128, residual +
//                LayerNormalization) -> mean over time -> Dense(2); sequences of 128. Batch 32.
//                tfcc has no MultiHeadAttention layer yet: the attention is the small custom
//                layer below (Dense projections around matmul / softmax / matmul).
//   mlp          Dense 512 ReLU -> Dense 512 ReLU -> Dense 10 on 784 inputs. Batch 128.
//
//   tfcc_bench::SuiteModel m = tfcc_bench::suite_model("gru");
//   m.model.fit(...);   // m.x, m.y: one epoch's worth of random data of the right shapes
#pragma once

#include <cmath>
#include <string>

#include "tfcc/tfcc.h"

namespace tfcc_bench {

namespace kl = tfcc::keras::layers;
using tfcc::keras::KerasTensor;

/// Scaled dot-product attention over `heads` heads on inputs {q, k, v} of shape (B, T, D).
class HeadsAttention : public tfcc::keras::Layer {
  TFCC_KERAS_LAYER(HeadsAttention)
 public:
  explicit HeadsAttention(int64_t heads) : Layer({}, "heads_attention"), heads_(heads) {}

 protected:
  tfcc::keras::Tensors call_n(const tfcc::keras::Tensors& in, bool) override {
    const int64_t t = in[0].shape()[1], d = in[0].shape()[2], dk = d / heads_;
    auto split = [&](const tfcc::Tensor& x) {
      return tfcc::transpose(tfcc::reshape(x, {-1, t, heads_, dk}), {0, 2, 1, 3});
    };
    tfcc::Tensor scores = tfcc::matmul(split(in[0]), split(in[1]), false, true) *
                          static_cast<float>(1.0 / std::sqrt(static_cast<double>(dk)));
    tfcc::Tensor out = tfcc::matmul(tfcc::softmax(scores), split(in[2]));
    return {tfcc::reshape(tfcc::transpose(out, {0, 2, 1, 3}), {-1, t, d})};
  }

 private:
  int64_t heads_;
};

/// Mean over the time axis: (B, T, D) -> (B, D) (Keras' GlobalAveragePooling1D).
class MeanOverTime : public tfcc::keras::Layer {
  TFCC_KERAS_LAYER(MeanOverTime)
 public:
  MeanOverTime() : Layer({}, "mean_over_time") {}

 protected:
  tfcc::Tensor call(const tfcc::Tensor& x, bool) override { return tfcc::reduce_mean(x, {1}); }
};

inline KerasTensor conv_bn(KerasTensor x, int64_t filters, int64_t kernel, int64_t strides) {
  x = kl::Conv2D(filters, kernel, {.strides = strides, .padding = "same", .use_bias = false})(x);
  return kl::BatchNormalization()(x);
}

inline tfcc::keras::Model resnet() {
  auto inputs = tfcc::keras::Input({28, 28, 1});
  KerasTensor x = kl::ReLU()(conv_bn(inputs, 32, 3, 1));
  for (int64_t filters : {32, 64, 128}) {
    for (int block = 0; block < 2; ++block) {
      const int64_t strides = (block == 0 && filters != 32) ? 2 : 1;
      KerasTensor shortcut = strides == 2 ? conv_bn(x, filters, 1, 2) : x;
      KerasTensor y = kl::ReLU()(conv_bn(x, filters, 3, strides));
      y = conv_bn(y, filters, 3, 1);
      x = kl::ReLU()(kl::Add()({shortcut, y}));
    }
  }
  x = kl::GlobalAveragePooling2D()(x);
  return tfcc::keras::Model(inputs, kl::Dense(10)(x), {.name = "resnet"});
}

inline tfcc::keras::Model recurrent(const std::string& kind) {
  auto ids = tfcc::keras::Input({30}, {.dtype = tfcc::int32});
  KerasTensor h = kl::Embedding(50, 64)(ids);
  h = kind == "gru" ? kl::GRU(64)(h) : kl::LSTM(64)(h);
  return tfcc::keras::Model(ids, kl::Dense(2)(h), {.name = kind});
}

inline tfcc::keras::Model transformer() {
  constexpr int64_t kModel = 128, kHeads = 4, kFeedForward = 512;
  auto ids = tfcc::keras::Input({128}, {.dtype = tfcc::int32});
  KerasTensor x = kl::Embedding(1000, kModel)(ids);
  for (int layer = 0; layer < 4; ++layer) {
    KerasTensor att =
        HeadsAttention(kHeads)({kl::Dense(kModel)(x), kl::Dense(kModel)(x), kl::Dense(kModel)(x)});
    x = kl::LayerNormalization()(kl::Add()({x, kl::Dense(kModel)(att)}));
    KerasTensor ff = kl::Dense(kModel)(kl::Dense(kFeedForward, {.activation = "relu"})(x));
    x = kl::LayerNormalization()(kl::Add()({x, ff}));
  }
  return tfcc::keras::Model(ids, kl::Dense(2)(MeanOverTime()(x)), {.name = "transformer"});
}

inline tfcc::keras::Model mlp() {
  auto inputs = tfcc::keras::Input({784});
  KerasTensor h = kl::Dense(512, {.activation = "relu"})(inputs);
  h = kl::Dense(512, {.activation = "relu"})(h);
  return tfcc::keras::Model(inputs, kl::Dense(10)(h), {.name = "mlp"});
}

/// A model, its batch size and `batches` batches of random training data.
struct SuiteModel {
  tfcc::keras::Model model;
  int64_t batch = 64;
  tfcc::Tensor x, y;
};

/// The workload's model and data; InvalidArgumentError for an unknown name.
inline SuiteModel suite_model(const std::string& name, int64_t batches = 16) {
  auto ids = [&](int64_t n, int64_t len, double vocab) {
    return tfcc::cast(tfcc::random::uniform({n, len}, 0.0, vocab), tfcc::int32);
  };
  auto labels = [](int64_t n, double classes) {
    return tfcc::cast(tfcc::random::uniform({n}, 0.0, classes), tfcc::int32);
  };
  if (name == "resnet") {
    const int64_t n = 64 * batches;
    return {resnet(), 64, tfcc::random::uniform({n, 28, 28, 1}), labels(n, 10)};
  }
  if (name == "gru" || name == "lstm") {
    const int64_t n = 64 * batches;
    return {recurrent(name), 64, ids(n, 30, 50), labels(n, 2)};
  }
  if (name == "transformer") {
    const int64_t n = 32 * batches;
    return {transformer(), 32, ids(n, 128, 1000), labels(n, 2)};
  }
  if (name == "mlp") {
    const int64_t n = 128 * batches;
    return {mlp(), 128, tfcc::random::uniform({n, 784}), labels(n, 10)};
  }
  throw tfcc::InvalidArgumentError("suite_model: unknown workload '" + name +
                                   "' (resnet, gru, lstm, transformer, mlp)");
}

}  // namespace tfcc_bench
