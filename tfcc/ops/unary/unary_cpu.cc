// CPU kernels of the unary family: one parallel loop, ops differ by formula (unary_formulas.h,
// the same definitions _FusedElementwise instantiates).
#include <cmath>
#include <type_traits>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/unary/unary_formulas.h"
#include "tfcc/ops/unary/unary_internal.h"

namespace tfcc {
namespace {

template <typename T, typename R, typename F>
void unary_loop(KernelContext& ctx, F f, double cost = kernels::cost::kElementwise) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0);
  const T* px = x.data<T>();
  R* po = out.mutable_data<R>();
  kernels::parallel_for_cost(out.num_elements(), cost, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) po[i] = f(px[i]);
  });
}

// The kernel of formula Op for T (nullptr when Op does not take T). Formulas evaluated as
// polynomials (exp, tanh, ...) cost several times a plain arithmetic op, so they go parallel at
// fewer elements.
template <typename T, typename Op>
KernelFn formula_kernel() {
  if constexpr (formula::accepts<T>(Op::kTypes)) {
    return [](KernelContext& c) {
      unary_loop<T, T>(
          c, [](T x) { return Op::template f<T>(x); },
          Op::kSlow ? kernels::cost::kTranscendental : kernels::cost::kElementwise);
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
void relu_grad_kernel(KernelContext& c) {
  const T* dy = c.input(0).data<T>();
  const T* f = c.input(1).data<T>();
  Tensor& out = c.allocate_output(0);
  T* po = out.mutable_data<T>();
  // Both loads happen unconditionally, so the select compiles to a blend and the loop
  // vectorises (a conditional load of dy[i] is a branch that random signs mispredict).
  kernels::parallel_for(out.num_elements(), [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      const T g = dy[i];
      po[i] = f[i] > T(0) ? g : T(0);
    }
  });
}

}  // namespace

KernelFn unary_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "LogicalNot") {
    return [](KernelContext& c) { unary_loop<bool, bool>(c, [](bool v) { return !v; }); };
  }
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      if (KernelFn k = find_formula<T>(op, formula::UnaryFormulas{})) return k;
      if constexpr (std::is_floating_point_v<T>) {
        if (op == "IsNan") {
          return
              [](KernelContext& c) { unary_loop<T, bool>(c, [](T x) { return std::isnan(x); }); };
        }
        if (op == "IsFinite") {
          return [](KernelContext& c) {
            unary_loop<T, bool>(c, [](T x) { return std::isfinite(x); });
          };
        }
      }
      if constexpr (std::is_signed_v<T>) {
        if (op == "ReluGrad") return relu_grad_kernel<T>;
      }
      return nullptr;
    }
  });
}

}  // namespace tfcc
