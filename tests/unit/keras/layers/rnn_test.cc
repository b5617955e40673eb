// Recurrent cells and layers: Keras' parameter counts, the LSTM step by hand, return_sequences /
// return_state / go_backwards, gradients.
#include "tfcc/keras/layers/rnn.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

double sig(double v) { return 1 / (1 + std::exp(-v)); }

TEST(RNN, KerasParameterCounts) {
  auto x = ones({2, 5, 32});
  layers::LSTM lstm(64);
  EXPECT_EQ(lstm(x).shape(), (Shape{2, 64}));
  EXPECT_EQ(lstm.count_params(), 24832);
  layers::GRU gru(64);
  gru(x);
  EXPECT_EQ(gru.count_params(), 18816);
  layers::SimpleRNN rnn(64);
  rnn(x);
  EXPECT_EQ(rnn.count_params(), 6208);
  EXPECT_EQ(lstm.trainable_variables()[0].name(),
            lstm.name() + "/" + lstm.cell()->name() + "/kernel");
}

TEST(LSTMCell, OneStepByHand) {
  layers::LSTMCell cell(1, {.kernel_initializer = "ones", .recurrent_initializer = "ones"});
  auto state = cell.get_initial_state(1);
  auto [h, next] = cell.step(constant({{1.f}}), state);
  // Bias (0, 1, 0, 0): i = s(1), f = s(2), c = i tanh(1), o = s(1), h = o tanh(c).
  const double c = sig(1) * std::tanh(1.0);
  EXPECT_NEAR(h.item<float>(), sig(1) * std::tanh(c), 1e-6);
  EXPECT_NEAR(next[1].item<float>(), c, 1e-6);
  auto bias = cell.bias().read_value().to_vector<float>();
  EXPECT_EQ(bias, (std::vector<float>{0, 1, 0, 0}));
  EXPECT_THROW(cell.step(constant({{1.f}}), {state[0]}), InvalidArgumentError);
}

TEST(GRUCell, OneStepByHand) {
  layers::GRUCell cell(1, {.kernel_initializer = "ones", .recurrent_initializer = "ones"});
  auto [h, next] = cell.step(constant({{2.f}}), {constant({{0.5f}})});
  // z = s(2 + 0.5), r = s(2 + 0.5), hh = tanh(2 + r * 0.5), h = z * 0.5 + (1 - z) hh.
  const double z = sig(2.5), r = sig(2.5), hh = std::tanh(2 + r * 0.5);
  EXPECT_NEAR(h.item<float>(), z * 0.5 + (1 - z) * hh, 1e-6);
}

TEST(RNN, SequencesStatesAndDirection) {
  auto x = random::normal({3, 4, 2});
  layers::LSTM lstm(5, {.return_sequences = true, .return_state = true});
  auto outs = lstm(Tensors{x});
  ASSERT_EQ(outs.size(), 3u);
  EXPECT_EQ(outs[0].shape(), (Shape{3, 4, 5}));
  EXPECT_EQ(outs[1].shape(), (Shape{3, 5}));
  EXPECT_EQ(outs[0](all, 3).to_vector<float>(), outs[1].to_vector<float>());
  // go_backwards on the reversed sequence equals forward on the original.
  auto cell = std::make_shared<layers::SimpleRNNCell>(3);
  layers::RNN fwd(cell), bwd(cell, {.go_backwards = true});
  EXPECT_EQ(fwd(x).to_vector<float>(), bwd(reverse(x, {1})).to_vector<float>());
}

TEST(RNN, WrapsACellValueAndFunctionalShapes) {
  auto in = Input({7, 3});
  auto out = layers::RNN(layers::GRUCell(4), {.return_sequences = true})(in);
  EXPECT_EQ(out.shape(), (PartialShape{-1, 7, 4}));
}

TEST(RNN, Gradients) {
  auto x = random::normal({2, 3, 2}, 0, 1, float64);
  layers::LSTM lstm(2, {.dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(lstm, x), 1e-6);
  layers::GRU gru(2, {.return_sequences = true, .dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(gru, x), 1e-6);
  layers::SimpleRNN rnn(2, {.dtype = float64});
  EXPECT_LT(testing::layer_gradient_error(rnn, x), 1e-6);
}

}  // namespace
}  // namespace tfcc::keras
