// Shared by the Eigen kernel files of the matrix family (matrix_eigen_cpu.cc,
// matrix_eigen_decomp_cpu.cc): row-major maps of each matrix of a batch and the batch loop.
#pragma once

#ifndef EIGEN_DONT_PARALLELIZE
#error "define EIGEN_DONT_PARALLELIZE before including Eigen: tfcc parallelises over the batch"
#endif

#include <Eigen/Core>
#include <atomic>
#include <string>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/matrix/matrix_internal.h"

namespace tfcc::matrix_eigen {

using internal::str_cat;

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using In = Eigen::Map<const Mat<T>>;
template <typename T>
using Out = Eigen::Map<Mat<T>>;
template <typename T>
using Vec = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;

struct Dims {
  int64_t batch = 1, rows = 0, cols = 0;
};

inline Dims dims_of(const Tensor& t) {
  const int rank = t.rank();
  Dims d;
  d.rows = t.shape().dim(rank - 2);
  d.cols = t.shape().dim(rank - 1);
  for (int i = 0; i < rank - 2; ++i) d.batch *= t.shape().dim(i);
  return d;
}

// Runs fn(b) for each matrix b of the batch; fn returns false on failure. Returns the first
// failing b, or -1.
template <typename F>
int64_t for_each_matrix(int64_t batch, int64_t work_per_matrix, F fn) {
  std::atomic<int64_t> first_bad{-1};
  kernels::parallel_for(
      batch,
      [&](int64_t lo, int64_t hi) {
        for (int64_t b = lo; b < hi; ++b) {
          if (fn(b)) continue;
          int64_t cur = first_bad.load();
          while ((cur == -1 || b < cur) && !first_bad.compare_exchange_weak(cur, b)) {
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(work_per_matrix, 1)));
  return first_bad.load();
}

inline std::string which(int64_t bad, int64_t batch) {
  return batch > 1 ? str_cat(" (matrix ", bad, " of the batch)") : std::string();
}

}  // namespace tfcc::matrix_eigen
