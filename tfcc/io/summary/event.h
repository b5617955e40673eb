// The messages of a TensorBoard event file, as plain C++ structs: Event, Summary.Value,
// TensorProto, SummaryMetadata, HistogramProto and Summary.Image. Event serialises to (and parses
// from) the bytes TensorFlow writes through the generated classes of tfcc/io/proto/summary.proto;
// only the fields TensorBoard uses are modelled, others are dropped when parsing.
//
//   tfcc::summary::Event event;
//   event.wall_time = 1700000001.25;
//   event.step = 1;
//   event.summary.push_back(tfcc::summary::SummaryValue::scalar("loss", 0.5f));
//   std::string bytes = event.serialize();          // what one TFRecord of the file holds
//   auto back = tfcc::summary::Event::parse(bytes);  // DataLossError if malformed
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfcc::summary {

/// TensorFlow's DataType enum values used in summaries (types.proto).
enum ProtoDType : int {
  kDtInvalid = 0,
  kDtFloat = 1,
  kDtDouble = 2,
  kDtInt32 = 3,
  kDtUInt8 = 4,
  kDtString = 7,
  kDtInt64 = 9,
  kDtBool = 10,
  kDtBFloat16 = 14,
};

/// SummaryMetadata.DataClass.
enum DataClass : int {
  kDataClassUnknown = 0,
  kDataClassScalar = 1,
  kDataClassTensor = 2,
  kDataClassBlobSequence = 3
};

/// tensorflow.TensorProto (the fields summaries use).
struct TensorProto {
  int dtype = kDtInvalid;
  /// Dimension sizes; empty for a scalar (the shape message is still written, like TF).
  std::vector<int64_t> shape;
  /// Raw little-endian row-major element bytes (numeric tensors).
  std::string tensor_content;
  std::vector<float> float_val;
  std::vector<double> double_val;
  std::vector<int64_t> int_val;
  std::vector<int64_t> int64_val;
  /// Elements of a DT_STRING tensor.
  std::vector<std::string> string_val;

  /// Number of elements the shape describes (1 for a scalar).
  int64_t num_elements() const;
  /// The numeric elements as doubles, from tensor_content or the *_val fields (a single *_val
  /// element fills the whole tensor, as in TensorFlow). DataLossError if they do not match the
  /// shape or the dtype is not numeric.
  std::vector<double> to_doubles() const;

  std::string serialize() const;
  static TensorProto parse(std::string_view bytes);
};

/// tensorflow.SummaryMetadata.
struct SummaryMetadata {
  std::string plugin_name;
  /// PluginData.content: plugin-specific serialized bytes (empty for version-0 plugin data).
  std::string plugin_content;
  std::string display_name;
  std::string summary_description;
  int data_class = kDataClassUnknown;
};

/// tensorflow.HistogramProto (TF1-style histograms; TF2 writes a [k, 3] tensor instead).
struct HistogramProto {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit;
  std::vector<double> bucket;
};

/// tensorflow.Summary.Image (TF1-style images).
struct SummaryImage {
  int height = 0, width = 0, colorspace = 0;
  std::string encoded_image_string;
};

/// tensorflow.Summary.Value: one tagged value.
struct SummaryValue {
  std::string tag;
  std::optional<float> simple_value;
  std::optional<SummaryImage> image;
  std::optional<HistogramProto> histo;
  std::optional<TensorProto> tensor;
  std::optional<SummaryMetadata> metadata;
};

/// tensorflow.Event: one record of an event file.
struct Event {
  double wall_time = 0;
  int64_t step = 0;
  /// Set on the first record of a file: "brain.Event:2".
  std::string file_version;
  /// A serialized GraphDef (Graphs tab).
  std::string graph_def;
  /// The Summary's values; `has_summary` distinguishes an empty summary from none.
  std::vector<SummaryValue> summary;
  bool has_summary = false;

  /// The event's bytes; InvalidArgumentError if more than one of file_version, graph_def and
  /// summary is set (they are a oneof in event.proto).
  std::string serialize() const;
  /// Parses one event; DataLossError("malformed Event ...") on bad bytes.
  static Event parse(std::string_view bytes);
};

}  // namespace tfcc::summary
#pragma GCC visibility pop
