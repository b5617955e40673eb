// keras::utils array helpers (keras.utils.to_categorical).
//
//   Tensor y = Tensor::from_vector<int64_t>({0, 2, 1});
//   tfcc::keras::utils::to_categorical(y);      // float32 [[1,0,0],[0,0,1],[0,1,0]]
//   tfcc::keras::utils::to_categorical(y, 4);   // (3, 4)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::utils {

/// One-hot rows: class labels of shape S (integers, or reals truncated as Keras casts them) ->
/// float32 of shape S + (num_classes,); a trailing dimension of 1 in S is dropped first, as
/// Keras does. num_classes defaults to the largest label + 1. A label outside
/// [0, num_classes) is an InvalidArgumentError naming it and its position.
Tensor to_categorical(const Tensor& y, std::optional<int64_t> num_classes = std::nullopt);

}  // namespace tfcc::keras::utils
#pragma GCC visibility pop
