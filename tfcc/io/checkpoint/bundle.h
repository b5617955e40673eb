// TensorFlow's tensor bundle: the on-disk form of a checkpoint. A bundle with prefix P is two
// files, `P.index` (a sorted table: header + one entry per tensor, see table.h) and
// `P.data-00000-of-00001` (the tensors' bytes back to back, each covered by a masked CRC32C).
//
//   tfcc::checkpoint::BundleWriter w("/tmp/run/ckpt-1");
//   w.add("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE", kernel);
//   w.add_strings("_CHECKPOINTABLE_OBJECT_GRAPH", {}, {graph_bytes});
//   w.finish();                               // data + index committed as one set
//
//   tfcc::checkpoint::BundleReader r("/tmp/run/ckpt-1");
//   for (const auto& key : r.keys()) std::cout << key << "\n";
//   tfcc::Tensor k = r.read_tensor("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE");
//
// The pair changes as a whole (tfcc/platform/file_set.h): finish() stages both files, commits a
// small manifest `P.manifest` naming them with their CRC32C, then renames them to `P.index` and
// `P.data-00000-of-00001`; after a crash at any instant the reader finds the complete old or the
// complete new pair. Bundles without a manifest (older tfcc, TensorFlow) are read by name.
//
// Files are untrusted input: the reader validates the whole index when it opens the bundle and
// each tensor's size and checksum when it reads it; any mismatch, truncation or inconsistency
// raises DataLossError naming the file and the key.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/io/checkpoint/bundle_proto.h"

namespace tfcc::checkpoint {

/// `P.index`.
std::string index_filename(const std::string& prefix);
/// `P.data-<shard>-of-<num_shards>`, five digits each.
std::string data_filename(const std::string& prefix, int shard, int num_shards);
/// `P.manifest`: the commit record of the pair (see the overview).
std::string manifest_filename(const std::string& prefix);
/// True if a bundle was committed at `prefix` (its index or its manifest exists).
bool bundle_exists(const std::string& prefix);

/// Writes one bundle (a single data shard). Add tensors under distinct non-empty keys, then call
/// finish(); until then nothing is on disk.
class BundleWriter {
 public:
  explicit BundleWriter(std::string prefix);

  /// Stores a concrete tensor under `key`. InvalidArgumentError for an empty or repeated key or
  /// a symbolic tensor.
  void add(const std::string& key, const Tensor& tensor);
  /// Stores a DT_STRING tensor of `shape` holding `values` (row-major).
  void add_strings(const std::string& key, const Shape& shape,
                   const std::vector<std::string>& values);
  /// Writes and commits the data file and the index as one set (fsync'ed). A full disk raises
  /// ResourceExhaustedError and leaves the previous bundle at this prefix intact.
  void finish();

 private:
  struct Pending {
    Tensor tensor;
    Shape shape;
    std::vector<std::string> strings;
    bool is_string = false;
  };
  void check_key(const std::string& key) const;

  std::string prefix_;
  std::map<std::string, Pending> tensors_;
  bool finished_ = false;
};

/// Reads a bundle. Opening validates the index; tensors are read and checked on demand.
class BundleReader {
 public:
  /// NotFoundError if `P.index` does not exist; DataLossError if it is corrupt.
  explicit BundleReader(std::string prefix);
  ~BundleReader();
  BundleReader(const BundleReader&) = delete;
  BundleReader& operator=(const BundleReader&) = delete;

  const std::string& prefix() const { return prefix_; }
  const BundleHeader& header() const { return header_; }
  /// Every tensor key, sorted (the header's empty key excluded).
  std::vector<std::string> keys() const;
  bool contains(const std::string& key) const { return entries_.count(key) != 0; }
  /// The entry of `key`; NotFoundError if absent.
  const BundleEntry& entry(const std::string& key) const;
  /// Reads and verifies a numeric tensor. UnimplementedError for dtypes tfcc does not hold
  /// (strings: use read_strings).
  Tensor read_tensor(const std::string& key) const;
  /// Reads and verifies a DT_STRING tensor's elements (row-major).
  std::vector<std::string> read_strings(const std::string& key) const;

 private:
  std::string read_bytes(const std::string& key, const BundleEntry& e) const;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  std::string prefix_;
  BundleHeader header_;
  std::map<std::string, BundleEntry> entries_;
  std::vector<int> shard_fds_;
};

}  // namespace tfcc::checkpoint
#pragma GCC visibility pop
