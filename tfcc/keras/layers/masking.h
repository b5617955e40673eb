// Masking: marks the time steps whose features all equal `mask_value` as padding. The output is
// the input with those steps zeroed, and carries a Keras mask (batch, time) that downstream
// layers honour: RNNs keep their previous state over masked steps, attention ignores them,
// GlobalAveragePooling1D averages the valid steps and compiled losses and metrics skip them.
//
//   auto x = keras::Input({-1, 8});                       // zero-padded sequences
//   auto h = layers::Masking()(x);                         // mask: any(x != 0, axis=-1)
//   auto y = layers::LSTM(16)(h);                          // runs over the valid steps only
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Masking (Keras defaults).
struct MaskingOptions {
  double mask_value = 0.0;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Keras' Masking layer.
class Masking : public Layer {
  TFCC_KERAS_LAYER(Masking)
  TFCC_KERAS_CONFIG(Masking)
 public:
  using Options = MaskingOptions;
  explicit Masking(Options options = {});
  double mask_value() const { return options_.mask_value; }
  /// any(inputs != mask_value, axis=-1).
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
