// HDF5 files through the HDF5 C library (Debian's libhdf5-dev): groups, datasets of numbers and
// string attributes, enough for Keras 3's `.weights.h5` files. Files are handled as byte images
// in memory (the core driver), so the same code reads a file on disk and a member of a `.keras`
// zip, and writes either.
//
//   auto file = tfcc::io::hdf5::File::create("w.weights.h5");
//   auto vars = file.root().create_group("layers").create_group("dense").create_group("vars");
//   vars.set_string_attribute("name", "dense_3");
//   vars.write("0", kernel);                       // a float32 dataset of kernel's shape
//   tfcc::write_file_atomic("w.weights.h5", file.image());
//
//   auto in = tfcc::io::hdf5::File::open_image(tfcc::read_file(path), path);
//   tfcc::Tensor k = in.root().group("layers/dense/vars").read("0");
//
// Every HDF5 call is checked; a failure is a DataLossError naming the file and the object path,
// with HDF5's own message. A dataset must hold at most 2^31 elements of at
// most 8 bytes, and no more than 100 times the bytes it stores (fill values are not expanded
// without bound). Datasets of floating-point types become float32 (float64 stays float64),
// integers int32 / int64 / uint8; other types are an UnimplementedError.
//
// The library is not built thread-safe on Debian: every call here holds one process-wide lock.
//
// Trust: libhdf5 itself (Debian's 1.10.8) is not hardened against hostile files: it crashed
// (SIGSEGV in H5G__node_iterate / H5F__accum_read and in H5HG_read) within about a thousand
// mutated Keras files. Loading (`load_weights`, `load_model`) therefore reads with tfcc's own
// parser, reader.h, which is fuzzed; File::open / open_image are kept for tests and tools that
// read files tfcc wrote itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::io::hdf5 {

namespace detail {
struct FileState;
}  // namespace detail

/// A group of an open file (a folder of groups and datasets). Keeps its file open.
class Group {
 public:
  /// The object path in the file ("/layers/dense/vars").
  const std::string& path() const { return path_; }
  /// The file's name, as given to File (for error messages).
  const std::string& source() const;
  /// Names of the direct members (groups and datasets), sorted as HDF5 lists them by name.
  std::vector<std::string> children() const;
  /// True if `name` (a relative path) exists and is a group / a dataset.
  bool has_group(const std::string& name) const;
  bool has_dataset(const std::string& name) const;
  /// The subgroup `name` (a relative path); DataLossError naming the file when absent.
  Group group(const std::string& name) const;
  /// Creates the subgroup `name` (in a writable file).
  Group create_group(const std::string& name);
  /// Reads the dataset `name` into a tensor of its shape.
  Tensor read(const std::string& name) const;
  /// Writes `value` as the dataset `name` (contiguous, little-endian, no compression).
  void write(const std::string& name, const Tensor& value);
  /// The string attribute `name` of this group, or nullopt when absent.
  std::optional<std::string> string_attribute(const std::string& name) const;
  /// Sets a variable-length UTF-8 string attribute (as h5py writes Python strings).
  void set_string_attribute(const std::string& name, const std::string& value);

 private:
  friend class File;
  Group(std::shared_ptr<detail::FileState> file, int64_t id, std::string path);
  std::string child_path(const std::string& name) const;

  std::shared_ptr<detail::FileState> file_;
  std::shared_ptr<int64_t> id_;  // the group's hid_t, closed by the last copy
  std::string path_;
};

/// An HDF5 file held in memory.
class File {
 public:
  /// Opens the bytes of an HDF5 file read-only; `source` names it in errors.
  static File open_image(std::string_view bytes, const std::string& source);
  /// Reads and opens the file at `path`.
  static File open(const std::string& path);
  /// A new, empty, writable file; `source` names it in errors.
  static File create(const std::string& source);

  /// The root group "/".
  Group root() const;
  /// The bytes of the file as it stands (for a zip member or write_file_atomic).
  std::string image() const;
  /// The name given at open or create.
  const std::string& source() const;

 private:
  explicit File(std::shared_ptr<detail::FileState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::FileState> state_;
};

/// True if `bytes` start with HDF5's signature ("\x89HDF\r\n\x1a\n").
bool has_hdf5_signature(std::string_view bytes);

}  // namespace tfcc::io::hdf5
