// Copy loops shared by the array family's CPU kernels (array_cpu.cc, gather_scatter_cpu.cc).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The gather/scatter kernels (gather_scatter_cpu.cc), or nullptr.
KernelFn gather_scatter_cpu_kernel(const std::string& op, DType dtype);

namespace array_cpu {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& dims);
/// Product of dims[lo, hi).
int64_t product(const std::vector<int64_t>& dims, size_t lo, size_t hi);

/// Calls fn.template operator()<U>() with an unsigned integer type U of `size` bytes: data
/// movement kernels work on element bits, one instantiation per element size.
template <typename F>
void visit_element_size(size_t size, F&& fn) {
  switch (size) {
    case 1:
      fn.template operator()<uint8_t>();
      break;
    case 2:
      fn.template operator()<uint16_t>();
      break;
    case 4:
      fn.template operator()<uint32_t>();
      break;
    default:
      fn.template operator()<uint64_t>();
      break;
  }
}

/// Walks the index space `dims` row by row (the last dimension is a row); for each element j
/// the "far" position is base + sum_d j_d * far_strides[d]. kStore=false copies far -> near
/// (near is dense row-major over `dims`), kStore=true copies near -> far.
template <bool kStore, typename U>
void strided_walk(U* far, int64_t base, const std::vector<int64_t>& far_strides,
                  const std::vector<int64_t>& dims, U* near) {
  int64_t n = product(dims, 0, dims.size());
  if (n == 0) return;
  size_t r = dims.size();
  if (r == 0) {
    if constexpr (kStore) {
      far[base] = near[0];
    } else {
      near[0] = far[base];
    }
    return;
  }
  int64_t inner = dims[r - 1];
  int64_t step = far_strides[r - 1];
  kernels::parallel_for(
      n / inner,
      [&](int64_t lo, int64_t hi) {
        for (int64_t row = lo; row < hi; ++row) {
          int64_t rem = row, off = base;
          for (size_t d = r - 1; d-- > 0;) {
            off += (rem % dims[d]) * far_strides[d];
            rem /= dims[d];
          }
          U* dense = near + row * inner;
          U* sparse = far + off;
          if (step == 1) {
            if constexpr (kStore) {
              std::memcpy(sparse, dense, static_cast<size_t>(inner) * sizeof(U));
            } else {
              std::memcpy(dense, sparse, static_cast<size_t>(inner) * sizeof(U));
            }
          } else {
            for (int64_t k = 0; k < inner; ++k) {
              if constexpr (kStore) {
                sparse[k * step] = dense[k];
              } else {
                dense[k] = sparse[k * step];
              }
            }
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / inner));
}

/// out (dense over `dims`, default out's shape) = x at base + sum_d j_d * src_strides[d].
inline void strided_copy(const Tensor& x, int64_t base, const std::vector<int64_t>& src_strides,
                         Tensor& out, std::optional<std::vector<int64_t>> dims = std::nullopt) {
  std::vector<int64_t> walk = dims ? *dims : out.shape().dims();
  visit_element_size(dtype_size(x.dtype()), [&]<typename U>() {
    strided_walk<false, U>(static_cast<U*>(x.mutable_raw_data()), base, src_strides, walk,
                           static_cast<U*>(out.mutable_raw_data()));
  });
}

/// out at base + sum_d j_d * dst_strides[d] = src (dense over `dims`).
inline void strided_store(Tensor& out, int64_t base, const std::vector<int64_t>& dst_strides,
                          const Tensor& src, const std::vector<int64_t>& dims) {
  visit_element_size(dtype_size(src.dtype()), [&]<typename U>() {
    strided_walk<true, U>(static_cast<U*>(out.mutable_raw_data()), base, dst_strides, dims,
                          static_cast<U*>(src.mutable_raw_data()));
  });
}

/// Reads element i of an int32/int64 index tensor.
inline int64_t index_value(const Tensor& t, int64_t i) {
  return t.dtype() == int32 ? static_cast<int64_t>(t.data<int32_t>()[i]) : t.data<int64_t>()[i];
}

}  // namespace array_cpu
}  // namespace tfcc
