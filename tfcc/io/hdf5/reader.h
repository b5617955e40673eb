// tfcc's own reader of HDF5 files, for Keras 3's `.weights.h5` and the `model.weights.h5` of a
// `.keras` archive: written without libhdf5 so that a damaged or hostile file ends in a typed
// error, never a crash (Debian's libhdf5 1.10.8 crashed within about a thousand mutated Keras
// files; docs/fuzzing.md). Writing stays with libhdf5 (hdf5.h).
//
//   auto file = tfcc::io::hdf5::Reader::open("w.weights.h5");
//   tfcc::io::hdf5::ReadGroup vars = file.root().group("layers/dense/vars");
//   for (const std::string& name : vars.children()) {
//     if (vars.has_dataset(name)) tfcc::Tensor value = vars.read(name);
//   }
//
// The subset read is what h5py (Keras 3, TensorFlow 2.21) and libhdf5 write by default:
// superblock versions 0 and 1, version 1 object headers, groups as symbol tables (B-tree and
// local heap), datasets as dataset.h lists (contiguous or compact, little-endian floats and
// integers). Attributes are not read (loading does not need them). Every address and length is
// checked against the file's size before it is used; groups nest at most 64 deep and may not
// contain themselves; a group's B-tree is walked once per node. A damaged file is a
// DataLossError "<file>: <object path>: <what is wrong>"; a valid HDF5 structure outside the
// subset (chunked or compressed data, the latest file format, strings) is an UnimplementedError
// in the same form. Reading copies from the file's bytes, so nothing is allocated beyond twice the
// file's size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::io::hdf5 {

namespace detail {
class Image;
}  // namespace detail

/// A group of a file opened by Reader: names of its members, its subgroups and datasets.
/// Copies share the file's bytes.
class ReadGroup {
 public:
  /// The object path in the file ("/layers/dense/vars").
  const std::string& path() const { return path_; }
  /// The file's name, as given to Reader (for error messages).
  const std::string& source() const;
  /// Names of the direct members (groups and datasets), sorted by name.
  std::vector<std::string> children() const;
  /// True if `name` (a relative path, "a/b") exists and is a group / a dataset.
  bool has_group(const std::string& name) const;
  bool has_dataset(const std::string& name) const;
  /// The subgroup `name` (a relative path); DataLossError naming the file when absent.
  ReadGroup group(const std::string& name) const;
  /// The dataset `name` as a tensor of its shape; DataLossError naming the file when absent.
  Tensor read(const std::string& name) const;

 private:
  friend class Reader;
  struct Object;
  ReadGroup(std::shared_ptr<const detail::Image> image, uint64_t address, std::string path,
            std::vector<uint64_t> lineage);
  Object find(const std::string& name) const;
  std::string child_path(const std::string& name) const;

  std::shared_ptr<const detail::Image> image_;
  std::string path_;
  std::vector<uint64_t> lineage_;  // object header addresses from the root to this group
  std::vector<std::pair<std::string, uint64_t>> members_;  // name, object header address
};

/// An HDF5 file read by tfcc's own parser.
class Reader {
 public:
  /// Reads the bytes of an HDF5 file; `source` names it in errors. The superblock and the root
  /// group are checked here.
  static Reader open_image(std::string bytes, const std::string& source);
  /// Reads the file at `path`.
  static Reader open(const std::string& path);

  /// The root group "/".
  const ReadGroup& root() const { return root_; }
  /// The name given at open.
  const std::string& source() const { return root_.source(); }

 private:
  explicit Reader(ReadGroup root) : root_(std::move(root)) {}
  ReadGroup root_;
};

}  // namespace tfcc::io::hdf5
