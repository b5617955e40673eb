// Layer wrappers, as Keras 3's: Bidirectional runs a recurrent layer forwards and a copy of it
// backwards over the sequence and merges the two; TimeDistributed applies a layer to every time
// step. Both pass Keras masks through, and their configs and .keras / .weights.h5 layouts are
// Keras' (forward_layer / backward_layer, layer).
//
//   auto ids = keras::Input({-1}, {.dtype = int32});
//   auto h = layers::Embedding(1000, 32, {.mask_zero = true})(ids);
//   auto seq = layers::Bidirectional(layers::LSTM(16, {.return_sequences = true}))(h);  // 32
//   auto tags = layers::TimeDistributed(layers::Dense(5))(seq);     // (None, None, 5), masked
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <type_traits>

#include "tfcc/keras/layers/rnn.h"

namespace tfcc::keras::layers {

/// Options of Bidirectional (Keras defaults).
struct BidirectionalOptions {
  /// "concat" (default), "sum", "mul", "ave", or "none" (Keras' None: both outputs, forward
  /// first).
  std::string merge_mode = "concat";
  /// The backward layer (a recurrent layer with go_backwards = true); default: a copy of the
  /// wrapped layer's config with go_backwards.
  std::shared_ptr<RNN> backward_layer;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Keras' Bidirectional. Outputs: the merged output (two outputs with merge_mode "none"), then
/// with return_state the forward layer's states and the backward layer's. Extra inputs after
/// the sequence are initial states, forward ones first.
class Bidirectional : public Layer {
  TFCC_KERAS_LAYER(Bidirectional)
  TFCC_KERAS_CONFIG(Bidirectional)
 public:
  using Options = BidirectionalOptions;
  /// Wraps a recurrent layer: its config is copied as "forward_<name>" (and "backward_<name>"
  /// with go_backwards), as Keras recreates them; the layer itself is not used.
  explicit Bidirectional(std::shared_ptr<RNN> layer, Options options = {});
  template <typename R>
  requires(std::is_base_of_v<RNN, std::decay_t<R>> &&
           !std::is_lvalue_reference_v<R>) explicit Bidirectional(R&& layer, Options options = {})
      : Bidirectional(std::make_shared<std::decay_t<R>>(std::move(layer)), std::move(options)) {}

  const std::shared_ptr<RNN>& forward_layer() const { return forward_; }
  const std::shared_ptr<RNN>& backward_layer() const { return options_.backward_layer; }
  const std::string& merge_mode() const { return options_.merge_mode; }
  /// The input mask for each sequence output (with return_sequences), none for the states.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  void build(const PartialShape& input_shape) override;
  void build_n(const std::vector<PartialShape>& input_shapes) override;
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  std::shared_ptr<RNN> forward_;
  Options options_;
};

/// Options of TimeDistributed.
struct TimeDistributedOptions {
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Applies `layer` to each time step of (batch, time, ...): the steps are folded into the batch,
/// (batch * time, ...), for one call of the layer. The mask (batch, time) passes through.
class TimeDistributed : public Layer {
  TFCC_KERAS_LAYER(TimeDistributed)
  TFCC_KERAS_CONFIG(TimeDistributed)
 public:
  using Options = TimeDistributedOptions;
  explicit TimeDistributed(std::shared_ptr<Layer> layer, Options options = {});
  template <typename L>
  requires(std::is_base_of_v<Layer, std::decay_t<L>> &&
           !std::is_same_v<std::decay_t<L>, TimeDistributed> &&
           !std::is_lvalue_reference_v<L>) explicit TimeDistributed(L&& layer, Options options = {})
      : TimeDistributed(std::make_shared<std::decay_t<L>>(std::move(layer)), std::move(options)) {}
  const std::shared_ptr<Layer>& layer() const { return layer_; }

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::shared_ptr<Layer> layer_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
