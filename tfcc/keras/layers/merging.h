// Merge layers: combine a list of tensors of the same shape (Add, Multiply) or join them along an
// axis (Concatenate).
//
//   auto a = keras::Input({16}), b = keras::Input({16});
//   auto s = layers::Add()({a, b});                        // (None, 16)
//   auto c = layers::Concatenate({.axis = -1})({a, b});    // (None, 32)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Concatenate.
struct ConcatenateOptions {
  int64_t axis = -1;
  std::string name;
  bool trainable = true;
};

/// Element-wise sum of the inputs (NumPy broadcasting).
class Add : public Layer {
  TFCC_KERAS_LAYER(Add)
  TFCC_KERAS_CONFIG(Add)
 public:
  explicit Add(LayerArgs args = {});
  /// Keras' merge mask: the and of the inputs' masks.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// Element-wise product of the inputs.
class Multiply : public Layer {
  TFCC_KERAS_LAYER(Multiply)
  TFCC_KERAS_CONFIG(Multiply)
 public:
  explicit Multiply(LayerArgs args = {});
  /// Keras' merge mask: the and of the inputs' masks.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// Joins the inputs along `axis`.
class Concatenate : public Layer {
  TFCC_KERAS_LAYER(Concatenate)
  TFCC_KERAS_CONFIG(Concatenate)
 public:
  using Options = ConcatenateOptions;
  explicit Concatenate(Options options = {});
  /// Keras': the masks (all-true for an input without one) joined along `axis`, any over the
  /// last axis.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
