// Helpers shared by the image decoders (tfcc/io/image/*.cc); not part of the public API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tfcc/core/tensor.h"

namespace tfcc::io::image_internal {

/// ResourceExhaustedError naming `source` unless frames * height * width * channels *
/// bytes_per_channel fits tfcc::max_decompressed_size(file_size); DataLossError for a zero or
/// negative dimension. Called before any pixel memory is allocated.
void check_image_size(int64_t frames, int64_t height, int64_t width, int64_t channels,
                      int64_t bytes_per_channel, size_t file_size, const std::string& source,
                      const char* format);

/// The bytes of a 1-D uint8 tensor, without a copy (InvalidArgumentError naming `op` otherwise).
std::string_view tensor_view(const Tensor& contents, const char* op);

/// A uint8 tensor of `shape`, allocated on the CPU.
Tensor new_image(DType dtype, const Shape& shape);

}  // namespace tfcc::io::image_internal
