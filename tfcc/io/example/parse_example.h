// Parsing tf.train.Example records into tensors with a feature spec, like tf.io.parse_example,
// tf.io.parse_single_example and tf.io.parse_single_sequence_example.
//
//   using namespace tfcc::io;
//   FeatureSpecs spec{{"image", FixedLenFeature{.shape = {28, 28}, .dtype = tfcc::float32}},
//                     {"label", FixedLenFeature{.dtype = tfcc::int64,
//                                               .default_value = Feature::int64s({0})}},
//                     {"tags", VarLenFeature{.dtype = tfcc::int64}},
//                     {"name", FixedLenFeature{.dtype = tfcc::uint8}}};   // bytes (see below)
//   auto ds = tfcc::data::tfrecord_dataset({"train.tfrecord"}).map([spec](tfcc::Tensor record) {
//     ParsedExample f = parse_single_example(record, spec);
//     return std::tuple{f.at("image").values, f.at("label").values};
//   });
//
// Results (ParsedFeature): a FixedLenFeature gives a dense tensor of its shape (parse_example:
// with the batch dimension first); a FixedLenSequenceFeature a dense (steps, shape...) tensor,
// shorter records padded with its default_value (or 0) in parse_example; a VarLenFeature the three
// parts of a tf.SparseTensor: int64 indices (nnz, rank), values (nnz), int64 dense_shape (rank),
// rank 1 for one record, 2 for a batch (record, position).
//
// Bytes features: tfcc has no string dtype yet, so a tf.string feature is asked for with dtype
// uint8 and its strings come back concatenated in a 1-D uint8 `values` with int64 `byte_splits`
// (string i is values[byte_splits[i] : byte_splits[i + 1]]; strings() and bytes(i) read them).
// For the common scalar bytes feature (an encoded image, a file name) `values` is exactly the
// string, in tfcc's 1-D uint8 form (data::bytes_tensor), ready for decode_png and friends.
//
// Errors (InvalidArgumentError, naming the feature and the record by index and name): a record
// that is not a valid Example, a feature of another type than the spec's, a fixed-length feature
// with the wrong number of values, a missing feature without default; a bad spec (dtype other
// than float32, int64, uint8; a default of the wrong size) likewise. Memory: parsing allocates at
// most a small constant times the input beyond the outputs; a padded parse_example result over
// tfcc::max_decompressed_size(total input bytes) (tfcc/platform/limits.h) raises
// ResourceExhaustedError before it is allocated. Records over kMaxSerializedExampleBytes are
// refused (protobuf's 2 GiB limit).
//
// In Dataset::map the output spec cannot be inferred (map infers it by running the function on
// zero-filled input, which is no Example): pass MapOptions::output_spec when a later stage (Keras
// fit) needs the shapes, as examples/tfrecord_examples.cc does.
//
// Inside tfcc::function, parse_single_example on a symbolic record adds one host node named
// ParseExampleV2 that parses at every call: features then have the static shapes TensorFlow's
// op would give (bytes and var-len sizes unknown). Outside traces the parse is eager.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/io/example/example.h"

