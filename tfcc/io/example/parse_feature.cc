// One spec feature over a batch of scanned records: type and size checks, defaults, and the
// column each spec kind turns into.
#include "tfcc/io/example/example_internal.h"
#include "tfcc/io/example/parse_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io::internal {

using tfcc::internal::str_cat;

std::string RecordRef::str() const {
  std::string named = name && !name->empty() ? str_cat(" ('", *name, "')") : std::string();
  if (batched) return str_cat(op, ": record ", index, named);
  return str_cat(op, named.empty() ? "" : ": record", named);
}

Feature::Kind kind_for(DType dtype) {
  if (dtype == float32) return Feature::Kind::kFloat;
  if (dtype == int64) return Feature::Kind::kInt64;
  return Feature::Kind::kBytes;
}

const char* spec_type_name(DType dtype) {
  if (dtype == float32) return "float32";
  if (dtype == int64) return "int64";
  return "bytes";
}

namespace {

// A default must hold `count` values of the spec's kind.
void check_default(const std::string& key, const char* op, const char* what, DType dtype,
                   const Feature& value, int64_t count) {
  TFCC_CHECK_ARG(value.kind() == kind_for(dtype), op, ": feature '", key, "': the ", what,
                 " holds ", feature_kind_name(value.kind()), " values but the dtype is ",
                 spec_type_name(dtype));
  TFCC_CHECK_ARG(value.size() == count, op, ": feature '", key, "': the ", what, " has ",
                 value.size(), " values, it needs ", count);
}

}  // namespace

void check_spec(const std::string& key, const FeatureSpec& spec, const char* op, bool context,
                bool sequence) {
  const DType dtype = std::visit([](const auto& s) { return s.dtype; }, spec);
  TFCC_CHECK_ARG(dtype == float32 || dtype == int64 || dtype == uint8, op, ": feature '", key,
                 "': dtype ", dtype_name(dtype),
                 " is not supported: use float32, int64, or uint8 for bytes (tf.string)");
  if (const auto* f = std::get_if<FixedLenFeature>(&spec)) {
    TFCC_CHECK_ARG(!sequence, op, ": sequence feature '", key,
                   "' is a FixedLenFeature: sequence features are FixedLenSequenceFeature or "
                   "VarLenFeature");
    if (f->default_value) {
      check_default(key, op, "default_value", dtype, *f->default_value, f->shape.num_elements());
    }
  } else if (const auto* s = std::get_if<FixedLenSequenceFeature>(&spec)) {
    TFCC_CHECK_ARG(!context, op, ": context feature '", key,
                   "' is a FixedLenSequenceFeature: context features are FixedLenFeature or "
                   "VarLenFeature");
    TFCC_CHECK_ARG(sequence || s->allow_missing, op, ": feature '", key,
                   "': FixedLenSequenceFeature requires allow_missing to be true");
    if (s->default_value) {
      TFCC_CHECK_ARG(!sequence, op, ": sequence feature '", key,
                     "': a FixedLenSequenceFeature's default_value must be unset");
      check_default(key, op, "default_value (padding)", dtype, *s->default_value, 1);
    }
  }
}

ParsedFeature parse_feature(const std::string& key, const FeatureSpec& spec, size_t k,
                            const std::vector<std::vector<Pieces>>& found,
                            const std::vector<RecordRef>& refs, uint64_t input_bytes) {
  const DType dtype = std::visit([](const auto& s) { return s.dtype; }, spec);
  const bool batched = refs.at(0).batched;
  tensorflow::Feature p;
  // Parses record r's entry into p: its kind, kNone when absent or holding no list.
  auto load = [&](size_t r) {
    if (found[r][k].empty()) return Feature::Kind::kNone;
    TFCC_CHECK_ARG(parse_pieces(found[r][k], p), refs[r].str(), ": feature '", key,
                   "' is not a valid tf.train.Feature");
    const Feature::Kind kind = kind_of(p);
    TFCC_CHECK_ARG(kind == Feature::Kind::kNone || kind == kind_for(dtype), refs[r].str(),
                   ", feature '", key, "': data types don't match: the record holds ",
                   feature_kind_name(kind), " values, the spec's dtype is ", spec_type_name(dtype));
    return kind;
  };
  auto missing = [&](size_t r) {
    return InvalidArgumentError(str_cat(refs[r].str(), ": feature '", key,
                                        "' (data type: ", spec_type_name(dtype),
                                        ") is required but could not be found"));
  };
  Column column(dtype);
  if (const auto* f = std::get_if<FixedLenFeature>(&spec)) {
    const int64_t n = f->shape.num_elements();
    for (size_t r = 0; r < found.size(); ++r) {
      if (load(r) == Feature::Kind::kNone) {
        if (!f->default_value) throw missing(r);
        column.append(*f->default_value);
      } else {
        const int64_t before = column.count();
        column.append(p);
        const int64_t got = column.count() - before;
        TFCC_CHECK_ARG(got == n, refs[r].str(), ", feature '", key, "': ", got,
                       " values, but the spec's shape ", f->shape.to_string(), " needs ", n);
      }
      column.end_group();
    }
    std::vector<int64_t> dims = f->shape.dims();
    if (batched) dims.insert(dims.begin(), static_cast<int64_t>(found.size()));
    return column.dense(Shape(dims));
  }
  if (std::holds_alternative<VarLenFeature>(spec)) {
    for (size_t r = 0; r < found.size(); ++r) {
      if (load(r) != Feature::Kind::kNone) column.append(p);
      column.end_group();
    }
    return column.sparse(batched);
  }
  const auto& s = std::get<FixedLenSequenceFeature>(spec);
  const int64_t stride = s.shape.num_elements();
  for (size_t r = 0; r < found.size(); ++r) {
    if (load(r) == Feature::Kind::kNone) {
      if (!s.allow_missing) throw missing(r);
    } else {
      const int64_t before = column.count();
      column.append(p);
      const int64_t got = column.count() - before;
      TFCC_CHECK_ARG(stride > 0 ? got % stride == 0 : got == 0, refs[r].str(), ", feature '", key,
                     "': ", got, " values are not a whole number of steps of shape ",
                     s.shape.to_string());
    }
    column.end_group();
  }
  return column.padded(s.shape, s.default_value, batched, input_bytes,
                       str_cat(refs[0].op, ": feature '", key, "'"));
}

}  // namespace tfcc::io::internal
