// CPU kernels of the manip family. Roll copies, per output row of the innermost dimension, the
// two contiguous runs it is made of.
#include <algorithm>
#include <vector>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/manip/manip_internal.h"

namespace tfcc {
namespace {

template <typename T>
void roll_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const Shape& s = in.shape();
  const int rank = s.rank();
  if (in.num_elements() == 0) return;
  // The net shift of each dim, in [0, size).
  std::vector<int64_t> shift(static_cast<size_t>(rank), 0);
  const auto& shifts = c.attr<std::vector<int64_t>>("shift");
  const auto& axes = c.attr<std::vector<int64_t>>("axis");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    const int64_t d = s.dim(static_cast<int>(a));
    int64_t& net = shift[static_cast<size_t>(a)];
    net = (net + ((shifts[i] % d) + d) % d) % d;
  }
  const int64_t inner = s.dim(rank - 1), rows = in.num_elements() / inner;
  const int64_t last = shift.back();
  const T* x = in.data<T>();
  T* y = out.mutable_data<T>();
  kernels::parallel_for(
      rows,
      [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          // The source row: each outer coordinate moved back by its dim's shift.
          int64_t rem = r, src = 0, stride = 1;
          for (int d = rank - 2; d >= 0; --d) {
            const int64_t n = s.dim(d), i = rem % n;
            rem /= n;
            src += ((i - shift[static_cast<size_t>(d)] + n) % n) * stride;
            stride *= n;
          }
          const T* from = x + src * inner;
          T* to = y + r * inner;
          std::copy(from + (inner - last), from + inner, to);
          std::copy(from, from + (inner - last), to + last);
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / inner));
}

}  // namespace

KernelFn manip_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if (op == "Roll") return roll_kernel<T>;
    return nullptr;
  });
}

}  // namespace tfcc
