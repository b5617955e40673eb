// Small helpers the loss families share (internal to tfcc/keras/losses, not installed API).
#pragma once

#include <cstdint>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::losses::detail {

/// y_true in y_pred's dtype (Keras casts targets to the prediction dtype).
Tensor as_pred_dtype(const Tensor& y_true, const Tensor& y_pred);

/// The size of the `axis` dimension as a scalar of `dtype` (static when known).
Tensor dim_as(const Tensor& t, int64_t axis, DType dtype);

/// y_true cast to y_pred's dtype and both brought to the same rank (Keras'
/// squeeze_or_expand_to_same_rank), for the per-sample functions.
void same_rank_targets(Tensor& y_true, Tensor& y_pred);

}  // namespace tfcc::keras::losses::detail
