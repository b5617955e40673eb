// CPU kernels of the unary family: one parallel loop, ops differ by functor.
#include <cmath>
#include <type_traits>

#include "tfcc/ops/kernel_util.h"
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

template <typename T>
T wrapping_negate(T v) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(U(0) - static_cast<U>(v));
  } else {
    return -v;
  }
}

template <typename T>
T stable_sigmoid(T x) {
  if (x >= 0) return T(1) / (T(1) + std::exp(-x));
  T e = std::exp(x);
  return e / (T(1) + e);
}

// Kernels for every numeric dtype.
template <typename T>
KernelFn signed_kernel(const std::string& op) {
  if (op == "Neg") return [](KernelContext& c) { unary_loop<T, T>(c, wrapping_negate<T>); };
  if (op == "Abs") {
    return [](KernelContext& c) {
      unary_loop<T, T>(c, [](T v) { return v < 0 ? wrapping_negate(v) : v; });
    };
  }
  if (op == "Sign") {
    return [](KernelContext& c) {
      unary_loop<T, T>(c, [](T v) -> T {
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(v)) return v;
        }
        return T((v > 0) - (v < 0));
      });
    };
  }
  if (op == "Square") {
    return [](KernelContext& c) {
      unary_loop<T, T>(c, [](T v) -> T {
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          return static_cast<T>(static_cast<U>(v) * static_cast<U>(v));
        } else {
          return v * v;
        }
      });
    };
  }
  if (op == "ReluGrad") {
    return [](KernelContext& c) {
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
    };
  }
  if (op == "Relu") {
    return [](KernelContext& c) { unary_loop<T, T>(c, [](T v) { return v > 0 ? v : T(0); }); };
  }
  return nullptr;
}

// Functions evaluated as polynomials (exp, tanh, ...) cost several times a plain arithmetic op,
// so they go parallel at fewer elements.
#define TFCC_FLOAT_UNARY_COST(name, expr, cost)    \
  if (op == name) {                                \
    return [](KernelContext& c) {                  \
      unary_loop<T, T>(                            \
          c, [](T x) -> T { return expr; }, cost); \
    };                                             \
  }
#define TFCC_FLOAT_UNARY(name, expr) TFCC_FLOAT_UNARY_COST(name, expr, kernels::cost::kElementwise)
#define TFCC_FLOAT_UNARY_SLOW(name, expr) \
  TFCC_FLOAT_UNARY_COST(name, expr, kernels::cost::kTranscendental)

template <typename T>
KernelFn float_kernel(const std::string& op) {
  TFCC_FLOAT_UNARY_SLOW("Exp", std::exp(x))
  TFCC_FLOAT_UNARY_SLOW("Log", std::log(x))
  TFCC_FLOAT_UNARY_SLOW("Log1p", std::log1p(x))
  TFCC_FLOAT_UNARY_SLOW("Expm1", std::expm1(x))
  TFCC_FLOAT_UNARY("Sqrt", std::sqrt(x))
  TFCC_FLOAT_UNARY("Rsqrt", T(1) / std::sqrt(x))
  TFCC_FLOAT_UNARY("Reciprocal", T(1) / x)
  TFCC_FLOAT_UNARY_SLOW("Sin", std::sin(x))
  TFCC_FLOAT_UNARY_SLOW("Cos", std::cos(x))
  TFCC_FLOAT_UNARY_SLOW("Tan", std::tan(x))
  TFCC_FLOAT_UNARY_SLOW("Tanh", std::tanh(x))
  TFCC_FLOAT_UNARY_SLOW("Sigmoid", stable_sigmoid(x))
  TFCC_FLOAT_UNARY_SLOW("Erf", std::erf(x))
  TFCC_FLOAT_UNARY("Floor", std::floor(x))
  TFCC_FLOAT_UNARY("Ceil", std::ceil(x))
  TFCC_FLOAT_UNARY("Round", std::nearbyint(x))  // default rounding mode: half to even
  if (op == "IsNan") {
    return [](KernelContext& c) { unary_loop<T, bool>(c, [](T x) { return std::isnan(x); }); };
  }
  if (op == "IsFinite") {
    return [](KernelContext& c) { unary_loop<T, bool>(c, [](T x) { return std::isfinite(x); }); };
  }
  return nullptr;
}
#undef TFCC_FLOAT_UNARY
#undef TFCC_FLOAT_UNARY_SLOW
#undef TFCC_FLOAT_UNARY_COST

}  // namespace

KernelFn unary_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "LogicalNot") {
    return [](KernelContext& c) { unary_loop<bool, bool>(c, [](bool v) { return !v; }); };
  }
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      if (KernelFn k = signed_kernel<T>(op)) return k;
      if constexpr (std::is_floating_point_v<T>) return float_kernel<T>(op);
      return nullptr;
    }
  });
}

}  // namespace tfcc
