// Helpers shared by tfcc/ops/image/*.cc.
#pragma once

#include <source_location>
#include <utility>

#include "tfcc/core/tensor.h"

namespace tfcc::image::internal {

/// `image` as a rank-4 batch (a rank-3 image gets a batch of one) and whether it was one
/// already. InvalidArgumentError naming `op` for other ranks.
std::pair<Tensor, bool> as_batch(const Tensor& image, const char* op, std::source_location loc);

/// The rank of `image`, checked to be 3 or 4 (InvalidArgumentError naming `op`).
int image_rank(const Tensor& image, const char* op);

/// True for float32 / float64 / bfloat16.
bool is_float(DType dtype);

/// The adjustments with the amount as a scalar tensor (random draws stay in the graph).
Tensor adjust_brightness_by(const Tensor& image, const Tensor& delta, std::source_location loc);
Tensor adjust_contrast_by(const Tensor& images, const Tensor& factor, std::source_location loc);
Tensor adjust_saturation_by(const Tensor& image, const Tensor& factor, std::source_location loc);
Tensor adjust_hue_by(const Tensor& image, const Tensor& delta, std::source_location loc);

}  // namespace tfcc::image::internal
