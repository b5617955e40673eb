// The parts of parse_example shared by Example and SequenceExample parsing (internal).
//
// Records are scanned, not parsed whole: the wire format is walked with protobuf's
// CodedInputStream down to the `features` map entries, and only the entries a spec asks for are
// parsed (with the generated tensorflow::Feature class), one at a time. This keeps memory to a
// small constant times the input (a record of a million tiny unrequested features costs
// nothing) and gives TensorFlow's semantics: the last entry of a repeated key wins, map entry
// order is irrelevant, features nobody asked for are not validated.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/io/example/parse_example.h"
#include "tfcc/io/proto/example.pb.h"

namespace tfcc::io::internal {

/// Calls f(field_number, wire_type, payload) for each top-level field of the serialised message
/// `msg` (payload: the bytes of a length-delimited field, empty for other wire types). Stops
/// and returns false when `msg` is not a valid encoding or f returns false.
bool for_each_field(std::string_view msg, const std::function<bool(int, int, std::string_view)>& f);

/// The value bytes of a map entry: protobuf merges repeated occurrences of a message field, so
/// an entry may carry its value in several pieces.
using Pieces = std::vector<std::string_view>;

/// Calls visit(key, value_pieces) for every entry of the map field `field` of `msg`, in order.
/// False when malformed.
bool for_each_map_entry(std::string_view msg, int field,
                        const std::function<void(std::string_view, const Pieces&)>& visit);

/// Parses (merges) `pieces` into `out` (cleared first). False when malformed.
bool parse_pieces(const Pieces& pieces, google::protobuf::MessageLite& out);

/// Names a record in error messages: "parse_example: record 3 ('a.tfrecord:3')".
struct RecordRef {
  const char* op = "parse_example";
  int64_t index = 0;
  bool batched = true;  ///< a batch: name the index
  const std::string* name = nullptr;
  std::string str() const;
};

/// Checks a spec entry. `sequence`: a feature_lists spec of a SequenceExample; `context`: its
/// context spec (neither: an Example's).
void check_spec(const std::string& key, const FeatureSpec& spec, const char* op, bool context,
                bool sequence);

/// dtype's Feature kind (float32 -> kFloat, int64 -> kInt64, uint8 -> kBytes).
Feature::Kind kind_for(DType dtype);
/// "float32", "int64" or "bytes": how errors name a spec's dtype.
const char* spec_type_name(DType dtype);

/// Values of one feature gathered across records (or steps), in one dtype, and where each
/// record's values start.
class Column {
 public:
  explicit Column(DType dtype) : dtype_(dtype) {}
  /// Appends the values of `p`, whose kind the caller checked.
  void append(const tensorflow::Feature& p);
  /// Appends the values of `f`, whose kind the caller checked.
  void append(const Feature& f);
  /// Closes the current group (a record or a step): group(i) is [starts[i], starts[i + 1]).
  void end_group() { starts_.push_back(count()); }
  int64_t count() const;
  int64_t groups() const { return static_cast<int64_t>(starts_.size()) - 1; }
  int64_t group_size(int64_t i) const;
  /// The values as one dense feature of `shape` (its element count must be count()).
  ParsedFeature dense(const Shape& shape) const;
  /// Dense (groups, longest / stride, step...) with shorter groups padded by `pad` (or 0 / "").
  /// `source_bytes` bounds the output (ResourceExhaustedError, naming `what`).
  ParsedFeature padded(const Shape& step, const std::optional<Feature>& pad, bool batched,
                       uint64_t source_bytes, const std::string& what) const;
  /// A tf.SparseTensor: batched (group, j) indices or, unbatched, (j) of the only group.
  ParsedFeature sparse(bool batched) const;

 private:
  DType dtype_;
  std::vector<float> floats_;
  std::vector<int64_t> int64s_;
  std::string bytes_;
  std::vector<int64_t> splits_{0};  ///< bytes: string boundaries in bytes_
  std::vector<int64_t> starts_{0};  ///< group boundaries (value indices)
};

/// Index of each spec key (spec order), looked up by string_view.
using KeyIndex = std::map<std::string, size_t, std::less<>>;

/// Adds to out[k] the entries of the serialised Features message `features` whose key is the
/// k-th of `keys` (a later entry of a key replaces an earlier one). An absent feature keeps no
/// pieces, which every spec treats like a feature with no list. False when malformed.
bool scan_features(std::string_view features, const KeyIndex& keys, std::vector<Pieces>& out);

/// Feature `key` (the k-th of the spec) of every record, where found[r][k] holds record r's
/// entry: the result of parse_example (refs[0].batched) or parse_single_example.
ParsedFeature parse_feature(const std::string& key, const FeatureSpec& spec, size_t k,
                            const std::vector<std::vector<Pieces>>& found,
                            const std::vector<RecordRef>& refs, uint64_t input_bytes);

}  // namespace tfcc::io::internal
