// CPU kernels of the creation family.
#include <cmath>
#include <cstring>

#include "tfcc/ops/creation/creation_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

template <typename T>
void fill_value(Tensor& out, T v) {
  T* p = out.mutable_data<T>();
  parallel_for(out.num_elements(), [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) p[i] = v;
  });
}

template <typename T>
void fill_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0);
  fill_value<T>(out, convert_element<T>(c.attr<double>("value")));
}

template <typename T>
void zeros_like_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0, c.input(0).shape());
  fill_value<T>(out, convert_element<T>(0.0));
}

template <typename T>
void ones_like_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0, c.input(0).shape());
  fill_value<T>(out, convert_element<T>(1.0));
}

template <typename T>
void range_kernel(KernelContext& c) {
  const double start = c.attr<double>("start"), delta = c.attr<double>("delta");
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  if constexpr (std::is_integral_v<T>) {
    // The shape function checked that start and delta fit T and that every value stays in
    // [start, limit); unsigned arithmetic keeps the intermediate products free of UB.
    const uint64_t s = uint64_t(static_cast<int64_t>(start));
    const uint64_t d = uint64_t(static_cast<int64_t>(delta));
    parallel_for(out.num_elements(), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) p[i] = static_cast<T>(int64_t(s + uint64_t(i) * d));
    });
  } else {
    parallel_for(out.num_elements(), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) p[i] = static_cast<T>(start + double(i) * delta);
    });
  }
}

template <typename T>
void linspace_kernel(KernelContext& c) {
  const double start = c.attr<double>("start"), stop = c.attr<double>("stop");
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const int64_t n = out.num_elements();
  if (n == 1) {
    p[0] = static_cast<T>(start);
    return;
  }
  const double step = (stop - start) / double(n - 1);
  parallel_for(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) p[i] = static_cast<T>(start + double(i) * step);
  });
  p[n - 1] = static_cast<T>(stop);  // exactly stop, as TensorFlow
}

template <typename T>
void eye_kernel(KernelContext& c) {
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const int64_t rows = out.shape().dim(0), cols = out.shape().dim(1);
  const T zero = convert_element<T>(0.0), one = convert_element<T>(1.0);
  parallel_for(rows * cols, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) p[i] = (i / cols == i % cols) ? one : zero;
  });
}

template <typename T, typename I>
void one_hot_loop(KernelContext& c) {
  const Tensor& idx = c.input(0);
  const int64_t depth = c.attr<int64_t>("depth");
  int64_t axis = c.attr<int64_t>("axis");
  const int rank = idx.shape().rank();
  if (axis == -1) axis = rank;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) (i < axis ? outer : inner) *= idx.shape().dim(i);
  const T on = convert_element<T>(c.attr<double>("on_value"));
  const T off = convert_element<T>(c.attr<double>("off_value"));
  Tensor& out = c.allocate_output(0);
  T* p = out.mutable_data<T>();
  const I* in = idx.data<I>();
  // out[o, d, i] = (in[o, i] == d) ? on : off; indices outside [0, depth) give all-off rows.
  parallel_for(out.num_elements(), [&](int64_t lo, int64_t hi) {
    for (int64_t k = lo; k < hi; ++k) {
      const int64_t i = k % inner;
      const int64_t d = (k / inner) % depth;
      const int64_t o = k / (inner * depth);
      p[k] = static_cast<int64_t>(in[o * inner + i]) == d ? on : off;
    }
  });
}

template <typename T>
void one_hot_kernel(KernelContext& c) {
  if (c.input(0).dtype() == int32) {
    one_hot_loop<T, int32_t>(c);
  } else {
    one_hot_loop<T, int64_t>(c);
  }
}

}  // namespace

KernelFn creation_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if (op == "Fill") return fill_kernel<T>;
    if (op == "ZerosLike") return zeros_like_kernel<T>;
    if (op == "OnesLike") return ones_like_kernel<T>;
    if (op == "Eye") return eye_kernel<T>;
    if (op == "OneHot") return one_hot_kernel<T>;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      if (op == "Range") return range_kernel<T>;
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (op == "LinSpace") return linspace_kernel<T>;
    }
    return nullptr;
  });
}

}  // namespace tfcc
