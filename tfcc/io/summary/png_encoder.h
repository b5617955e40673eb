// PNG encoding of 8-bit images through libpng, for image summaries.
//
//   std::string png = tfcc::summary::encode_png(pixels.data(), /*height=*/28, /*width=*/28,
//                                               /*channels=*/1);
#pragma once

#include <cstdint>
#include <string>

namespace tfcc::summary {

/// Encodes `height * width * channels` row-major bytes (channels 1 gray, 2 gray+alpha, 3 RGB,
/// 4 RGBA) as a PNG file. InvalidArgumentError for bad dimensions.
std::string encode_png(const uint8_t* pixels, int64_t height, int64_t width, int64_t channels);

}  // namespace tfcc::summary
