// CPU kernels of the lookup ops (lookup.h): _IndexLookup, _RaggedToDense, _RaggedBincount.
#include <farmhash.h>

#include <string>
#include <unordered_map>

#include "tfcc/ops/strings/strings_internal.h"

namespace tfcc {
namespace {

using internal::str_cat;

// Keys as bytes: a string's own, an integer's decimal text (for the OOV hash).
std::string_view key_of(const TString& s, std::string&) { return s.view(); }
std::string_view key_of(int64_t v, std::string& buf) {
  buf = std::to_string(v);
  return buf;
}

template <typename T, typename K>
void index_lookup_kernel(KernelContext& ctx) {
  const Tensor &in = ctx.input(0), &vocab = ctx.input(1), &mask = ctx.input(2);
  const int64_t num_oov = ctx.attr<int64_t>("num_oov_indices");
  if (num_oov < 0) ctx.fail(str_cat("num_oov_indices must be >= 0, got ", num_oov));
  if (mask.num_elements() > 1) ctx.fail("mask must hold at most one value");
  const bool has_mask = mask.num_elements() == 1;
  const T* v = vocab.data<T>();
  std::unordered_map<K, int64_t> index;
  index.reserve(static_cast<size_t>(vocab.num_elements()));
  auto key = [](const T& x) {
    if constexpr (std::is_same_v<T, TString>) {
      return x.view();
    } else {
      return x;
    }
  };
  for (int64_t i = 0; i < vocab.num_elements(); ++i) index.emplace(key(v[i]), i);
  const int64_t base = has_mask ? 1 : 0;
  const T* p = in.data<T>();
  int64_t* o = ctx.allocate_output(0).mutable_data<int64_t>();
  std::string buf;
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    if (has_mask && key(p[i]) == key(mask.data<T>()[0])) {
      o[i] = 0;
      continue;
    }
    auto it = index.find(key(p[i]));
    if (it != index.end()) {
      o[i] = it->second + base + num_oov;
      continue;
    }
    if (num_oov == 0) {
      std::string shown(key_of(p[i], buf));
      ctx.fail(str_cat("Value '", shown, "' is not in the vocabulary and num_oov_indices is 0"));
    }
    std::string_view bytes = key_of(p[i], buf);
    o[i] = base + (num_oov == 1
                       ? 0
                       : static_cast<int64_t>(util::Fingerprint64(bytes.data(), bytes.size()) %
                                              static_cast<uint64_t>(num_oov)));
  }
}

void check_splits(KernelContext& ctx, const Tensor& values, const Tensor& splits) {
  if (values.rank() != 1 || splits.rank() != 1 || splits.num_elements() < 1) {
    ctx.fail("values and row_splits must be 1-D, row_splits non-empty");
  }
  const int64_t* s = splits.data<int64_t>();
  const int64_t rows = splits.num_elements() - 1;
  if (s[0] != 0 || s[rows] != values.num_elements()) {
    ctx.fail("row_splits must start at 0 and end at the number of values");
  }
  for (int64_t r = 0; r < rows; ++r) {
    if (s[r + 1] < s[r]) ctx.fail("row_splits must be non-decreasing");
  }
}

// Row splits of a sparse result whose row ids (indices[:, 0]) are sorted (StringSplitV2's).
void sparse_row_splits_kernel(KernelContext& ctx) {
  const Tensor &indices = ctx.input(0), &shape = ctx.input(1);
  if (indices.rank() != 2 || indices.shape().dim(1) != 2 || shape.num_elements() != 2) {
    ctx.fail("indices must be [N, 2] and dense_shape [2]");
  }
  const int64_t rows = shape.data<int64_t>()[0], n = indices.shape().dim(0);
  if (rows < 0 || rows > (int64_t{1} << 31)) ctx.fail(str_cat("Invalid number of rows ", rows));
  const int64_t* id = indices.data<int64_t>();
  int64_t* o = ctx.allocate_output(0, Shape{rows + 1}).mutable_data<int64_t>();
  int64_t k = 0;
  for (int64_t r = 0; r <= rows; ++r) {
    while (k < n && id[2 * k] < r) {
      if (k > 0 && id[2 * k] < id[2 * (k - 1)]) ctx.fail("row ids must be sorted");
      ++k;
    }
    o[r] = k;
  }
  if (k != n) ctx.fail("row ids must be in [0, rows)");
}

void ragged_to_dense_kernel(KernelContext& ctx) {
  const Tensor &values = ctx.input(0), &splits = ctx.input(1);
  check_splits(ctx, values, splits);
  const int64_t* s = splits.data<int64_t>();
  const int64_t rows = splits.num_elements() - 1;
  int64_t width = ctx.attr<int64_t>("width");
  if (width < 0) {
    width = 0;
    for (int64_t r = 0; r < rows; ++r) width = std::max(width, s[r + 1] - s[r]);
  }
  if (rows > 0 && width > (int64_t{1} << 28) / rows) {
    ctx.fail(str_cat("A [", rows, ", ", width, "] result exceeds 2^28 elements"));
  }
  const int64_t pad = ctx.attr<int64_t>("pad");
  const int64_t* v = values.data<int64_t>();
  int64_t* o = ctx.allocate_output(0, Shape{rows, width}).mutable_data<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < width; ++c) o[r * width + c] = s[r] + c < s[r + 1] ? v[s[r] + c] : pad;
  }
}

void ragged_bincount_kernel(KernelContext& ctx) {
  const Tensor &values = ctx.input(0), &splits = ctx.input(1);
  check_splits(ctx, values, splits);
  const int64_t depth = ctx.attr<int64_t>("depth");
  const bool binary = ctx.attr<bool>("binary");
  if (depth < 0) ctx.fail(str_cat("depth must be >= 0, got ", depth));
  const int64_t* s = splits.data<int64_t>();
  const int64_t rows = splits.num_elements() - 1;
  if (rows > 0 && depth > (int64_t{1} << 28) / rows) {
    ctx.fail(str_cat("A [", rows, ", ", depth, "] result exceeds 2^28 elements"));
  }
  const int64_t* v = values.data<int64_t>();
  Tensor& out = ctx.allocate_output(0, Shape{rows, depth});
  int64_t* o = out.mutable_data<int64_t>();
  std::fill(o, o + rows * depth, int64_t{0});
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = s[r]; k < s[r + 1]; ++k) {
      if (v[k] < 0 || v[k] >= depth) {
        ctx.fail(str_cat("Value ", v[k], " is outside [0, ", depth, ") (num_tokens)"));
      }
      int64_t& cell = o[r * depth + v[k]];
      cell = binary ? 1 : cell + 1;
    }
  }
}

}  // namespace

KernelFn lookup_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "_IndexLookup") {
    return dtype == string ? index_lookup_kernel<TString, std::string_view>
                           : index_lookup_kernel<int64_t, int64_t>;
  }
  if (op == "_SparseRowSplits") return sparse_row_splits_kernel;
  if (op == "_RaggedToDense") return ragged_to_dense_kernel;
  if (op == "_RaggedBincount") return ragged_bincount_kernel;
  return nullptr;
}

}  // namespace tfcc
