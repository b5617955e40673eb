// Attention layers, as Keras 3's: MultiHeadAttention (weights laid out like Keras', so its
// .keras / .weights.h5 files load), Attention (dot-product, Luong) and AdditiveAttention
// (Bahdanau).
//
//   auto x = keras::Input({16, 64});
//   auto y = layers::MultiHeadAttention(4, 16)({x, x});          // self-attention, (None, 16, 64)
//   layers::MultiHeadAttention mha(4, 16, {.dropout = 0.1});
//   auto [out, scores] = mha.attend(q, v, {}, {.use_causal_mask = true,
//                                              .return_attention_scores = true});
//   auto c = layers::Attention()({query, value});                // (B, Tq, dim)
//
// A functional call takes [query, value], [query, value, key] or [query, value, key, mask]
// (mask: bool [B, Tq, Tk], true = attend). Without dropout in training and without the scores,
// MultiHeadAttention runs the fused scaled_dot_product_attention op; otherwise it follows
// Keras' einsum path.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <utility>

#include "tfcc/keras/layers/einsum_dense.h"

namespace tfcc::keras::layers {

/// Options of MultiHeadAttention (Keras defaults).
struct MultiHeadAttentionOptions {
  int64_t value_dim = -1;  ///< default: key_dim
  double dropout = 0.0;
  bool use_bias = true;
  std::vector<int64_t> output_shape;    ///< default: the query's last dimension
  std::vector<int64_t> attention_axes;  ///< default: the axes between batch and features
  initializers::Spec kernel_initializer = "glorot_uniform";
  initializers::Spec bias_initializer = "zeros";
  regularizers::Spec kernel_regularizer, bias_regularizer, activity_regularizer;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  DType dtype = float32;
};

/// Per-call arguments of the attention layers.
struct AttentionCall {
  Tensor attention_mask;  ///< bool [B, Tq, Tk] (or broadcastable), true = attend
  /// Keras masks of the inputs: bool [B, Tq] / [B, Tk] (a functional or masked call fills them
  /// from the inputs' masks). MultiHeadAttention also takes the key's.
  Tensor query_mask, value_mask, key_mask;
  bool use_causal_mask = false;
  bool return_attention_scores = false;
  bool training = false;
};

/// Keras' MultiHeadAttention: query/key/value EinsumDense projections to (heads, key_dim) with
/// kernels (dim, heads, key_dim), attention per head, and the output EinsumDense back.
class MultiHeadAttention : public Layer {
  TFCC_KERAS_LAYER(MultiHeadAttention)
  TFCC_KERAS_CONFIG(MultiHeadAttention)
 public:
  using Options = MultiHeadAttentionOptions;
  MultiHeadAttention(int64_t num_heads, int64_t key_dim, Options options = {});
  /// The attention output and, when asked, the scores [B, heads, Tq, Tk] (else undefined).
  std::pair<Tensor, Tensor> attend(const Tensor& query, const Tensor& value, const Tensor& key = {},
                                   const AttentionCall& call = {});

 protected:
  void build_n(const std::vector<PartialShape>& input_shapes) override;
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  int64_t num_heads_, key_dim_;
  Options options_;
  std::string dot_equation_, combine_equation_;
  std::vector<int64_t> norm_axes_;
  std::shared_ptr<EinsumDense> query_dense_, key_dense_, value_dense_, output_dense_;
};

/// Options of Attention and AdditiveAttention.
struct AttentionOptions {
  bool use_scale = false;          ///< Attention: a trainable scalar; Additive: a vector
  std::string score_mode = "dot";  ///< Attention: "dot" or "concat"
  double dropout = 0.0;
  std::optional<int64_t> seed;
  std::string name;
  bool trainable = true;
  DType dtype = float32;
};

/// Dot-product attention: softmax(q k^T [* scale]) v over [query, value(, key)].
class Attention : public Layer {
  TFCC_KERAS_LAYER(Attention)
  TFCC_KERAS_CONFIG(Attention)
 public:
  using Options = AttentionOptions;
  explicit Attention(Options options = {});
  std::pair<Tensor, Tensor> attend(const Tensor& query, const Tensor& value, const Tensor& key = {},
                                   const AttentionCall& call = {});

 protected:
  void build_n(const std::vector<PartialShape>& input_shapes) override;
  Tensors call_n(const Tensors& inputs, bool training) override;
  Attention(Options options, const std::string& default_name);
  /// The scores [B, Tq, Tk] of query and key.
  virtual Tensor scores(const Tensor& query, const Tensor& key);

  Options options_;
  Variable scale_, concat_score_weight_;
};

/// Additive attention: scores sum(scale * tanh(q + k), -1).
class AdditiveAttention : public Attention {
  TFCC_KERAS_LAYER(AdditiveAttention)
  TFCC_KERAS_CONFIG(AdditiveAttention)
 public:
  explicit AdditiveAttention(Options options = {.use_scale = true});

 protected:
  void build_n(const std::vector<PartialShape>& input_shapes) override;
  Tensor scores(const Tensor& query, const Tensor& key) override;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
