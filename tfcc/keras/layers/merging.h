// Merge layers: combine a list of tensors of the same shape element-wise (Add, Multiply, and
// Subtract / Average / Maximum / Minimum in merge_layers.h, all on the Merge base) or join them
// along an axis (Concatenate).
//
//   auto a = keras::Input({16}), b = keras::Input({16});
//   auto s = layers::Add()({a, b});                        // (None, 16)
//   auto c = layers::Concatenate({.axis = -1})({a, b});    // (None, 32)
//
// Masks follow Keras 3: the output mask is the OR of the inputs' masks when every input has one,
// none otherwise; Multiply, Maximum and Minimum also keep masked steps out of the values (a masked
// factor counts as 1, a masked step takes the other inputs' value).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Concatenate.
struct ConcatenateOptions {
  int64_t axis = -1;
  std::string name;
  bool trainable = true;
};

/// Keras' Merge: an element-wise combination of at least two inputs (NumPy broadcasting), with
/// Keras 3's mask rule (the OR of the inputs' masks when all have one, else none).
class Merge : public Layer {
 public:
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Merge(LayerArgs args, std::string default_name);
  /// Checks the number of inputs, then merge().
  Tensors call_n(const Tensors& inputs, bool training) final;
  /// The combination of `inputs` (at least two; the call's masks in input_masks()).
  virtual Tensor merge(const Tensors& inputs) = 0;
  /// How many inputs the layer takes exactly (0: any number from two).
  virtual size_t exact_inputs() const { return 0; }
  /// `mask` (true = valid step) as bool, with a trailing axis when it has fewer axes than `x`,
  /// so that it broadcasts against x.
  static Tensor step_mask(const Tensor& mask, const Tensor& x);
  /// Keras 3's fold for operations without an identity (Maximum, Minimum): a masked step of one
  /// operand takes the other's value, so masked steps never win.
  Tensor fold_masked(const Tensors& inputs,
                     const std::function<Tensor(const Tensor&, const Tensor&)>& op) const;
};

/// Element-wise sum of the inputs.
class Add : public Merge {
  TFCC_KERAS_LAYER(Add)
  TFCC_KERAS_CONFIG(Add)
 public:
  explicit Add(LayerArgs args = {});

 protected:
  Tensor merge(const Tensors& inputs) override;
};

/// Element-wise product of the inputs.
class Multiply : public Merge {
  TFCC_KERAS_LAYER(Multiply)
  TFCC_KERAS_CONFIG(Multiply)
 public:
  explicit Multiply(LayerArgs args = {});

 protected:
  Tensor merge(const Tensors& inputs) override;
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
