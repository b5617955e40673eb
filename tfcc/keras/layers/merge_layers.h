// More merge layers: Subtract (two inputs), Average, Maximum and Minimum (element-wise over a
// list, NumPy broadcasting) and Dot (the batched dot product along given axes).
//
//   auto a = keras::Input({16}), b = keras::Input({16});
//   auto d = layers::Subtract()({a, b});                         // a - b
//   auto m = layers::Average()({a, b});                          // (a + b) / 2
//   auto s = layers::Dot(1, {.normalize = true})({a, b});        // cosine similarity, (None, 1)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// inputs[0] - inputs[1] (exactly two inputs).
class Subtract : public Layer {
  TFCC_KERAS_LAYER(Subtract)
  TFCC_KERAS_CONFIG(Subtract)
 public:
  explicit Subtract(LayerArgs args = {});

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// The element-wise mean of the inputs.
class Average : public Layer {
  TFCC_KERAS_LAYER(Average)
  TFCC_KERAS_CONFIG(Average)
 public:
  explicit Average(LayerArgs args = {});

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// The element-wise maximum of the inputs.
class Maximum : public Layer {
  TFCC_KERAS_LAYER(Maximum)
  TFCC_KERAS_CONFIG(Maximum)
 public:
  explicit Maximum(LayerArgs args = {});

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// The element-wise minimum of the inputs.
class Minimum : public Layer {
  TFCC_KERAS_LAYER(Minimum)
  TFCC_KERAS_CONFIG(Minimum)
 public:
  explicit Minimum(LayerArgs args = {});

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
};

/// Options of Dot.
struct DotOptions {
  /// L2-normalise both inputs along their dot axes first (the output is then the cosine
  /// similarity).
  bool normalize = false;
  std::string name;
  bool trainable = true;
};

/// The dot product of two batched tensors along `axes` (one axis for both, or one per input;
/// negative counts from the end; the batch axis 0 cannot be one): for (b, n) and (b, n) the
/// output is (b, 1); for (b, m, k) and (b, k, n) with axes {2, 1}, (b, m, n).
class Dot : public Layer {
  TFCC_KERAS_LAYER(Dot)
  TFCC_KERAS_CONFIG(Dot)
 public:
  using Options = DotOptions;
  explicit Dot(std::vector<int64_t> axes, Options options = {});
  explicit Dot(int64_t axes, Options options = {}) : Dot(std::vector<int64_t>{axes}, options) {}

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  std::vector<int64_t> axes_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
