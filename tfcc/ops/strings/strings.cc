// Definitions of the strings family (TensorFlow's op names and attributes): StringLower,
// StringUpper, StaticRegexReplace, RegexFullMatch, StringSplitV2, StringJoin, ReduceJoin,
// StringLength, Substr, StringStrip, StringToNumber, AsString, StringToHashBucketFast,
// StringNGrams, and tfcc's _BytesSplit. None is differentiable.
#include "tfcc/ops/strings/strings.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/strings/lookup.h"
#include "tfcc/ops/strings/strings_internal.h"

namespace tfcc {
namespace {

using internal::str_cat;

// Output 0: the input's shape with dtype `out`.
ShapeFn same_shape_as(std::optional<DType> out, std::string attr = "") {
  return [out, attr](const InferenceContext& c) -> std::vector<OutputSpec> {
    DType d = out ? *out : (attr.empty() ? c.dtype(0) : c.attr<DType>(attr));
    return {{d, c.shape(0)}};
  };
}

std::vector<OutputSpec> split_shape(const InferenceContext& c) {
  const PartialShape in = c.shape(0);
  if (in.rank_known() && in.rank() != 1) c.fail("input must be a vector, got " + in.to_string());
  if (c.shape(1).rank_known() && c.shape(1).rank() != 0) c.fail("sep must be a scalar");
  return {{int64, PartialShape({-1, 2})}, {string, PartialShape({-1})}, {int64, Shape{2}}};
}

std::vector<OutputSpec> bytes_split_shape(const InferenceContext& c) {
  const PartialShape in = c.shape(0);
  if (in.rank_known() && in.rank() != 1) c.fail("input must be a vector, got " + in.to_string());
  int64_t rows = in.rank_known() && in.dim(0) >= 0 ? in.dim(0) + 1 : -1;
  return {{string, PartialShape({-1})}, {int64, PartialShape({rows})}};
}

std::vector<OutputSpec> join_shape(const InferenceContext& c) {
  std::optional<PartialShape> out;
  for (int i = 0; i < c.num_inputs(); ++i) {
    PartialShape s = c.shape(i);
    if (s.rank_known() && s.rank() == 0) continue;
    if (!out || !out->rank_known()) {
      out = s;
    } else if (s.is_fully_defined() && out->is_fully_defined() && s.dims() != out->dims()) {
      c.fail(str_cat("Input shapes do not match: ", out->to_string(), " vs. ", s.to_string()));
    }
  }
  return {{string, out ? *out : PartialShape(Shape{})}};
}

std::vector<OutputSpec> reduce_join_shape(const InferenceContext& c) {
  const PartialShape in = c.shape(0);
  const Tensor* axes = c.value(1);
  if (!in.rank_known() || !axes) return {{string, PartialShape::unknown_rank()}};
  const int64_t rank = in.rank();
  std::vector<bool> reduced(static_cast<size_t>(rank), axes->num_elements() == 0);
  for (int64_t a : axes->to_vector<int64_t>()) {
    if (a < -rank || a >= rank) {
      c.fail(str_cat("Invalid reduction dimension ", a, " for input with ", rank, " dimensions"));
    }
    size_t k = static_cast<size_t>(a < 0 ? a + rank : a);
    if (reduced[k] && axes->num_elements() > 0) c.fail(str_cat("Duplicate reduction index ", a));
    reduced[k] = true;
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      dims.push_back(in.dim(i));
    } else if (c.attr<bool>("keep_dims")) {
      dims.push_back(1);
    }
  }
  return {{string, PartialShape(dims)}};
}

std::vector<OutputSpec> ngrams_shape(const InferenceContext& c) {
  return {{string, PartialShape({-1})}, {c.dtype(1), c.shape(1)}};
}

std::vector<OutputSpec> ragged_rows_shape(const InferenceContext& c, const char* attr) {
  const PartialShape v = c.shape(0), s = c.shape(1);
  if ((v.rank_known() && v.rank() != 1) || (s.rank_known() && s.rank() != 1)) {
    c.fail("values and row_splits must be 1-D, got " + v.to_string() + " and " + s.to_string());
  }
  const int64_t rows = s.rank_known() && s.dim(0) >= 1 ? s.dim(0) - 1 : -1;
  const int64_t cols = c.attr<int64_t>(attr);
  return {{int64, PartialShape({rows, cols < 0 ? -1 : cols})}};
}

void register_lookup_ops(OpRegistry& r) {
  r.add("_IndexLookup")
      .input("input", "T")
      .input("vocab", "T")
      .input("mask", "T")
      .output("output", int64)
      .type_attr("T", {int64, string})
      .attr("num_oov_indices", AttrType::kInt, int64_t{1})
      .shape_fn(same_shape_as(int64))
      .cpu_kernels(lookup_cpu_kernel)
      .not_differentiable();
  r.add("_SparseRowSplits")
      .input("indices", int64)
      .input("dense_shape", int64)
      .output("row_splits", int64)
      .shape_fn([](const InferenceContext&) -> std::vector<OutputSpec> {
        return {{int64, PartialShape({-1})}};
      })
      .cpu_kernels(lookup_cpu_kernel)
      .not_differentiable();
  r.add("_RaggedToDense")
      .input("values", int64)
      .input("row_splits", int64)
      .output("output", int64)
      .attr("width", AttrType::kInt, int64_t{-1})
      .attr("pad", AttrType::kInt, int64_t{0})
      .shape_fn([](const InferenceContext& c) { return ragged_rows_shape(c, "width"); })
      .cpu_kernels(lookup_cpu_kernel)
      .not_differentiable();
  r.add("_RaggedBincount")
      .input("values", int64)
      .input("row_splits", int64)
      .output("output", int64)
      .attr("depth", AttrType::kInt)
      .attr("binary", AttrType::kBool, false)
      .shape_fn([](const InferenceContext& c) { return ragged_rows_shape(c, "depth"); })
      .cpu_kernels(lookup_cpu_kernel)
      .not_differentiable();
}

OpDef& string_unary(OpRegistry& r, const std::string& name) {
  return r.add(name).input("input", string).output("output", string).not_differentiable();
}

}  // namespace

