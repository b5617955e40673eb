// A Bidirectional LSTM over variable-length sequences, padded with 0 and masked (issue 19):
// Embedding(mask_zero) marks the padding, the LSTMs keep their state over it in both
// directions, and the loss and accuracy ignore nothing they should not. The task, synthetic:
// does a sequence hold more 1s than 2s? Python it mirrors:
//
//   inputs = keras.Input((None,), dtype="int32")
//   x = layers.Embedding(10, 8, mask_zero=True)(inputs)
//   x = layers.Bidirectional(layers.LSTM(8))(x)
//   outputs = layers.Dense(1, activation="sigmoid")(x)
//   model = keras.Model(inputs, outputs)
//   model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
//   model.fit(x_train, y_train, batch_size=32, epochs=6, validation_split=0.2)
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace {

constexpr int64_t kSamples = 1000, kMaxLen = 12, kVocab = 10;

// Sequences of 3..kMaxLen tokens in 1..9, padded with 0; label 1 when 1s outnumber 2s.
std::pair<tf::Tensor, tf::Tensor> make_data(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(3, kMaxLen), token(1, kVocab - 1);
  std::vector<int32_t> ids(kSamples * kMaxLen, 0);
  std::vector<float> labels;
  for (int64_t i = 0; i < kSamples; ++i) {
    int ones = 0, twos = 0;
    // Biased towards 1s and 2s so that both classes are common.
    for (int t = 0, n = length(rng); t < n; ++t) {
      int v = token(rng);
      if (v > 4) v = v % 2 + 1;
      ids[i * kMaxLen + t] = v;
      ones += v == 1;
      twos += v == 2;
    }
    labels.push_back(ones > twos ? 1.f : 0.f);
  }
  return {tf::Tensor::from_vector(ids, {kSamples, kMaxLen}),
          tf::Tensor::from_vector(labels, {kSamples, 1})};
}

}  // namespace

static int example_main() {
  tf::random::set_seed(7);
  auto [x, y] = make_data(2026);

  auto inputs = Input({-1}, {.dtype = tf::int32});
  auto h = layers::Embedding(kVocab, 8, {.mask_zero = true})(inputs);
  h = layers::Bidirectional(layers::LSTM(8))(h);
  auto outputs = layers::Dense(1, {.activation = "sigmoid"})(h);
  Model model(inputs, outputs);
  model.summary();
  model.compile({.optimizer = optimizers::Adam(0.01),
                 .loss = "binary_crossentropy",
                 .metrics = {"accuracy"}});
  auto history =
      model.fit(x, y, {.batch_size = 32, .epochs = 6, .verbose = 0, .validation_split = 0.2});
  const double acc = history["accuracy"].back();
  const double val_acc = history["val_accuracy"].back();
  std::printf("accuracy %.3f, val_accuracy %.3f after %zu epochs\n", acc, val_acc,
              history["accuracy"].size());
  // Padding must not matter: one sequence, alone and padded, gets the same prediction.
  auto seq = tf::Tensor::from_vector(std::vector<int32_t>{1, 3, 1, 2}, {1, 4});
  auto padded = tf::Tensor::from_vector(std::vector<int32_t>{1, 3, 1, 2, 0, 0, 0, 0}, {1, 8});
  const float p = model.predict(seq).to_vector<float>()[0];
  const float q = model.predict(padded).to_vector<float>()[0];
  std::printf("P(more 1s than 2s | [1 3 1 2]) = %.4f, padded with 4 zeros: %.4f\n", p, q);
  return val_acc > 0.8 && std::abs(p - q) < 1e-5 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
