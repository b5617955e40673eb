// CPU kernels of GatherV2, GatherNd, ScatterNd and TensorScatterUpdate. Index values are only
// known here, so these kernels check every index before touching memory.
#include <cstring>
#include <sstream>

#include "tfcc/ops/array/array_cpu_util.h"
#include "tfcc/ops/array/array_internal.h"

namespace tfcc {
namespace {

using namespace array_cpu;  // NOLINT

// "[1]" or "[0,2]": the position of element `flat` in `dims`, as TensorFlow prints it.
std::string position(const std::vector<int64_t>& dims, int64_t flat) {
  std::vector<int64_t> idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = dims[d] == 0 ? 0 : flat % dims[d];
    flat = dims[d] == 0 ? 0 : flat / dims[d];
  }
  std::ostringstream os;
  os << "[";
  for (size_t d = 0; d < idx.size(); ++d) os << (d ? "," : "") << idx[d];
  os << "]";
  return os.str();
}

void gather_kernel(KernelContext& ctx) {
  const Tensor& params = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const auto& pd = params.shape().dims();
  int64_t axis = ctx.attr<int64_t>("axis");
  int64_t batch_dims = ctx.attr<int64_t>("batch_dims");
  if (axis < 0) axis += params.rank();
  if (batch_dims < 0) batch_dims += indices.rank();
  int64_t batch = product(pd, 0, static_cast<size_t>(batch_dims));
  int64_t outer = product(pd, static_cast<size_t>(batch_dims), static_cast<size_t>(axis));
  int64_t limit = pd[static_cast<size_t>(axis)];
  int64_t inner = product(pd, static_cast<size_t>(axis) + 1, pd.size());
  int64_t count = indices.num_elements();
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = index_value(indices, i);
    if (v < 0 || v >= limit) {
      ctx.fail(internal::str_cat("indices", position(indices.shape().dims(), i), " = ", v,
                                 " is not in [0, ", limit, ")"));
    }
  }
  Tensor& out = ctx.allocate_output(0);
  if (out.num_elements() == 0) return;
  int64_t per_batch = batch == 0 ? 0 : count / batch;  // indices per batch entry
  size_t esize = dtype_size(params.dtype());
  int64_t row = inner * static_cast<int64_t>(esize);
  const char* src = static_cast<const char*>(params.raw_data());
  char* dst = static_cast<char*>(out.mutable_raw_data());
  kernels::parallel_for(
      batch * outer * per_batch,
      [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          int64_t k = r % per_batch;
          int64_t bo = r / per_batch;  // b * outer + o
          int64_t b = bo / outer;
          int64_t v = index_value(indices, b * per_batch + k);
          std::memcpy(dst + r * row, src + (bo * limit + v) * row, static_cast<size_t>(row));
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, inner)));
}