void register_strings_ops(OpRegistry& r) {
  register_lookup_ops(r);
  for (const char* name : {"StringLower", "StringUpper"}) {
    string_unary(r, name)
        .attr("encoding", AttrType::kString, std::string())
        .shape_fn(same_shape_as(string))
        .cpu_kernels(strings_cpu_kernel);
  }
  string_unary(r, "StringStrip").shape_fn(same_shape_as(string)).cpu_kernels(strings_cpu_kernel);
  string_unary(r, "StaticRegexReplace")
      .attr("pattern", AttrType::kString)
      .attr("rewrite", AttrType::kString)
      .attr("replace_global", AttrType::kBool, true)
      .shape_fn(same_shape_as(string))
      .cpu_kernels(strings_cpu_kernel);
  r.add("StaticRegexFullMatch")
      .input("input", string)
      .output("output", bool_)
      .attr("pattern", AttrType::kString)
      .shape_fn(same_shape_as(bool_))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringSplitV2")
      .input("input", string)
      .input("sep", string)
      .output("indices", int64)
      .output("values", string)
      .output("shape", int64)
      .attr("maxsplit", AttrType::kInt, int64_t{-1})
      .shape_fn(split_shape)
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("_BytesSplit")
      .input("input", string)
      .output("values", string)
      .output("row_splits", int64)
      .shape_fn(bytes_split_shape)
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringJoin")
      .variadic_input("inputs", "T")
      .output("output", string)
      .type_attr("T", {string})
      .attr("separator", AttrType::kString, std::string())
      .shape_fn(join_shape)
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("ReduceJoin")
      .input("inputs", string)
      .input("reduction_indices", int32)
      .output("output", string)
      .attr("keep_dims", AttrType::kBool, false)
      .attr("separator", AttrType::kString, std::string())
      .shape_fn(reduce_join_shape)
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringLength")
      .input("input", string)
      .output("output", int32)
      .attr("unit", AttrType::kString, std::string("BYTE"))
      .shape_fn(same_shape_as(int32))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("Substr")
      .input("input", string)
      .input("pos", "T")
      .input("len", "T")
      .output("output", string)
      .type_attr("T", kIndexTypes)
      .attr("unit", AttrType::kString, std::string("BYTE"))
      .shape_fn(same_shape_as(string))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringToNumber")
      .input("string_tensor", string)
      .output("output", "out_type")
      .type_attr("out_type", {float32, float64, int32, int64})
      .shape_fn(same_shape_as(std::nullopt, "out_type"))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("AsString")
      .input("input", "T")
      .output("output", string)
      .type_attr("T", {float32, float64, int32, int64, uint8, bool_, string})
      .attr("precision", AttrType::kInt, int64_t{-1})
      .attr("scientific", AttrType::kBool, false)
      .attr("shortest", AttrType::kBool, false)
      .attr("width", AttrType::kInt, int64_t{-1})
      .attr("fill", AttrType::kString, std::string())
      .shape_fn(same_shape_as(string))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringToHashBucketFast")
      .input("input", string)
      .output("output", int64)
      .attr("num_buckets", AttrType::kInt)
      .shape_fn(same_shape_as(int64))
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
  r.add("StringNGrams")
      .input("data", string)
      .input("data_splits", "Tsplits")
      .output("ngrams", string)
      .output("ngrams_splits", "Tsplits")
      .type_attr("Tsplits", kIndexTypes)
      .attr("separator", AttrType::kString)
      .attr("ngram_widths", AttrType::kInts)
      .attr("left_pad", AttrType::kString)
      .attr("right_pad", AttrType::kString)
      .attr("pad_width", AttrType::kInt)
      .attr("preserve_short_sequences", AttrType::kBool)
      .shape_fn(ngrams_shape)
      .cpu_kernels(strings_cpu_kernel)
      .not_differentiable();
}

