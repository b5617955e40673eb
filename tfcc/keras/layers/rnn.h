// Recurrent layers: the cells (SimpleRNNCell, LSTMCell, GRUCell), the RNN layer that runs a cell
// over time, and the SimpleRNN / LSTM / GRU layers.
//
//   layers::LSTM lstm(64, {.return_sequences = true});
//   auto seq = lstm(x);                               // x (batch, time, features) -> (b, t, 64)
//
// Masks (Keras'): with an input mask (batch, time), a masked step keeps the previous state and
// output (zeros with zero_output_for_mask); the output's mask is the input's with
// return_sequences, else none.
//
//   layers::LSTMCell cell(13);                        // one step at a time, as the seed's
//   auto state = cell.get_initial_state(batch);       // DynamicRNN does
//   auto [out, next] = cell.step(x_t, state);
//
// Weights as Keras: kernel (input_dim, k * units), recurrent_kernel (units, k * units) initialised
// orthogonal, bias (k * units) with k = 1 (SimpleRNN), 4 (LSTM, gates i, f, c, o; the forget
// gate's bias starts at 1) or 3 (GRU, gates z, r, h; reset_after: bias (2, 3 * units)).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <utility>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of the recurrent cells (Keras defaults).
struct RNNCellOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";  ///< LSTM and GRU gates
  bool use_bias = true;
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec recurrent_initializer = "orthogonal";
  initializers::Spec bias_initializer = "zeros";
  bool unit_forget_bias = true;  ///< LSTM
  bool reset_after = true;       ///< GRU (Keras 2 default)
  regularizers::Spec kernel_regularizer, recurrent_regularizer, bias_regularizer;
  std::string name;
  bool trainable = true;
  DType dtype = float32;
};

/// A recurrent cell: one time step from (input, states) to (output, new states).
class RNNCell : public Layer {
 public:
  RNNCell(int64_t units, RNNCellOptions options, const std::string& default_name);
  int64_t units() const { return units_; }
  /// The size of each state tensor (LSTM: {units, units} for h and c).
  virtual std::vector<int64_t> state_size() const { return {units_}; }
  /// Zeros for each state, for a batch of `batch_size`.
  Tensors get_initial_state(int64_t batch_size) const;
  /// One step: (output, new states). Builds the cell on first use.
  std::pair<Tensor, Tensors> step(const Tensor& inputs, const Tensors& states,
                                  CallOptions options = {});
  /// The weights (after build).
  const Variable& kernel() const { return kernel_; }
  const Variable& recurrent_kernel() const { return recurrent_kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
  /// Creates kernel, recurrent_kernel and bias for `gates` gates.
  void build_gates(const PartialShape& input_shape, int64_t gates);
  void build_n(const std::vector<PartialShape>& input_shapes) override;
  Tensors call_n(const Tensors& inputs, bool training) override;
  /// The step computation for (inputs, states).
  virtual std::pair<Tensor, Tensors> cell_call(const Tensor& inputs, const Tensors& states) = 0;
  /// Weights for build_gates to create.
  virtual void build_cell(const PartialShape& input_shape) = 0;

  int64_t units_;
  RNNCellOptions options_;
  Variable kernel_, recurrent_kernel_, bias_;
};

/// h = activation(x W + h_prev U + b).
class SimpleRNNCell : public RNNCell {
  TFCC_KERAS_LAYER(SimpleRNNCell)
  TFCC_KERAS_CONFIG(SimpleRNNCell)
 public:
  explicit SimpleRNNCell(int64_t units, RNNCellOptions options = {});

 protected:
  void build_cell(const PartialShape& input_shape) override;
  std::pair<Tensor, Tensors> cell_call(const Tensor& inputs, const Tensors& states) override;
};

/// Long short-term memory step; states (h, c).
class LSTMCell : public RNNCell {
  TFCC_KERAS_LAYER(LSTMCell)
  TFCC_KERAS_CONFIG(LSTMCell)
 public:
  explicit LSTMCell(int64_t units, RNNCellOptions options = {});
  std::vector<int64_t> state_size() const override { return {units_, units_}; }

