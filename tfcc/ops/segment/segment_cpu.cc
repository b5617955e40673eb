// CPU kernels of the segment family. Each output row is reduced by one thread (rows are
// independent), so results do not depend on the thread count. Integer sums wrap (computed in
// unsigned arithmetic) as TensorFlow's do.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/segment/segment_internal.h"

namespace tfcc {
namespace {

using internal::str_cat;

template <typename T>
T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, uint8_t>, uint32_t, T>>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// Elements of `s` past its first `lead` dims.
int64_t row_size(const Shape& s, int lead) {
  int64_t n = 1;
  for (int i = lead; i < s.rank(); ++i) n *= s.dim(i);
  return n;
}

enum class Reduce { kSum, kMean, kMax };

Reduce reduce_of(const std::string& op) {
  if (op.ends_with("Mean")) return Reduce::kMean;
  if (op.ends_with("Max")) return Reduce::kMax;
  return Reduce::kSum;
}

// Reduces data rows (each `inner` elements) into out rows: rows_of[s] lists the data rows of
// segment s. Empty segments get `empty`.
template <typename T>
void reduce_rows(const T* data, T* out, const std::vector<std::vector<int64_t>>& rows_of,
                 int64_t inner, Reduce r, T empty) {
  const int64_t segments = static_cast<int64_t>(rows_of.size());
  kernels::parallel_for(
      segments,
      [&](int64_t lo, int64_t hi) {
        for (int64_t s = lo; s < hi; ++s) {
          T* o = out + s * inner;
          const auto& rows = rows_of[static_cast<size_t>(s)];
          if (rows.empty()) {
            std::fill(o, o + inner, empty);
            continue;
          }
          std::copy(data + rows[0] * inner, data + rows[0] * inner + inner, o);
          for (size_t k = 1; k < rows.size(); ++k) {
            const T* d = data + rows[k] * inner;
            for (int64_t j = 0; j < inner; ++j) {
              if (r == Reduce::kMax) {
                // NaN wins, like TensorFlow's max reductions.
                bool nan = false;
                if constexpr (std::is_floating_point_v<T>) nan = std::isnan(d[j]);
                if (d[j] > o[j] || nan) o[j] = d[j];
              } else {
                o[j] = wrap_add(o[j], d[j]);
              }
            }
          }
          if (r == Reduce::kMean) {
            const T n = static_cast<T>(rows.size());
            for (int64_t j = 0; j < inner; ++j) o[j] = static_cast<T>(o[j] / n);
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(inner, 1)));
}

template <typename T>
void sorted_segment_kernel(KernelContext& c) {
  const Tensor &data = c.input(0), &ids_t = c.input(1);
  const std::vector<int64_t> ids = index_values(ids_t);
  const int64_t n = data.shape().dim(0);
  if (static_cast<int64_t>(ids.size()) != n) {
    c.fail(str_cat("segment_ids should be the same size as dimension 0 of input: ", ids.size(),
                   " vs. ", n));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) c.fail(str_cat("segment ids must be >= 0: segment_ids[", i, "] = ", ids[i]));
    if (i > 0 && ids[i] < ids[i - 1]) {
      c.fail(str_cat("segment ids are not increasing: segment_ids[", i, "] = ", ids[i], " after ",
                     ids[i - 1]));
    }
  }
  const int64_t segments = ids.empty() ? 0 : ids.back() + 1;
  std::vector<int64_t> dims = data.shape().dims();
  dims[0] = segments;
  Tensor& out = c.allocate_output(0, Shape(dims));  // Shape() checks the size for overflow
  const int64_t inner = row_size(data.shape(), 1);
  std::vector<std::vector<int64_t>> rows_of(static_cast<size_t>(segments));
  for (size_t i = 0; i < ids.size(); ++i)
    rows_of[static_cast<size_t>(ids[i])].push_back(int64_t(i));
  reduce_rows<T>(data.data<T>(), out.mutable_data<T>(), rows_of, inner, reduce_of(c.op().name()),
                 T(0));
}

template <typename T>
void unsorted_segment_kernel(KernelContext& c) {
  const Tensor &data = c.input(0), &ids_t = c.input(1);
  const std::vector<int64_t> ids = index_values(ids_t);
  const int64_t segments = c.attr<int64_t>("num_segments");
  Tensor& out = c.allocate_output(0);
  const int64_t rows = static_cast<int64_t>(ids.size());
  const int64_t inner = row_size(data.shape(), ids_t.rank());
  std::vector<std::vector<int64_t>> rows_of(static_cast<size_t>(segments));
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t s = ids[static_cast<size_t>(i)];
    if (s < 0) continue;  // dropped, as TensorFlow does
    if (s >= segments) {
      c.fail(str_cat("segment_ids[", i, "] = ", s, " is out of range [0, ", segments, ")"));
    }
    rows_of[static_cast<size_t>(s)].push_back(i);
  }
  const Reduce r = reduce_of(c.op().name());
  const T empty = r == Reduce::kMax ? std::numeric_limits<T>::lowest() : T(0);
  reduce_rows<T>(data.data<T>(), out.mutable_data<T>(), rows_of, inner, r, empty);
}

template <typename T>
void bincount_kernel(KernelContext& c) {
  const Tensor &in = c.input(0), &w = c.input(1);
  const std::vector<int64_t> v = index_values(in);
  const bool weighted = w.num_elements() != 0;
  if (weighted && w.shape() != in.shape()) {
    c.fail("weights must be empty or have the shape of input: " + w.shape().to_string() + " vs. " +
           in.shape().to_string());
  }
  int64_t size = c.attr<int64_t>("size");
  int64_t largest = -1;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0) c.fail(str_cat("Input arr must be non-negative: input[", i, "] = ", v[i]));
    largest = std::max(largest, v[i]);
  }
  if (size < 0) {
    const int64_t lo = c.attr<int64_t>("minlength"), hi = c.attr<int64_t>("maxlength");
    size = largest + 1;
    if (lo >= 0) size = std::max(size, lo);
    if (hi >= 0) size = std::min(size, hi);
  }
  const bool matrix = in.rank() == 2;
  const int64_t rows = matrix ? in.shape().dim(0) : 1;
  const int64_t cols = matrix ? in.shape().dim(1) : in.num_elements();
  Tensor& out = c.allocate_output(0, matrix ? Shape{rows, size} : Shape{size});
  T* o = out.mutable_data<T>();
  std::fill(o, o + out.num_elements(), T(0));
  const T* pw = weighted ? w.data<T>() : nullptr;
  const bool binary = c.attr<bool>("binary_output");
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t k = r * cols + j, b = v[static_cast<size_t>(k)];
      if (b >= size) continue;  // values past maxlength are not counted
      T& bin = o[r * size + b];
      bin = binary ? T(1) : wrap_add(bin, pw ? pw[k] : T(1));
    }
  }
}

}  // namespace

KernelFn segment_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      if (op == "DenseBincount") return bincount_kernel<T>;
      if (op.starts_with("Unsorted")) return unsorted_segment_kernel<T>;
      if (op.starts_with("Segment")) return sorted_segment_kernel<T>;
    }
    return nullptr;
  });
}

}  // namespace tfcc
