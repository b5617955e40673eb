// CPU kernels of the sorting family. Rows are independent (one thread each); top_k sorts index
// arrays with a comparator (larger first, NaN largest, lower index first on ties), partially
// when k is small against the row.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/sorting/sorting_internal.h"

namespace tfcc {
namespace {

// a before b in a descending order: NaN first, then larger values.
template <typename T>
bool before_desc(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
  }
  return a > b;
}

template <typename T>
bool less_than(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(b)) return !std::isnan(a);
    if (std::isnan(a)) return false;
  }
  return a < b;
}

template <typename T, typename I>
void top_k_rows(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t k = c.attr<int64_t>("k");
  Tensor& values = c.allocate_output(0);
  Tensor& indices = c.allocate_output(1);
  const int64_t n = in.rank() ? in.shape().dim(in.rank() - 1) : 1;
  const int64_t rows = n == 0 ? 0 : in.num_elements() / n;
  if (k == 0 || rows == 0) return;
  const T* x = in.data<T>();
  T* pv = values.mutable_data<T>();
  I* pi = indices.mutable_data<I>();
  kernels::parallel_for(
      rows,
      [&](int64_t lo, int64_t hi) {
        std::vector<int64_t> order(static_cast<size_t>(n));
        for (int64_t r = lo; r < hi; ++r) {
          const T* row = x + r * n;
          std::iota(order.begin(), order.end(), int64_t{0});
          auto before = [row](int64_t a, int64_t b) {
            if (before_desc(row[a], row[b])) return true;
            if (before_desc(row[b], row[a])) return false;
            return a < b;
          };
          const auto mid = order.begin() + k;
          if (k < n) {
            std::partial_sort(order.begin(), mid, order.end(), before);
          } else {
            std::sort(order.begin(), order.end(), before);
          }
          for (int64_t j = 0; j < k; ++j) {
            const int64_t src = order[static_cast<size_t>(j)];
            pv[r * k + j] = row[src];
            pi[r * k + j] = static_cast<I>(src);
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(n, 1) / 8));
}

template <typename T>
void top_k_kernel(KernelContext& c) {
  if (c.attr<DType>("index_type") == int64) {
    top_k_rows<T, int64_t>(c);
  } else {
    if (c.input(0).rank() > 0 && c.input(0).shape().dims().back() > INT32_MAX) {
      c.fail("rows longer than 2^31 - 1 need index_type int64");
    }
    top_k_rows<T, int32_t>(c);
  }
}

template <typename T, typename I>
void bound_rows(KernelContext& c, bool upper) {
  const Tensor &s = c.input(0), &v = c.input(1);
  const int64_t rows = s.shape().dim(0), n = s.shape().dim(1), m = v.shape().dim(1);
  if (rows != v.shape().dim(0)) {
    c.fail("Leading dim_size of both tensors must match: " + s.shape().to_string() + " vs. " +
           v.shape().to_string());
  }
  Tensor& out = c.allocate_output(0, v.shape());
  const T *ps = s.data<T>(), *pv = v.data<T>();
  I* po = out.mutable_data<I>();
  kernels::parallel_for(rows * m, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      const T* row = ps + (i / m) * n;
      const T x = pv[i];
      const T* p = upper ? std::upper_bound(row, row + n, x, less_than<T>)
                         : std::lower_bound(row, row + n, x, less_than<T>);
      po[i] = static_cast<I>(p - row);
    }
  });
}

template <typename T>
void bound_kernel(KernelContext& c) {
  const bool upper = c.op().name() == "UpperBound";
  if (c.attr<DType>("out_type") == int64) return bound_rows<T, int64_t>(c, upper);
  if (c.input(0).shape().dim(1) >= INT32_MAX) c.fail("sequences this long need out_type int64");
  bound_rows<T, int32_t>(c, upper);
}

template <typename T, typename I>
void unique_values(KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t n = x.num_elements();
  const T* px = x.data<T>();
  // Keys by value; every NaN is its own value (NaN != NaN), as in TensorFlow.
  std::unordered_map<T, int64_t> seen;
  std::vector<T> distinct;
  std::vector<I> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t slot;
    bool is_nan = false;
    if constexpr (std::is_floating_point_v<T>) is_nan = std::isnan(px[i]);
    auto it = is_nan ? seen.end() : seen.find(px[i]);
    if (it == seen.end()) {
      slot = static_cast<int64_t>(distinct.size());
      distinct.push_back(px[i]);
      if (!is_nan) seen.emplace(px[i], slot);
    } else {
      slot = it->second;
    }
    idx[static_cast<size_t>(i)] = static_cast<I>(slot);
  }
  Tensor& y = c.allocate_output(0, Shape{static_cast<int64_t>(distinct.size())});
  std::copy(distinct.begin(), distinct.end(), y.mutable_data<T>());
  Tensor& out_idx = c.allocate_output(1, Shape{n});
  std::copy(idx.begin(), idx.end(), out_idx.mutable_data<I>());
}

template <typename T>
void unique_kernel(KernelContext& c) {
  if (c.attr<DType>("out_idx") == int64) return unique_values<T, int64_t>(c);
  if (c.input(0).num_elements() > INT32_MAX) c.fail("inputs this long need out_idx int64");
  unique_values<T, int32_t>(c);
}

}  // namespace

KernelFn sorting_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_arithmetic_v<T>) {
      if (op == "Unique") return unique_kernel<T>;
      if constexpr (!std::is_same_v<T, bool>) {
        if (op == "TopKV2") return top_k_kernel<T>;
        if (op == "LowerBound" || op == "UpperBound") return bound_kernel<T>;
      }
    }
    return nullptr;
  });
}

}  // namespace tfcc
