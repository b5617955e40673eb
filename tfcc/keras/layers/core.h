// Core layers: Dense, Activation, Flatten, Reshape, Dropout.
//
//   layers::Dense(64, {.activation = "relu", .input_shape = {784}});
//   layers::Flatten();          // (batch, 28, 28, 1) -> (batch, 784)
//   layers::Reshape({7, 7, 16});
//   layers::Dropout(0.1);       // training: zero with probability 0.1, scale kept ones by 1/0.9
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/keras/constraints/constraints.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Dense (Keras defaults).
struct DenseOptions {
  activations::Activation activation;
  bool use_bias = true;
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec kernel_regularizer, bias_regularizer, activity_regularizer;
  /// Applied after each optimizer step (keras.constraints).
  constraints::Spec kernel_constraint, bias_constraint;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Options of Dropout.
struct DropoutOptions {
  std::vector<int64_t> noise_shape;  ///< -1 entries take the input's dimension
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// y = activation(x . kernel + bias); kernel (in, units).
class Dense : public Layer {
  TFCC_KERAS_LAYER(Dense)
  TFCC_KERAS_CONFIG(Dense)
 public:
  using Options = DenseOptions;
  explicit Dense(int64_t units, Options options = {});
  int64_t units() const { return units_; }
  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t units_;
  Options options_;
  Variable kernel_, bias_;
};

/// Applies an activation function.
class Activation : public Layer {
  TFCC_KERAS_LAYER(Activation)
  TFCC_KERAS_CONFIG(Activation)
 public:
  explicit Activation(activations::Activation activation, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  activations::Activation activation_;
};

/// Flattens each example: (batch, d1, d2, ...) -> (batch, d1*d2*...).
class Flatten : public Layer {
  TFCC_KERAS_LAYER(Flatten)
  TFCC_KERAS_CONFIG(Flatten)
 public:
  explicit Flatten(LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;
};

/// Reshapes each example to `target_shape` (one entry may be -1).
class Reshape : public Layer {
  TFCC_KERAS_LAYER(Reshape)
  TFCC_KERAS_CONFIG(Reshape)
 public:
  explicit Reshape(std::vector<int64_t> target_shape, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> target_shape_;
};

/// Inverted dropout: in training, zeroes each element with probability `rate` and scales the rest
/// by 1/(1-rate); the identity otherwise.
class Dropout : public Layer {
  TFCC_KERAS_LAYER(Dropout)
  TFCC_KERAS_CONFIG(Dropout)
 public:
  using Options = DropoutOptions;
  explicit Dropout(double rate, Options options = {});
  double rate() const { return rate_; }

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  double rate_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
