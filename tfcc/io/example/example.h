// tf.train.Example and tf.train.SequenceExample: building, serialising and reading back the
// records TFRecord files of training data almost always hold.
//
//   tfcc::io::Example ex;
//   ex.set("image", tfcc::io::Feature::bytes({png_bytes}))
//       .set("label", tfcc::io::Feature::int64s({3}))
//       .set("weights", tfcc::io::Feature::from_tensor(tfcc::constant({0.5f, 2.0f})));
//   tfcc::io::TFRecordWriter writer("/tmp/train.tfrecord");
//   writer.write(ex.serialize());                  // bytes TensorFlow's tf.train.Example reads
//   tfcc::io::Example back = tfcc::io::Example::parse(ex.serialize());
//
// The bytes are those TensorFlow writes: feature.proto / example.proto field numbers, packed
// float and int64 lists, map entries in key order (so equal Examples give equal bytes). To read
// records into tensors with a feature spec, see parse_example.h.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::io {

/// One tf.train.Feature: a list of floats, of int64s or of byte strings (or none of them).
class Feature {
 public:
  /// Which list the feature holds (tf.train.Feature's `kind` oneof); kNone when unset.
  enum class Kind { kNone, kBytes, kFloat, kInt64 };

  /// A feature with no list (TensorFlow's parsers treat it as missing, or empty for VarLen).
  Feature() = default;
  /// A FloatList.
  static Feature floats(std::vector<float> values);
  /// An Int64List.
  static Feature int64s(std::vector<int64_t> values);
  /// A BytesList.
  static Feature bytes(std::vector<std::string> values);
  /// The elements of `t` in row-major order: float32, float64 and bfloat16 tensors become a
  /// FloatList, int32, int64, uint8 and bool tensors an Int64List. InvalidArgumentError for a
  /// symbolic tensor.
  static Feature from_tensor(const Tensor& t);

  Kind kind() const { return kind_; }
  /// Number of values in the list (0 for kNone).
  int64_t size() const;
  /// The values (empty unless kind() matches).
  const std::vector<float>& float_list() const { return floats_; }
  const std::vector<int64_t>& int64_list() const { return int64s_; }
  const std::vector<std::string>& bytes_list() const { return bytes_; }

  bool operator==(const Feature& o) const = default;

 private:
  Kind kind_ = Kind::kNone;
  std::vector<float> floats_;
  std::vector<int64_t> int64s_;
  std::vector<std::string> bytes_;
};

/// "float", "int64", "bytes" or "none".
const char* feature_kind_name(Feature::Kind kind);

/// tf.train.Example: named features.
struct Example {
  std::map<std::string, Feature> features;  ///< feature name -> values

  /// Sets (or replaces) one feature; returns *this for chaining.
  Example& set(const std::string& name, Feature feature);
  /// The serialised tf.train.Example (deterministic: features in name order).
  std::string serialize() const;
  /// Reads a serialised tf.train.Example. DataLossError naming `source` when the bytes are not
  /// a valid encoding.
  static Example parse(std::string_view serialized, const std::string& source = "<example>");

  bool operator==(const Example& o) const = default;
};

/// tf.train.SequenceExample: context features plus named lists of features (one per step).
struct SequenceExample {
  std::map<std::string, Feature> context;                     ///< per-sequence features
  std::map<std::string, std::vector<Feature>> feature_lists;  ///< name -> one Feature per step

  /// The serialised tf.train.SequenceExample (deterministic).
  std::string serialize() const;
  /// Reads a serialised tf.train.SequenceExample (DataLossError naming `source` if malformed).
  static SequenceExample parse(std::string_view serialized,
                               const std::string& source = "<sequence example>");

  bool operator==(const SequenceExample& o) const = default;
};

}  // namespace tfcc::io
#pragma GCC visibility pop