namespace tfcc::io {

/// Serialised records larger than this are refused (InvalidArgumentError).
inline constexpr size_t kMaxSerializedExampleBytes = size_t{2047} << 20;

/// tf.io.FixedLenFeature: exactly shape.num_elements() values per record.
struct FixedLenFeature {
  Shape shape;            ///< {} for a scalar
  DType dtype = float32;  ///< float32, int64, or uint8 for a bytes (tf.string) feature
  /// Used when a record lacks the feature (else the feature is required): shape.num_elements()
  /// values of the dtype's kind (floats, int64s or bytes).
  std::optional<Feature> default_value;
};

/// tf.io.VarLenFeature: any number of values, returned as a sparse tensor.
struct VarLenFeature {
  DType dtype = float32;  ///< float32, int64, or uint8 for bytes
};

/// tf.io.FixedLenSequenceFeature: any number of steps of `shape` each (the record's values are
/// reshaped to (steps, shape...)); in an Example, the feature's values; in a SequenceExample's
/// feature_lists, one Feature per step.
struct FixedLenSequenceFeature {
  Shape shape;            ///< of one step
  DType dtype = float32;  ///< float32, int64, or uint8 for bytes
  /// A missing feature gives zero steps instead of an error (parse_example requires true, as
  /// TensorFlow does).
  bool allow_missing = false;
  /// parse_example: one value padding shorter records (default 0 or ""); must be unset in
  /// sequence features.
  std::optional<Feature> default_value;
};

/// One feature's spec.
using FeatureSpec = std::variant<FixedLenFeature, VarLenFeature, FixedLenSequenceFeature>;
/// The `features` argument of tf.io.parse_example: feature name -> spec.
using FeatureSpecs = std::map<std::string, FeatureSpec>;

/// One parsed feature (see the header comment for each spec's form).
struct ParsedFeature {
  /// Dense features: the values; VarLen: the nnz values; bytes: the strings' bytes concatenated.
  Tensor values;
  /// VarLen only: int64 (nnz, rank), each value's position in the dense form.
  Tensor indices;
  /// VarLen only: int64 (rank), the dense form's shape.
  Tensor dense_shape;
  /// Bytes only: int64 (strings + 1); string i is values[byte_splits[i] : byte_splits[i + 1]].
  Tensor byte_splits;
  /// Dense bytes features: the shape of the string tensor TensorFlow returns (its element count
  /// is the number of strings). Dense numeric features: values' shape. VarLen: unknown rank
  /// (see dense_shape).
  PartialShape shape;

  /// True for a VarLen result.
  bool is_sparse() const { return indices.defined(); }
  /// True for a bytes (dtype uint8) feature.
  bool is_bytes() const { return byte_splits.defined(); }
  /// Number of strings of a bytes feature.
  int64_t num_strings() const;
  /// The strings of a bytes feature, in row-major order (InvalidArgumentError otherwise).
  std::vector<std::string> strings() const;
  /// String i of a bytes feature as a 1-D uint8 tensor.
  Tensor bytes(int64_t i) const;
};

/// Feature name -> result, for every feature of the spec.
using ParsedExample = std::map<std::string, ParsedFeature>;

/// tf.io.parse_single_example on one serialised tf.train.Example; `name` (optional) appears in
/// error messages.
ParsedExample parse_single_example(std::string_view serialized, const FeatureSpecs& features,
                                   const std::string& name = "");
/// The same on a record as a 1-D uint8 tensor (an element of data::tfrecord_dataset); on a
/// symbolic tensor (inside tfcc::function) it adds a ParseExampleV2 node.
ParsedExample parse_single_example(const Tensor& serialized, const FeatureSpecs& features);

/// tf.io.parse_example on a batch of serialised tf.train.Example records: every result has the
/// batch dimension first. `names` (empty, or one per record) appear in error messages.
ParsedExample parse_example(const std::vector<std::string>& serialized,
                            const FeatureSpecs& features,
                            const std::vector<std::string>& names = {});
ParsedExample parse_example(std::span<const std::string_view> serialized,
                            const FeatureSpecs& features,
                            const std::vector<std::string>& names = {});

/// The two results of parse_single_sequence_example.
struct ParsedSequenceExample {
  ParsedExample context;        ///< one per context feature
  ParsedExample feature_lists;  ///< one per sequence feature
};

/// tf.io.parse_single_sequence_example: `context_features` (FixedLen, VarLen) read the context,
/// `sequence_features` (FixedLenSequence: (steps, shape...); VarLen: sparse (steps, longest))
/// the feature lists.
ParsedSequenceExample parse_single_sequence_example(std::string_view serialized,
                                                    const FeatureSpecs& context_features,
                                                    const FeatureSpecs& sequence_features,
                                                    const std::string& name = "");

}  // namespace tfcc::io
#pragma GCC visibility pop
