// CPU kernels of the matrix family that need no linear-algebra library: MatrixBandPart. The
// decompositions are in matrix_eigen_cpu.cc.
#include <algorithm>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/matrix/matrix_internal.h"

namespace tfcc {
namespace {

template <typename T>
void band_part_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const int rank = in.rank();
  const int64_t rows = in.shape().dim(rank - 2), cols = in.shape().dim(rank - 1);
  const int64_t lower = c.attr<int64_t>("num_lower"), upper = c.attr<int64_t>("num_upper");
  if (lower > rows || upper > cols) c.fail("num_lower/num_upper exceed the matrix dimensions");
  const int64_t lines = cols == 0 ? 0 : in.num_elements() / cols;
  const T* x = in.data<T>();
  T* y = out.mutable_data<T>();
  kernels::parallel_for(
      lines,
      [&](int64_t lo, int64_t hi) {
        for (int64_t l = lo; l < hi; ++l) {
          const int64_t m = l % rows;  // row within its matrix
          // Column n stays when m - n <= lower and n - m <= upper.
          const int64_t first = lower < 0 ? 0 : std::max<int64_t>(0, m - lower);
          const int64_t last = upper < 0 ? cols : std::min<int64_t>(cols, m + upper + 1);
          const T* src = x + l * cols;
          T* dst = y + l * cols;
          for (int64_t n = 0; n < cols; ++n) dst[n] = n >= first && n < last ? src[n] : T{};
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(cols, 1)));
}

}  // namespace

KernelFn matrix_cpu_kernel(const std::string& op, DType dtype) {
  if (op != "MatrixBandPart") return matrix_eigen_cpu_kernel(op, dtype);
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn { return band_part_kernel<T>; });
}

}  // namespace tfcc
