// Datasets of an HDF5 file (tfcc's own reader, reader.h): the dataspace, datatype and layout
// messages of a dataset's object header, and its values copied out of the file. Internal to
// tfcc/io/hdf5.
//
//   DatasetInfo info = read_dataset_info(image, messages, "/layers/dense/vars/0");
//   Tensor kernel = read_dataset(image, info);
//
// What is read, which is what Keras 3 (h5py) and tfcc's writer produce:
//   dataspace  versions 1 and 2: scalar and simple (up to 32 dimensions);
//   datatype   little-endian IEEE floats of 16, 32, 64 bits (float16 is widened to float32,
//              as libhdf5 converts it), signed integers of 8-64 bits (int32, or int64 for 64),
//              unsigned 8-bit integers (uint8);
//   layout     version 3, contiguous or compact storage.
// Chunked storage, filters (compression), external files, shared (committed) datatypes and other
// types are an UnimplementedError naming the dataset. Data must lie inside the file and cover
// every element (DataLossError otherwise), so the tensor is never larger than twice the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/io/hdf5/image.h"
#include "tfcc/io/hdf5/object_header.h"

namespace tfcc::io::hdf5::detail {

/// How a dataset's elements are stored and where.
struct DatasetInfo {
  std::string what;  // the dataset, for errors ("/layers/dense/vars/0")
  enum class Kind { kFloat, kSigned, kUnsigned } kind = Kind::kFloat;
  int element_size = 4;
  DType dtype = float32;      // the tensor's dtype
  std::vector<int64_t> dims;  // empty: a scalar
  uint64_t elements = 1;
  uint64_t data = kUndefinedAddress;  // absolute position of the first element
};

/// The dataset described by `messages`; DataLossError / UnimplementedError naming `what`.
DatasetInfo read_dataset_info(const Image& image, const std::vector<Message>& messages,
                              const std::string& what);

/// The dataset's values as a tensor of its shape.
Tensor read_dataset(const Image& image, const DatasetInfo& info);

}  // namespace tfcc::io::hdf5::detail