 protected:
  void build_cell(const PartialShape& input_shape) override;
  std::pair<Tensor, Tensors> cell_call(const Tensor& inputs, const Tensors& states) override;
};

/// Gated recurrent unit step (Keras 2: reset_after = true by default).
class GRUCell : public RNNCell {
  TFCC_KERAS_LAYER(GRUCell)
  TFCC_KERAS_CONFIG(GRUCell)
 public:
  explicit GRUCell(int64_t units, RNNCellOptions options = {});

 protected:
  void build_cell(const PartialShape& input_shape) override;
  std::pair<Tensor, Tensors> cell_call(const Tensor& inputs, const Tensors& states) override;
};

/// Options of RNN (Keras defaults).
struct RNNOptions {
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  /// Masked steps output zeros instead of the previous output (Bidirectional sets it to
  /// return_sequences, as Keras).
  bool zero_output_for_mask = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Runs a cell over the time axis of (batch, time, features). Outputs: the last output (or every
/// output with return_sequences), then the final states with return_state.
class RNN : public Layer {
  TFCC_KERAS_LAYER(RNN)
  TFCC_KERAS_CONFIG(RNN)
 public:
  using Options = RNNOptions;
  /// Wraps `cell` (a cell value, moved, or a shared_ptr).
  template <typename C>
  requires(std::is_base_of_v<RNNCell, std::decay_t<C>> &&
           !std::is_lvalue_reference_v<C>) explicit RNN(C&& cell, Options options = {})
      : RNN(std::static_pointer_cast<RNNCell>(std::make_shared<std::decay_t<C>>(std::move(cell))),
            std::move(options)) {}
  explicit RNN(std::shared_ptr<RNNCell> cell, Options options = {},
               const std::string& default_name = "rnn");
  const std::shared_ptr<RNNCell>& cell() const { return cell_; }
  bool return_sequences() const { return options_.return_sequences; }
  bool return_state() const { return options_.return_state; }
  bool go_backwards() const { return options_.go_backwards; }
  bool zero_output_for_mask() const { return options_.zero_output_for_mask; }
  virtual void set_zero_output_for_mask(bool zero) { options_.zero_output_for_mask = zero; }
  /// The input mask with return_sequences (then none for each state), else none.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  void build(const PartialShape& input_shape) override;
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  std::shared_ptr<RNNCell> cell_;
  Options options_;
};

/// Options of the SimpleRNN / LSTM / GRU layers: the cell's and the RNN's.
struct RecurrentOptions {
  activations::Activation activation = "tanh";
  activations::Activation recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec recurrent_initializer = "orthogonal";
  initializers::Spec bias_initializer = "zeros";
  bool unit_forget_bias = true;
  bool reset_after = true;
  regularizers::Spec kernel_regularizer, recurrent_regularizer, bias_regularizer;
  bool return_sequences = false;
  bool return_state = false;
  bool go_backwards = false;
  bool zero_output_for_mask = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// RNN(SimpleRNNCell(units)).
class SimpleRNN : public RNN {
  TFCC_KERAS_LAYER(SimpleRNN)
  TFCC_KERAS_CONFIG(SimpleRNN)
 public:
  explicit SimpleRNN(int64_t units, RecurrentOptions options = {});
  void set_zero_output_for_mask(bool zero) override {
    RNN::set_zero_output_for_mask(zero);
    options_.zero_output_for_mask = zero;
  }

 private:
  int64_t units_;
  RecurrentOptions options_;
};

/// RNN(LSTMCell(units)).
class LSTM : public RNN {
  TFCC_KERAS_LAYER(LSTM)
  TFCC_KERAS_CONFIG(LSTM)
 public:
  explicit LSTM(int64_t units, RecurrentOptions options = {});
  void set_zero_output_for_mask(bool zero) override {
    RNN::set_zero_output_for_mask(zero);
    options_.zero_output_for_mask = zero;
  }

 private:
  int64_t units_;
  RecurrentOptions options_;
};

/// RNN(GRUCell(units)).
class GRU : public RNN {
  TFCC_KERAS_LAYER(GRU)
  TFCC_KERAS_CONFIG(GRU)
 public:
  explicit GRU(int64_t units, RecurrentOptions options = {});
  void set_zero_output_for_mask(bool zero) override {
    RNN::set_zero_output_for_mask(zero);
    options_.zero_output_for_mask = zero;
  }

 private:
  int64_t units_;
  RecurrentOptions options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
