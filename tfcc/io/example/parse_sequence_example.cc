// parse_single_sequence_example: the context as an Example's features, the feature lists step by
// step.
#include "tfcc/io/example/example_internal.h"
#include "tfcc/io/example/parse_internal.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io {

using tfcc::internal::str_cat;

namespace {

constexpr const char* kOp = "parse_single_sequence_example";

// One sequence feature from its FeatureList (`list` is null when the record has none).
ParsedFeature parse_list(const std::string& key, const FeatureSpec& spec,
                         const tensorflow::FeatureList* list, const internal::RecordRef& ref) {
  const DType dtype = std::visit([](const auto& s) { return s.dtype; }, spec);
  const auto* fixed = std::get_if<FixedLenSequenceFeature>(&spec);
  if (!list && fixed) {
    TFCC_CHECK_ARG(fixed->allow_missing, ref.str(), ": feature list '", key,
                   "' (data type: ", internal::spec_type_name(dtype),
                   ") is required but could not be found");
  }
  internal::Column column(dtype);
  const int steps = list ? list->feature_size() : 0;
  for (int t = 0; t < steps; ++t) {
    const tensorflow::Feature& f = list->feature(t);
    const Feature::Kind kind = internal::kind_of(f);
    TFCC_CHECK_ARG(kind == Feature::Kind::kNone || kind == internal::kind_for(dtype), ref.str(),
                   ", feature list '", key, "', step ", t,
                   ": data types don't match: the record holds ", feature_kind_name(kind),
                   " values, the spec's dtype is ", internal::spec_type_name(dtype));
    const int64_t before = column.count();
    if (kind != Feature::Kind::kNone) column.append(f);
    const int64_t got = column.count() - before;
    if (fixed) {
      TFCC_CHECK_ARG(got == fixed->shape.num_elements(), ref.str(), ", feature list '", key,
                     "', step ", t, ": ", got, " values, but the step shape ",
                     fixed->shape.to_string(), " needs ", fixed->shape.num_elements());
    }
    column.end_group();
  }
  if (!fixed) return column.sparse(true);
  std::vector<int64_t> dims = fixed->shape.dims();
  dims.insert(dims.begin(), steps);
  return column.dense(Shape(dims));
}

internal::KeyIndex index_of(const FeatureSpecs& specs, bool context) {
  internal::KeyIndex keys;
  for (const auto& [key, spec] : specs) {
    internal::check_spec(key, spec, kOp, context, !context);
    keys.emplace(key, keys.size());
  }
  return keys;
}

}  // namespace

ParsedSequenceExample parse_single_sequence_example(std::string_view serialized,
                                                    const FeatureSpecs& context_features,
                                                    const FeatureSpecs& sequence_features,
                                                    const std::string& name) {
  const internal::KeyIndex context_keys = index_of(context_features, true);
  const internal::KeyIndex list_keys = index_of(sequence_features, false);
  const std::vector<internal::RecordRef> refs{{kOp, 0, false, &name}};
  TFCC_CHECK_ARG(serialized.size() <= kMaxSerializedExampleBytes, refs[0].str(), ": ",
                 serialized.size(), " bytes, over the ", kMaxSerializedExampleBytes,
                 "-byte limit of a serialised SequenceExample");
  std::vector<std::vector<internal::Pieces>> context(
      1, std::vector<internal::Pieces>(context_keys.size()));
  std::vector<internal::Pieces> lists(list_keys.size());
  std::vector<bool> has_list(list_keys.size());
  // SequenceExample: context (1) is a Features message, feature_lists (2) a FeatureLists one,
  // whose map (1) holds FeatureList values.
  bool ok = internal::for_each_field(serialized, [&](int field, int wire, std::string_view bytes) {
    if (wire != 2) return true;
    if (field == 1) return internal::scan_features(bytes, context_keys, context[0]);
    if (field != 2) return true;
    return internal::for_each_map_entry(bytes, 1,
                                        [&](std::string_view key, const internal::Pieces& value) {
                                          auto it = list_keys.find(key);
                                          if (it == list_keys.end()) return;
                                          lists[it->second] = value;
                                          has_list[it->second] = true;
                                        });
  });
  TFCC_CHECK_ARG(ok, refs[0].str(), ": could not parse the record as a tf.train.SequenceExample (",
                 serialized.size(), " bytes: ", quote_input(serialized, 64), ")");
  ParsedSequenceExample out;
  for (const auto& [key, spec] : context_features) {
    out.context.emplace(key, internal::parse_feature(key, spec, context_keys.at(key), context, refs,
                                                     serialized.size()));
  }
  tensorflow::FeatureList list;
  for (const auto& [key, spec] : sequence_features) {
    const size_t k = list_keys.at(key);
    if (has_list[k]) {
      TFCC_CHECK_ARG(internal::parse_pieces(lists[k], list), refs[0].str(), ": feature list '", key,
                     "' is not a valid tf.train.FeatureList");
    }
    out.feature_lists.emplace(key, parse_list(key, spec, has_list[k] ? &list : nullptr, refs[0]));
  }
  return out;
}

}  // namespace tfcc::io
