// Scaled dot-product attention as one fused op: softmax(q k^T * scale + bias, masked) v, one query
// row at a time, so the [queries, keys] score matrix is never stored, forward or backward (the
// backward recomputes the scores from the saved per-row logsumexp).
//
//   auto q = tfcc::random::normal({2, 4, 10, 16});   // [batch..., queries, depth]
//   auto k = tfcc::random::normal({2, 4, 12, 16});   // [batch..., keys, depth]
//   auto v = tfcc::random::normal({2, 4, 12, 8});    // [batch..., keys, value depth]
//   auto o = tfcc::scaled_dot_product_attention(q, k, v);          // [2, 4, 10, 8]
//   auto c = tfcc::scaled_dot_product_attention(q, k, v, {.is_causal = true});
//   auto m = tfcc::scaled_dot_product_attention(q, k, v, {.mask = keep});  // keep: bool [.., 10,
//   12]
//
// Masking is Keras' (keras.ops.dot_product_attention): a key the mask or the causal rule (key j
// after query i) excludes gets weight 0; a query whose keys are all excluded averages every
// key's value uniformly. Registered ops: ScaledDotProductAttention (outputs the attention and
// the logsumexp of each query's scores) and ScaledDotProductAttentionGrad.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>
#include <utility>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// Options of scaled_dot_product_attention.
struct AttentionOptions {
  /// bool, broadcastable to [batch..., queries, keys]: true where a query may attend to a key.
  Tensor mask;
  /// Added to the scaled scores (cast to the query's dtype), broadcastable like `mask`.
  Tensor bias;
  /// Query i attends only to keys j <= i (top-left aligned, as Keras and PyTorch).
  bool is_causal = false;
  /// Multiplies q . k; default 1 / sqrt(depth).
  std::optional<double> scale;
};

/// softmax(q k^T * scale + bias over the keys the mask keeps) v, for float32 / float64 q, k, v
/// of shapes [batch..., Tq, D], [batch..., Tk, D], [batch..., Tk, Dv] (the same batch dims).
/// Differentiable in q, k, v and bias; memory O(Tk) per query row in both directions.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const AttentionOptions& options = {}, Loc loc = Loc::current());

/// The same, also returning the logsumexp of each query's scores ([batch..., Tq]; a fully
/// masked query: log(Tk)).
std::pair<Tensor, Tensor> scaled_dot_product_attention_with_lse(
    const Tensor& query, const Tensor& key, const Tensor& value,
    const AttentionOptions& options = {}, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