// Flat slice offsets (in units of the slice) addressed by each row of an [M, D] index tensor
// into `dims`; fails naming the first bad row.
std::vector<int64_t> nd_offsets(KernelContext& ctx, const Tensor& indices,
                                const std::vector<int64_t>& dims, const char* what) {
  const auto& id = indices.shape().dims();
  size_t depth = static_cast<size_t>(id.back());
  int64_t rows = depth == 0 ? product(id, 0, id.size() - 1) : indices.num_elements() / depth;
  std::vector<int64_t> strides(depth, 1);
  for (size_t d = depth; d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  std::vector<int64_t> offsets(static_cast<size_t>(rows));
  for (int64_t m = 0; m < rows; ++m) {
    int64_t off = 0;
    for (size_t d = 0; d < depth; ++d) {
      int64_t v = index_value(indices, m * static_cast<int64_t>(depth) + static_cast<int64_t>(d));
      if (v < 0 || v >= dims[d]) {
        std::ostringstream bad;
        for (size_t e = 0; e < depth; ++e) {
          bad << (e ? ", " : "")
              << index_value(indices, m * static_cast<int64_t>(depth) + static_cast<int64_t>(e));
        }
        std::vector<int64_t> batch(id.begin(), id.end() - 1);
        ctx.fail(internal::str_cat("indices", position(batch, m), " = [", bad.str(),
                                   "] does not index into ", what, " ",
                                   Shape(dims).debug_string()));
      }
      off += v * strides[d];
    }
    offsets[static_cast<size_t>(m)] = off;
  }
  return offsets;
}

void gather_nd_kernel(KernelContext& ctx) {
  const Tensor& params = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const auto& pd = params.shape().dims();
  size_t depth = static_cast<size_t>(indices.shape().dims().back());
  std::vector<int64_t> offsets = nd_offsets(ctx, indices, pd, "param shape");
  Tensor& out = ctx.allocate_output(0);
  int64_t slice = product(pd, depth, pd.size());
  if (out.num_elements() == 0 || slice == 0) return;
  int64_t row = slice * static_cast<int64_t>(dtype_size(params.dtype()));
  const char* src = static_cast<const char*>(params.raw_data());
  char* dst = static_cast<char*>(out.mutable_raw_data());
  kernels::parallel_for(
      static_cast<int64_t>(offsets.size()),
      [&](int64_t lo, int64_t hi) {
        for (int64_t m = lo; m < hi; ++m) {
          std::memcpy(dst + m * row, src + offsets[static_cast<size_t>(m)] * row,
                      static_cast<size_t>(row));
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / slice));
}

// Wrapping addition for signed integers (no UB on overflow), plain addition otherwise.
template <typename T>
T add_wrapping(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return static_cast<uint8_t>(a + b);
  } else {
    return a + b;
  }
}

template <typename T>
void scatter_nd_kernel(KernelContext& ctx) {
  const Tensor& indices = ctx.input(0);
  const Tensor& updates = ctx.input(1);
  Tensor& out = ctx.allocate_output(0);
  const auto& od = out.shape().dims();
  size_t depth = static_cast<size_t>(indices.shape().dims().back());
  std::vector<int64_t> offsets = nd_offsets(ctx, indices, od, "shape");
  T* po = out.mutable_data<T>();
  std::fill(po, po + out.num_elements(), T(0));
  int64_t slice = product(od, depth, od.size());
  const T* pu = updates.data<T>();
  // Serial over index rows (duplicates accumulate), parallel within large slices.
  for (size_t m = 0; m < offsets.size(); ++m) {
    T* dst = po + offsets[m] * slice;
    const T* src = pu + static_cast<int64_t>(m) * slice;
    kernels::parallel_for(slice, [&](int64_t lo, int64_t hi) {
      for (int64_t k = lo; k < hi; ++k) dst[k] = add_wrapping(dst[k], src[k]);
    });
  }
}

void tensor_scatter_update_kernel(KernelContext& ctx) {
  const Tensor& tensor = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  const auto& td = tensor.shape().dims();
  size_t depth = static_cast<size_t>(indices.shape().dims().back());
  std::vector<int64_t> offsets = nd_offsets(ctx, indices, td, "shape");
  Tensor& out = ctx.allocate_output(0);
  if (out.nbytes() == 0) return;
  std::memcpy(out.mutable_raw_data(), tensor.raw_data(), out.nbytes());
  int64_t row = product(td, depth, td.size()) * static_cast<int64_t>(dtype_size(tensor.dtype()));
  if (row == 0) return;
  char* dst = static_cast<char*>(out.mutable_raw_data());
  const char* src = static_cast<const char*>(updates.raw_data());
  for (size_t m = 0; m < offsets.size(); ++m) {  // in order: the last duplicate wins
    std::memcpy(dst + offsets[m] * row, src + static_cast<int64_t>(m) * row,
                static_cast<size_t>(row));
  }
}

}  // namespace

KernelFn gather_scatter_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "GatherV2") return gather_kernel;
  if (op == "GatherNd") return gather_nd_kernel;
  if (op == "TensorScatterUpdate") return tensor_scatter_update_kernel;
  if (op == "ScatterNd") {
    return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
        return nullptr;
      } else {
        return [](KernelContext& c) { scatter_nd_kernel<T>(c); };
      }
    });
  }
  return nullptr;
}

}  // namespace tfcc
