// The members of an "old-style" HDF5 group (tfcc's own reader, reader.h): a symbol table message
// points at a version 1 B-tree whose leaves (symbol table nodes) list the members, and at a
// local heap that holds their names. This is how superblock 0 files store every group (h5py /
// Keras 3 and libhdf5 by default). Internal to tfcc/io/hdf5.
//
//   std::vector<Member> members = read_symbol_table(image, msg, "/layers");
//
// The B-tree walk is bounded: at most kMaxBTreeLevel levels, each node visited once, at most
// kMaxGroupMembers members; names must be unique, non-empty and without '/'.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/io/hdf5/image.h"
#include "tfcc/io/hdf5/object_header.h"

namespace tfcc::io::hdf5::detail {

/// A member of a group: its name and the absolute address of its object header.
struct Member {
  std::string name;
  uint64_t address = 0;
};

/// The members listed by a symbol table message, sorted by name (byte order, as HDF5 sorts).
std::vector<Member> read_symbol_table(const Image& image, const Message& symbol_table,
                                      const std::string& what);

}  // namespace tfcc::io::hdf5::detail
