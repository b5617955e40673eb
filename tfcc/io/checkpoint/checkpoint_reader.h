// Name-based access to any TensorFlow-format checkpoint, tfcc's or TensorFlow's
// (tf.train.load_checkpoint / tf.train.list_variables).
//
//   auto reader = tfcc::train::load_checkpoint("/tmp/tf_run");   // a prefix or a directory
//   for (auto& [name, shape] : reader->get_variable_to_shape_map()) std::cout << name << "\n";
//   tfcc::Tensor w = reader->get_tensor("model/w/.ATTRIBUTES/VARIABLE_VALUE");
//
//   for (auto& [name, shape] : tfcc::train::list_variables("/tmp/tf_run")) ...
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/io/checkpoint/bundle.h"

namespace tfcc::train {

/// Reads tensors of one checkpoint by key (tf.train.CheckpointReader).
class CheckpointReader {
 public:
  /// Opens the bundle at `prefix`. NotFoundError / DataLossError as BundleReader.
  explicit CheckpointReader(const std::string& prefix) : bundle_(prefix) {}

  /// True if the checkpoint holds `key`.
  bool has_tensor(const std::string& key) const { return bundle_.contains(key); }
  /// The tensor stored under `key`, its checksum verified. NotFoundError if absent;
  /// UnimplementedError for dtypes tfcc has no tensor type for (string: get_string_tensor).
  Tensor get_tensor(const std::string& key) const { return bundle_.read_tensor(key); }
  /// A DT_STRING tensor's elements, row-major.
  std::vector<std::string> get_string_tensor(const std::string& key) const {
    return bundle_.read_strings(key);
  }
  /// Every key with its shape.
  std::map<std::string, std::vector<int64_t>> get_variable_to_shape_map() const;
  /// Every key with its dtype's name ("float32", "string", ...).
  std::map<std::string, std::string> get_variable_to_dtype_map() const;
  /// The underlying bundle.
  const checkpoint::BundleReader& bundle() const { return bundle_; }

 private:
  checkpoint::BundleReader bundle_;
};

/// Opens a checkpoint: `path` is a prefix, or a directory whose latest checkpoint is used.
/// NotFoundError if neither exists.
std::unique_ptr<CheckpointReader> load_checkpoint(const std::string& path);

/// (key, shape) of every tensor in a checkpoint, sorted by key (tf.train.list_variables).
std::vector<std::pair<std::string, std::vector<int64_t>>> list_variables(const std::string& path);

/// One tensor of a checkpoint (tf.train.load_variable).
Tensor load_variable(const std::string& path, const std::string& name);

}  // namespace tfcc::train
#pragma GCC visibility pop
