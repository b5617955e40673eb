// IDX files, the format of MNIST and Fashion-MNIST, as tensors and datasets.
//
//   tfcc::Tensor images = tfcc::data::read_idx("train-images-idx3-ubyte.gz");  // uint8
//   (60000,28,28) auto ds = tfcc::data::idx_dataset({"train-images-idx3-ubyte.gz",
//                                      "train-labels-idx1-ubyte.gz"});     // (image, label)
//
// Format: magic `00 00 <type> <ndims>`, ndims big-endian uint32 sizes, then the data in C order,
// big-endian. Types: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64.
// tfcc has no 8/16-bit signed dtype, so int8 and int16 data are widened to int32.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {

/// Parses an uncompressed IDX image. Truncated, oversized or malformed data raises
/// DataLossError naming `source` and the byte offset.
Tensor parse_idx(std::string_view bytes, const std::string& source);

/// Reads an IDX file, plain or gzip-compressed.
Tensor read_idx(const std::string& path);

/// One element per row of the files' first dimension, one component per file (all files must
/// have the same number of rows). uint8 labels of MNIST-style files stay uint8; see
/// tfcc::datasets::load for the (uint8 image, int64 label) form.
Dataset idx_dataset(const std::vector<std::string>& paths);

}  // namespace tfcc::data
#pragma GCC visibility pop
