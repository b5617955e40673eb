// EinsumDense: a dense layer whose product is an einsum equation, as Keras' (the projections of
// MultiHeadAttention are EinsumDense layers).
//
//   layers::EinsumDense("abc,cde->abde", {-1, 4, 16}, {.bias_axes = "de"});  // (B, T, 64) ->
//                                                                           // (B, T, 4, 16)
//   layers::EinsumDense("...b,bc->...c", {32});                              // Dense(32)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of EinsumDense (Keras defaults).
struct EinsumDenseOptions {
  activations::Activation activation;
  std::string bias_axes;  ///< output letters a bias spans ("" : no bias)
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec kernel_regularizer, bias_regularizer, activity_regularizer;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// y = activation(einsum(equation, x, kernel) + bias). `equation` is "in,kernel->out" with
/// optional "..." leading the input and output; `output_shape` is the output's shape without
/// the batch dimension (and the dimensions "..." covers); -1 for a dimension the input gives.
class EinsumDense : public Layer {
  TFCC_KERAS_LAYER(EinsumDense)
  TFCC_KERAS_CONFIG(EinsumDense)
 public:
  using Options = EinsumDenseOptions;
  EinsumDense(std::string equation, std::vector<int64_t> output_shape, Options options = {});
  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }
  const std::string& equation() const { return equation_; }

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::string equation_;
  std::vector<int64_t> output_shape_;
  Options options_;
  Variable kernel_, bias_;
};

namespace config {
/// A shape as a Python list, -1 written None.
std::string repr_shape(const std::vector<int64_t>& shape);
}  // namespace config

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
