// Test helper: an HDF5 file read by libhdf5 (hdf5.h) and by tfcc's own reader (reader.h) must
// give the same groups, members and datasets, bit for bit.
//
//   int datasets = test::expect_same_hdf5(File::open_image(b, "w.h5").root(),
//                                         Reader::open_image(b, "w.h5").root());
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/hdf5/reader.h"

namespace tfcc::io::hdf5::test {

/// Walks both views of the same group recursively (gtest failures on any difference) and
/// returns the number of datasets compared.
inline int expect_same_hdf5(const Group& lib, const ReadGroup& own) {
  EXPECT_EQ(lib.path(), own.path());
  EXPECT_EQ(lib.children(), own.children()) << own.path();
  int datasets = 0;
  for (const std::string& name : lib.children()) {
    const std::string where = own.path() + (own.path() == "/" ? "" : "/") + name;
    EXPECT_EQ(lib.has_group(name), own.has_group(name)) << where;
    EXPECT_EQ(lib.has_dataset(name), own.has_dataset(name)) << where;
    if (lib.has_group(name)) datasets += expect_same_hdf5(lib.group(name), own.group(name));
    if (!lib.has_dataset(name)) continue;
    const Tensor a = lib.read(name);
    const Tensor b = own.read(name);
    EXPECT_EQ(a.dtype(), b.dtype()) << where;
    EXPECT_EQ(a.shape(), b.shape()) << where;
    if (a.dtype() == b.dtype() && a.shape() == b.shape()) {
      const size_t bytes = static_cast<size_t>(a.shape().num_elements()) * dtype_size(a.dtype());
      EXPECT_EQ(std::memcmp(a.raw_data(), b.raw_data(), bytes), 0) << where;
    }
    ++datasets;
  }
  return datasets;
}

}  // namespace tfcc::io::hdf5::test
