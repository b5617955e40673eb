// CPU kernels of the binary family. One generic broadcasting loop; arithmetic ops differ by
// formula (binary_formulas.h, the same definitions _FusedElementwise instantiates), comparisons
// and logical ops by functor.
#include <cmath>
#include <type_traits>

#include "tfcc/ops/binary/binary_formulas.h"
#include "tfcc/ops/binary/binary_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

struct EqF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a == b;
  }
};
struct NeF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a != b;
  }
};
struct LtF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a < b;
  }
};
struct LeF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a <= b;
  }
};
struct GtF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a > b;
  }
};
struct GeF {
  template <typename T>
  bool operator()(T a, T b) const {
    return a >= b;
  }
};
struct AndF {
  bool operator()(bool a, bool b) const { return a && b; }
};
struct OrF {
  bool operator()(bool a, bool b) const { return a || b; }
};

template <typename T, typename R, typename F>
void binary_loop(KernelContext& ctx, F f) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  Tensor& out = ctx.allocate_output(0);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  R* po = out.mutable_data<R>();
  const int64_t n = out.num_elements();
  if (a.shape() == b.shape()) {
    parallel_for(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) po[i] = f(pa[i], pb[i]);
    });
    return;
  }
  if (b.num_elements() == 1 && a.num_elements() == n) {
    const T s = pb[0];
    parallel_for(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) po[i] = f(pa[i], s);
    });
    return;
  }
  if (a.num_elements() == 1 && b.num_elements() == n) {
    const T s = pa[0];
    parallel_for(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) po[i] = f(s, pb[i]);
    });
    return;
  }
  if (n == 0) return;
  kernels::BroadcastPlan plan({a.shape(), b.shape()}, out.shape());
  const int64_t inner = plan.inner();
  const int64_t sa = plan.in_strides[0].back(), sb = plan.in_strides[1].back();
  parallel_for(
      plan.outer(),
      [&](int64_t lo, int64_t hi) {
        int64_t offs[2];
        for (int64_t row = lo; row < hi; ++row) {
          plan.offsets(row, offs);
          const T* ra = pa + offs[0];
          const T* rb = pb + offs[1];
          R* ro = po + row * inner;
          // Unit and zero strides get their own loops so the compiler vectorises them (bias adds,
          // row and column broadcasts).
          if (sa == 1 && sb == 1) {
            for (int64_t i = 0; i < inner; ++i) ro[i] = f(ra[i], rb[i]);
          } else if (sa == 1 && sb == 0) {
            const T vb = rb[0];
            for (int64_t i = 0; i < inner; ++i) ro[i] = f(ra[i], vb);
          } else if (sa == 0 && sb == 1) {
            const T va = ra[0];
            for (int64_t i = 0; i < inner; ++i) ro[i] = f(va, rb[i]);
          } else {
            for (int64_t i = 0; i < inner; ++i) ro[i] = f(ra[i * sa], rb[i * sb]);
          }
        }
      },
      std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(inner, 1)));
}

template <typename T>
void check_nonzero_divisor(KernelContext& ctx) {
  const Tensor& b = ctx.input(1);
  const T* pb = b.data<T>();
  for (int64_t i = 0; i < b.num_elements(); ++i) {
    if (pb[i] == 0) ctx.fail("Integer division by zero");
  }
}

template <typename T>
void check_nonnegative_exponent(KernelContext& ctx) {
  const Tensor& b = ctx.input(1);
  const T* pb = b.data<T>();
  for (int64_t i = 0; i < b.num_elements(); ++i) {
    if (pb[i] < 0) ctx.fail("Integers to negative integer powers are not allowed");
  }
}

// The kernel of formula Op for T (nullptr when Op does not take T): its input check (integers
// only), then the broadcasting loop.
template <typename T, typename Op>
KernelFn formula_kernel() {
  if constexpr (formula::accepts<T>(Op::kTypes)) {
    return [](KernelContext& c) {
      if constexpr (std::is_integral_v<T> && Op::kCheck == formula::Check::kNonzeroDivisor) {
        check_nonzero_divisor<T>(c);
      } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> &&
                           Op::kCheck == formula::Check::kNonnegativeExponent) {
        check_nonnegative_exponent<T>(c);
      }
      binary_loop<T, T>(c, [](T a, T b) { return Op::template f<T>(a, b); });
    };
  } else {
    return nullptr;
  }
}

template <typename T, typename... Ops>
KernelFn find_formula(const std::string& op, formula::List<Ops...>) {
  KernelFn k = nullptr;
  (void)((op == Ops::kName ? (k = formula_kernel<T, Ops>(), true) : false) || ...);
  return k;
}

template <typename T>
KernelFn comparison_kernel(const std::string& op) {
  if (op == "Equal") return [](KernelContext& c) { binary_loop<T, bool>(c, EqF{}); };
  if (op == "NotEqual") return [](KernelContext& c) { binary_loop<T, bool>(c, NeF{}); };
  if constexpr (!std::is_same_v<T, bool>) {
    if (op == "Less") return [](KernelContext& c) { binary_loop<T, bool>(c, LtF{}); };
    if (op == "LessEqual") return [](KernelContext& c) { binary_loop<T, bool>(c, LeF{}); };
    if (op == "Greater") return [](KernelContext& c) { binary_loop<T, bool>(c, GtF{}); };
    if (op == "GreaterEqual") return [](KernelContext& c) { binary_loop<T, bool>(c, GeF{}); };
  }
  return nullptr;
}

}  // namespace

KernelFn binary_cpu_kernel(const std::string& op, DType dtype) {
  // Strings compare by their bytes (the strings family's kernels; kept out of this file so its
  // numeric kernels compile exactly as before).
  if (dtype == DType::kString) return string_comparison_kernel(op);
  if (op == "LogicalAnd") return [](KernelContext& c) { binary_loop<bool, bool>(c, AndF{}); };
  if (op == "LogicalOr") return [](KernelContext& c) { binary_loop<bool, bool>(c, OrF{}); };
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      KernelFn k = comparison_kernel<T>(op);
      if (k) return k;
      if constexpr (!std::is_same_v<T, bool>) return find_formula<T>(op, formula::BinaryFormulas{});
      return nullptr;
    }
  });
}

}  // namespace tfcc