namespace strings {
namespace {

Tensor call1(const char* name, std::vector<Tensor> in, Attrs attrs, Loc loc) {
  return dispatch1(op_def(name), in, std::move(attrs), loc);
}

}  // namespace

Tensor lower(const Tensor& input, Loc loc) { return call1("StringLower", {input}, {}, loc); }
Tensor upper(const Tensor& input, Loc loc) { return call1("StringUpper", {input}, {}, loc); }
Tensor strip(const Tensor& input, Loc loc) { return call1("StringStrip", {input}, {}, loc); }

Tensor regex_replace(const Tensor& input, const std::string& pattern, const std::string& rewrite,
                     bool replace_global, Loc loc) {
  return call1("StaticRegexReplace", {input},
               {{"pattern", pattern}, {"rewrite", rewrite}, {"replace_global", replace_global}},
               loc);
}

Tensor regex_full_match(const Tensor& input, const std::string& pattern, Loc loc) {
  return call1("StaticRegexFullMatch", {input}, {{"pattern", pattern}}, loc);
}

Ragged split(const Tensor& input, const std::string& sep, int64_t maxsplit, Loc loc) {
  Tensor in[] = {input, Tensor::scalar(sep)};
  std::vector<Tensor> out = dispatch(op_def("StringSplitV2"), in, {{"maxsplit", maxsplit}}, loc);
  return {out[1], call1("_SparseRowSplits", {out[0], out[2]}, {}, loc)};
}

Ragged bytes_split(const Tensor& input, Loc loc) {
  Tensor in[] = {input};
  std::vector<Tensor> out = dispatch(op_def("_BytesSplit"), in, {}, loc);
  return {out[0], out[1]};
}

Tensor join(const std::vector<Tensor>& inputs, const std::string& separator, Loc loc) {
  TFCC_CHECK_ARG(!inputs.empty(), "tfcc::strings::join needs at least one input");
  return dispatch1(op_def("StringJoin"), inputs, {{"separator", separator}}, loc);
}

Tensor reduce_join(const Tensor& input, std::optional<std::vector<int64_t>> axes, bool keepdims,
                   const std::string& separator, Loc loc) {
  std::vector<int32_t> a;
  if (axes) {
    for (int64_t x : *axes) a.push_back(static_cast<int32_t>(x));
  } else {
    PartialShape ps = input.partial_shape();
    TFCC_REQUIRE(UnimplementedError, ps.rank_known(),
                 "reduce_join over all axes needs an input of known rank");
    for (int i = 0; i < ps.rank(); ++i) a.push_back(i);
  }
  if (a.empty()) return input;  // nothing to reduce (a scalar, or axes = {})
  return call1("ReduceJoin", {input, Tensor::from_vector(a)},
               {{"keep_dims", keepdims}, {"separator", separator}}, loc);
}

Tensor length(const Tensor& input, const std::string& unit, Loc loc) {
  return call1("StringLength", {input}, {{"unit", unit}}, loc);
}

Tensor substr(const Tensor& input, const Tensor& pos, const Tensor& len, Loc loc) {
  return call1("Substr", {input, pos, len}, {}, loc);
}

Tensor to_number(const Tensor& input, DType out_type, Loc loc) {
  return call1("StringToNumber", {input}, {{"out_type", out_type}}, loc);
}

Tensor as_string(const Tensor& input, int64_t precision, bool scientific, bool shortest,
                 int64_t width, const std::string& fill, Loc loc) {
  return call1("AsString", {input},
               {{"precision", precision},
                {"scientific", scientific},
                {"shortest", shortest},
                {"width", width},
                {"fill", fill}},
               loc);
}

Tensor to_hash_bucket_fast(const Tensor& input, int64_t num_buckets, Loc loc) {
  return call1("StringToHashBucketFast", {input}, {{"num_buckets", num_buckets}}, loc);
}

Ragged ngrams(const Ragged& data, const std::vector<int64_t>& widths, const std::string& separator,
              std::optional<std::pair<std::string, std::string>> pad_values, int64_t padding_width,
              bool preserve_short_sequences, Loc loc) {
  TFCC_CHECK_ARG(!widths.empty(), "tfcc::strings::ngrams needs at least one width");
  for (int64_t w : widths) TFCC_CHECK_ARG(w > 0, "ngram widths must be positive, got ", w);
  std::string left = pad_values ? pad_values->first : std::string();
  std::string right = pad_values ? pad_values->second : std::string();
  int64_t pad = pad_values ? padding_width : 0;
  if (pad_values && pad == 0) TFCC_CHECK_ARG(false, "padding_width must be -1 or positive");
  Tensor in[] = {data.values, data.row_splits};
  std::vector<Tensor> out = dispatch(op_def("StringNGrams"), in,
                                     {{"separator", separator},
                                      {"ngram_widths", widths},
                                      {"left_pad", left},
                                      {"right_pad", right},
                                      {"pad_width", pad},
                                      {"preserve_short_sequences", preserve_short_sequences}},
                                     loc);
  return {out[0], out[1]};
}

Tensor index_lookup(const Tensor& input, const Tensor& vocab, const Tensor& mask,
                    int64_t num_oov_indices, Loc loc) {
  Tensor m = mask.defined() ? reshape(mask, {-1}, loc) : Tensor::empty(vocab.dtype(), Shape{0});
  return call1("_IndexLookup", {input, vocab, m}, {{"num_oov_indices", num_oov_indices}}, loc);
}

Tensor ragged_to_dense(const Tensor& values, const Tensor& row_splits, int64_t width, int64_t pad,
                       Loc loc) {
  return call1("_RaggedToDense", {values, row_splits}, {{"width", width}, {"pad", pad}}, loc);
}

Tensor ragged_bincount(const Tensor& values, const Tensor& row_splits, int64_t depth, bool binary,
                       Loc loc) {
  return call1("_RaggedBincount", {values, row_splits}, {{"depth", depth}, {"binary", binary}},
               loc);
}

}  // namespace strings
}  // namespace tfcc
