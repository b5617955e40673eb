// Embedding: maps integer indices to dense vectors of `output_dim`.
//
//   layers::Embedding(1000, 64);     // (batch, seq) int -> (batch, seq, 64)
//   layers::Embedding(1000, 64, {.mask_zero = true});  // index 0 is padding: mask = ids != 0
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Embedding (Keras defaults: uniform(-0.05, 0.05) table).
struct EmbeddingOptions {
  initializers::Spec embeddings_initializer = "random_uniform";
  regularizers::Spec embeddings_regularizer;
  /// Index 0 is padding: the output's Keras mask is `inputs != 0` (downstream RNNs, attention,
  /// pooling and losses skip those steps).
  bool mask_zero = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Looks up rows of an (input_dim, output_dim) table; indices out of range are an error.
class Embedding : public Layer {
  TFCC_KERAS_LAYER(Embedding)
  TFCC_KERAS_CONFIG(Embedding)
 public:
  using Options = EmbeddingOptions;
  Embedding(int64_t input_dim, int64_t output_dim, Options options = {});
  const Variable& embeddings() const { return embeddings_; }
  /// With mask_zero: `inputs != 0`; otherwise none.
  Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const override;

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t input_dim_, output_dim_;
  Options options_;
  Variable embeddings_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
