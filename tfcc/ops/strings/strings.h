// String ops: TensorFlow's tf.strings on tensors of dtype tfcc::string.
//
//   Tensor s = Tensor::from_strings({"Hello World", "a  b"});
//   tfcc::strings::lower(s);                           // [b'hello world' b'a  b']
//   tfcc::strings::regex_replace(s, "[aeiou]", "_");   // RE2 syntax, as TensorFlow's
//   auto [values, row_splits] = tfcc::strings::split(s);
//       // values [b'Hello' b'World' b'a' b'b'], row_splits [0 2 4]
//   tfcc::strings::to_number(Tensor::from_strings({"1.5"}));        // [1.5]
//   tfcc::strings::to_hash_bucket_fast(s, 10);         // FarmHash Fingerprint64 % 10, as TF
//
// Ragged results: TensorFlow returns a tf.RaggedTensor from split, bytes_split and ngrams; tfcc
// returns the same two parts, `values` (1-D) and `row_splits` (int64, one more than the rows):
// row i holds values[row_splits[i] : row_splits[i+1]].
//
// None of these ops is differentiable (strings have no gradient). Every other op given a string
// tensor throws InvalidArgumentError "<op> does not support dtype string".
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::strings {

using Loc = std::source_location;

/// A ragged 1-D-of-lists result: row i is values[row_splits[i] : row_splits[i + 1]].
struct Ragged {
  Tensor values;      ///< 1-D
  Tensor row_splits;  ///< 1-D int64, starts at 0, non-decreasing
};

/// ASCII lower / upper case of every element (TensorFlow's default, encoding "").
Tensor lower(const Tensor& input, Loc loc = Loc::current());
Tensor upper(const Tensor& input, Loc loc = Loc::current());

/// Replaces the matches of the RE2 regular expression `pattern` by `rewrite` (\1 .. \9 name
/// groups); only the first match when `replace_global` is false. InvalidArgumentError for a
/// pattern RE2 rejects.
Tensor regex_replace(const Tensor& input, const std::string& pattern, const std::string& rewrite,
                     bool replace_global = true, Loc loc = Loc::current());
/// Whether each element matches `pattern` (RE2) in full.
Tensor regex_full_match(const Tensor& input, const std::string& pattern, Loc loc = Loc::current());

/// Splits each element of the 1-D `input` at `sep`; an empty `sep` splits at runs of ASCII
/// whitespace and drops empty pieces (Python's str.split()). At most `maxsplit` splits per
/// element when it is >= 0.
Ragged split(const Tensor& input, const std::string& sep = "", int64_t maxsplit = -1,
             Loc loc = Loc::current());
/// Each element of the 1-D `input` split into its bytes.
Ragged bytes_split(const Tensor& input, Loc loc = Loc::current());

/// Element-wise concatenation of the string tensors `inputs` (each of one shape, or a scalar).
Tensor join(const std::vector<Tensor>& inputs, const std::string& separator = "",
            Loc loc = Loc::current());
/// Joins the elements along `axes` (none: all) with `separator`.
Tensor reduce_join(const Tensor& input, std::optional<std::vector<int64_t>> axes = std::nullopt,
                   bool keepdims = false, const std::string& separator = "",
                   Loc loc = Loc::current());

/// int32 length of each element: `unit` "BYTE" or "UTF8_CHAR" (code points).
Tensor length(const Tensor& input, const std::string& unit = "BYTE", Loc loc = Loc::current());
/// Bytes [pos, pos + len) of each element (negative pos counts from the end; len is clipped to
/// the end). `pos` and `len` are int32 or int64 scalars or of input's shape.
/// InvalidArgumentError when pos is past either end of an element.
Tensor substr(const Tensor& input, const Tensor& pos, const Tensor& len, Loc loc = Loc::current());
/// Each element without leading and trailing ASCII whitespace.
Tensor strip(const Tensor& input, Loc loc = Loc::current());

/// Parses each element as a number of `out_type` (float32, float64, int32, int64); surrounding
/// whitespace is allowed. InvalidArgumentError names the first element that does not parse.
Tensor to_number(const Tensor& input, DType out_type = float32, Loc loc = Loc::current());
/// Formats each number like TensorFlow's AsString (printf %f / %e / %g / %d with the options).
Tensor as_string(const Tensor& input, int64_t precision = -1, bool scientific = false,
                 bool shortest = false, int64_t width = -1, const std::string& fill = "",
                 Loc loc = Loc::current());
/// int64 bucket of each element: FarmHash Fingerprint64(bytes) % num_buckets, as TensorFlow's
/// StringToHashBucketFast (same buckets for the same strings).
Tensor to_hash_bucket_fast(const Tensor& input, int64_t num_buckets, Loc loc = Loc::current());

/// The n-grams of each row of a ragged string list (TensorFlow's tf.strings.ngrams): for every
/// width in `widths`, the windows of that many consecutive values joined by `separator`.
/// `pad_values` (left, right) pads each row with `padding_width` copies at both ends
/// (padding_width -1: width - 1, the most that still leaves a real value in every n-gram).
/// `preserve_short_sequences`: a row too short for any n-gram yields one n-gram of the whole
/// (padded) row.
Ragged ngrams(const Ragged& data, const std::vector<int64_t>& widths,
              const std::string& separator = " ",
              std::optional<std::pair<std::string, std::string>> pad_values = std::nullopt,
              int64_t padding_width = -1, bool preserve_short_sequences = false,
              Loc loc = Loc::current());

}  // namespace tfcc::strings
#pragma GCC visibility pop
