// GlobalAveragePooling1D with Keras' masked mean: (batch, steps, features) -> (batch, features),
// the mean over the valid steps when the input carries a mask (padded steps do not count).
//
//   auto h = layers::Embedding(1000, 16, {.mask_zero = true})(ids);
//   auto v = layers::GlobalAveragePooling1D()(h);     // mean over the non-padding tokens
//
// (Issue 19 item 4. The other 1-D / 3-D pooling layers are item 5's; this class should stay
// the one GlobalAveragePooling1D when both land.)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of GlobalAveragePooling1D (Keras defaults).
struct GlobalPooling1DOptions {
  std::string data_format = "channels_last";  ///< or "channels_first": (batch, features, steps)
  bool keepdims = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// The mean over the steps axis; with a mask (batch, steps), over the valid steps only. The
/// output carries no mask.
class GlobalAveragePooling1D : public Layer {
  TFCC_KERAS_LAYER(GlobalAveragePooling1D)
  TFCC_KERAS_CONFIG(GlobalAveragePooling1D)
 public:
  using Options = GlobalPooling1DOptions;
  explicit GlobalAveragePooling1D(Options options = {});
  /// None: the steps are gone.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
