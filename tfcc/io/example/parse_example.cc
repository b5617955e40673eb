#include "tfcc/io/example/parse_example.h"

#include "tfcc/io/example/parse_internal.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io {

using tfcc::internal::str_cat;

namespace internal {
// parse_traced.cc: parse_single_example on a symbolic record.
ParsedExample traced_parse_single_example(const Tensor& serialized, const FeatureSpecs& features);
}  // namespace internal

namespace {

ParsedExample parse_records(const char* op, std::span<const std::string_view> records,
                            const FeatureSpecs& features, const std::vector<std::string>& names,
                            bool batched) {
  TFCC_CHECK_ARG(names.empty() || names.size() == records.size(), op, ": ", names.size(),
                 " names for ", records.size(), " records (give none or one per record)");
  internal::KeyIndex keys;
  for (const auto& [key, spec] : features) {
    internal::check_spec(key, spec, op, false, false);
    keys.emplace(key, keys.size());
  }
  std::vector<std::vector<internal::Pieces>> found(records.size(),
                                                   std::vector<internal::Pieces>(keys.size()));
  std::vector<internal::RecordRef> refs(records.size());
  uint64_t input_bytes = 0;
  for (size_t r = 0; r < records.size(); ++r) {
    refs[r] = {op, static_cast<int64_t>(r), batched, names.empty() ? nullptr : &names[r]};
    const std::string_view record = records[r];
    input_bytes += record.size();
    TFCC_CHECK_ARG(record.size() <= kMaxSerializedExampleBytes, refs[r].str(), ": ", record.size(),
                   " bytes, over the ", kMaxSerializedExampleBytes,
                   "-byte limit of a serialised Example");
    // Example: `features` (1) holds the map; protobuf merges repeated occurrences of it.
    bool ok = internal::for_each_field(record, [&](int field, int wire, std::string_view bytes) {
      return field != 1 || wire != 2 || internal::scan_features(bytes, keys, found[r]);
    });
    TFCC_CHECK_ARG(ok, refs[r].str(), ": could not parse the record as a tf.train.Example (",
                   record.size(), " bytes: ", quote_input(record, 64), ")");
  }
  ParsedExample out;
  if (records.empty()) refs.push_back({op, 0, batched, nullptr});
  for (const auto& [key, spec] : features) {
    out.emplace(key, internal::parse_feature(key, spec, keys.at(key), found, refs, input_bytes));
  }
  return out;
}

}  // namespace

int64_t ParsedFeature::num_strings() const {
  TFCC_CHECK_ARG(is_bytes() && !byte_splits.is_symbolic(),
                 "num_strings: not a parsed bytes feature (or symbolic)");
  return byte_splits.num_elements() - 1;
}

std::vector<std::string> ParsedFeature::strings() const {
  std::vector<std::string> out;
  const int64_t n = num_strings();
  out.reserve(static_cast<size_t>(n));
  const auto* bytes = static_cast<const char*>(values.raw_data());
  const int64_t* splits = byte_splits.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    out.emplace_back(bytes + splits[i], static_cast<size_t>(splits[i + 1] - splits[i]));
  }
  return out;
}

Tensor ParsedFeature::bytes(int64_t i) const {
  const int64_t n = num_strings();
  TFCC_CHECK_ARG(i >= 0 && i < n, "bytes: index ", i, " out of range for ", n, " strings");
  const int64_t* splits = byte_splits.data<int64_t>();
  const auto* data = static_cast<const char*>(values.raw_data()) + splits[i];
  const int64_t len = splits[i + 1] - splits[i];
  return Tensor::from_bytes(uint8, Shape{len}, data, static_cast<size_t>(len));
}

ParsedExample parse_single_example(std::string_view serialized, const FeatureSpecs& features,
                                   const std::string& name) {
  return parse_records("parse_single_example", std::span(&serialized, 1), features,
                       name.empty() ? std::vector<std::string>{} : std::vector{name}, false);
}

ParsedExample parse_single_example(const Tensor& serialized, const FeatureSpecs& features) {
  TFCC_CHECK_ARG(serialized.defined() && serialized.dtype() == uint8 &&
                     serialized.partial_shape().rank_known() &&
                     serialized.partial_shape().rank() == 1,
                 "parse_single_example: the record must be a 1-D uint8 tensor of its bytes "
                 "(tfcc's string form), got ",
                 serialized.defined() ? serialized.to_string() : "an undefined tensor");
  if (serialized.is_symbolic()) return internal::traced_parse_single_example(serialized, features);
  return parse_single_example(
      std::string_view(static_cast<const char*>(serialized.raw_data()), serialized.nbytes()),
      features);
}

ParsedExample parse_example(std::span<const std::string_view> serialized,
                            const FeatureSpecs& features, const std::vector<std::string>& names) {
  return parse_records("parse_example", serialized, features, names, true);
}

ParsedExample parse_example(const std::vector<std::string>& serialized,
                            const FeatureSpecs& features, const std::vector<std::string>& names) {
  const std::vector<std::string_view> views(serialized.begin(), serialized.end());
  return parse_example(std::span<const std::string_view>(views), features, names);
}

}  // namespace tfcc::io
