// The superblock of an HDF5 file (tfcc's own reader, reader.h): where the file's structure
// starts. Internal to tfcc/io/hdf5.
//
//   Image image(std::move(bytes), "w.weights.h5");
//   uint64_t root = read_superblock(image);  // sets image.offset_size / length_size / base
//
// Versions 0 and 1 are read: what h5py (Keras 3) and Debian's libhdf5 write by default (their
// default "earliest" format). Versions 2 and 3 (written when a program asks for the latest file
// format) are an UnimplementedError.
#pragma once

#include <cstdint>

#include "tfcc/io/hdf5/image.h"

namespace tfcc::io::hdf5::detail {

/// Finds and checks the superblock (at 0, or at 512, 1024, ... after a user block), sets the
/// image's field sizes and base address, and returns the root group's object header address.
uint64_t read_superblock(Image& image);

}  // namespace tfcc::io::hdf5::detail
