// The ops behind Keras' lookup and text layers (StringLookup, IntegerLookup, TextVectorization,
// CategoryEncoding): vocabulary lookup, ragged-to-dense and per-row bin counts. tfcc-internal op
// names (_IndexLookup, _RaggedToDense, _RaggedBincount); they trace like any op.
//
//   Tensor ids = tfcc::strings::index_lookup(words, vocab, {}, 1);   // Keras' int mode ids
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>

#include "tfcc/core/tensor.h"

namespace tfcc::strings {

/// Keras' IndexLookup ids (int64, input's shape): with `mask` (a one-element tensor; undefined:
/// no mask token) an element equal to it is 0; an element at position i of `vocab` is
/// i + num_oov_indices (+1 with a mask); any other is an OOV id: (+1 with a mask) plus
/// Fingerprint64 of its bytes (decimal text for integers) modulo num_oov_indices.
/// InvalidArgumentError for an OOV element when num_oov_indices is 0. `input` and `vocab`:
/// both string or both int64.
Tensor index_lookup(const Tensor& input, const Tensor& vocab, const Tensor& mask,
                    int64_t num_oov_indices,
                    std::source_location loc = std::source_location::current());

/// [rows, width] int64 from ragged int64 rows (values, row_splits): each row's values, then
/// `pad`; width -1: the longest row's length; longer rows are cut.
Tensor ragged_to_dense(const Tensor& values, const Tensor& row_splits, int64_t width,
                       int64_t pad = 0, std::source_location loc = std::source_location::current());

/// [rows, depth] int64: how often each id in [0, depth) occurs in each ragged row (`binary`:
/// 1 if it occurs). Ids outside [0, depth): InvalidArgumentError.
Tensor ragged_bincount(const Tensor& values, const Tensor& row_splits, int64_t depth, bool binary,
                       std::source_location loc = std::source_location::current());

}  // namespace tfcc::strings
#pragma GCC visibility pop
