// keras.preprocessing.image.smart_resize: centre-crop to the target aspect ratio, then resize.
//
//   Tensor img = tfcc::keras::utils::smart_resize(photo, {224, 224});   // no distortion
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::utils {

/// Crops the largest centred window of the target's height:width ratio out of each image
/// ((h, w, c) or (batch, h, w, c), static height and width), then resizes it to `size` with
/// `interpolation` (a tfcc::image::resize_method name), as Keras 3 does.
Tensor smart_resize(const Tensor& images, std::array<int64_t, 2> size,
                    const std::string& interpolation = "bilinear");

}  // namespace tfcc::keras::utils
#pragma GCC visibility pop
