// The unary element-wise ops, one struct each (tfcc/ops/formula.h): name, dtypes, the formula `f`
// that the eager kernel (unary_cpu.cc) and _FusedElementwise both instantiate, and the gradient
// rule (written with ops; absent: not differentiable). Adding an op: a struct here, its name in
// UnaryFormulas, the API function (unary.h / unary.cc) and its conformance row.
#pragma once

#include <cmath>
#include <numbers>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/formula.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::formula {

/// Defaults of a unary formula: float dtypes, about one arithmetic op per element, fusable
/// (for its float dtypes).
struct UnaryFormula {
  static constexpr Types kTypes = Types::kFloat;
  static constexpr bool kSlow = false;  ///< a polynomial (exp, sin, ...): parallel sooner
  static constexpr bool kFusable = true;
};

namespace detail {
template <typename T>
T wrapping_negate(T v) {
  if constexpr (std::is_integral_v<T>) {
    return wrap<T>(Wide<T>(0) - Wide<T>(v));
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
// lgamma without the global signgam (std::lgamma writes it: a data race across threads).
inline float lgamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}
inline double lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
// psi(x) = d/dx log Gamma(x): reflection below 1/2 (pi / tan(pi x) from the offset to the
// nearest integer, exact in any precision, so values near the poles keep their digits),
// recurrence up to 6, then the asymptotic series ln x - 1/(2x) - sum B_2k / (2k x^2k) to k = 7.
// NaN at the poles (0, -1, ...) and at -inf, as TensorFlow.
template <typename T>
T digamma(T x) {
  if (std::isnan(x) || x == INFINITY) return x;
  if (x <= 0 && x == std::floor(x)) return T(NAN);
  T acc = 0;
  if (x < T(0.5)) {
    acc = -std::numbers::pi_v<T> / std::tan(std::numbers::pi_v<T> * (x - std::nearbyint(x)));
    x = T(1) - x;
  }
  for (; x < T(6); x += T(1)) acc -= T(1) / x;
  const T z = T(1) / (x * x);
  const T series =
      z *
      (T(1) / 12 -
       z * (T(1) / 120 -
            z * (T(1) / 252 -
                 z * (T(1) / 240 - z * (T(1) / 132 - z * (T(691) / 32760 - z * (T(1) / 12)))))));
  return acc + std::log(x) - T(0.5) / x - series;
}
}  // namespace detail

// Signed numeric ops.
struct Neg : UnaryFormula {
  static constexpr const char* kName = "Neg";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    return detail::wrapping_negate(x);
  }
  static Tensor grad(const Tensor&, const Tensor&, const Tensor& dy) { return negative(dy); }
};
struct Abs : UnaryFormula {
  static constexpr const char* kName = "Abs";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fabs(x);  // |-0| is +0, as TensorFlow's
    } else {
      return x < 0 ? detail::wrapping_negate(x) : x;
    }
  }
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, sign(x));
  }
};
struct Sign : UnaryFormula {
  static constexpr const char* kName = "Sign";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return x;
    }
    return T((x > 0) - (x < 0));
  }
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor&) { return zeros_like(x); }
};
struct Square : UnaryFormula {
  static constexpr const char* kName = "Square";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    if constexpr (std::is_integral_v<T>) {
      return wrap<T>(Wide<T>(x) * Wide<T>(x));
    } else {
      return x * x;
    }
  }
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, multiply(x, 2));
  }
};
// max(x, 0) as TensorFlow computes it: NaN propagates, and -0 stays -0.
struct Relu : UnaryFormula {
  static constexpr const char* kName = "Relu";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    return x < T(0) ? T(0) : x;
  }
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) { return relu_grad(dy, y); }
};
// min(max(x, 0), 6) with NaN propagating; the gradient is 0 at exactly 0 and 6, as TF's.
struct Relu6 : UnaryFormula {
  static constexpr const char* kName = "Relu6";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T x) {
    return x < T(0) ? T(0) : (x > T(6) ? T(6) : x);
  }
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return where(logical_and(greater(x, 0), less(x, 6)), dy, zeros_like(dy));
  }
};

// Float math.
#define TFCC_FLOAT_FORMULA(Name, slow, expr)  \
  static constexpr const char* kName = #Name; \
  static constexpr bool kSlow = slow;         \
  template <typename T>                       \
  static T f(T x) {                           \
    return expr;                              \
  }
struct Exp : UnaryFormula {
  TFCC_FLOAT_FORMULA(Exp, true, std::exp(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) { return multiply(dy, y); }
};
struct Log : UnaryFormula {
  TFCC_FLOAT_FORMULA(Log, true, std::log(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) { return divide(dy, x); }
};
struct Log1p : UnaryFormula {
  TFCC_FLOAT_FORMULA(Log1p, true, std::log1p(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return divide(dy, add(x, 1));
  }
};
struct Expm1 : UnaryFormula {
  TFCC_FLOAT_FORMULA(Expm1, true, std::expm1(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return multiply(dy, add(y, 1));
  }
};
struct Sqrt : UnaryFormula {
  TFCC_FLOAT_FORMULA(Sqrt, false, std::sqrt(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return divide(multiply(dy, 0.5), y);
  }
};
struct Rsqrt : UnaryFormula {
  TFCC_FLOAT_FORMULA(Rsqrt, false, T(1) / std::sqrt(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return multiply(dy, multiply(multiply(y, square(y)), -0.5));
  }
};
struct Reciprocal : UnaryFormula {
  TFCC_FLOAT_FORMULA(Reciprocal, false, T(1) / x)
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return negative(multiply(dy, square(y)));
  }
};
struct Sin : UnaryFormula {
  TFCC_FLOAT_FORMULA(Sin, true, std::sin(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, cos(x));
  }
};
struct Cos : UnaryFormula {
  TFCC_FLOAT_FORMULA(Cos, true, std::cos(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return negative(multiply(dy, sin(x)));
  }
};
struct Tan : UnaryFormula {
  TFCC_FLOAT_FORMULA(Tan, true, std::tan(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return multiply(dy, add(square(y), 1));
  }
};
struct Tanh : UnaryFormula {
  TFCC_FLOAT_FORMULA(Tanh, true, std::tanh(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return multiply(dy, subtract(1, square(y)));
  }
};
struct Sigmoid : UnaryFormula {
  TFCC_FLOAT_FORMULA(Sigmoid, true, detail::stable_sigmoid(x))
  static Tensor grad(const Tensor&, const Tensor& y, const Tensor& dy) {
    return multiply(dy, multiply(y, subtract(1, y)));
  }
};
struct Erf : UnaryFormula {
  TFCC_FLOAT_FORMULA(Erf, true, std::erf(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, multiply(exp(negative(square(x))), 2 / std::sqrt(std::numbers::pi)));
  }
};
struct Floor : UnaryFormula {
  TFCC_FLOAT_FORMULA(Floor, false, std::floor(x))
};
struct Ceil : UnaryFormula {
  TFCC_FLOAT_FORMULA(Ceil, false, std::ceil(x))
};
struct Round : UnaryFormula {
  TFCC_FLOAT_FORMULA(Round, false, std::nearbyint(x))  // default rounding mode: half to even
};
struct Asin : UnaryFormula {
  TFCC_FLOAT_FORMULA(Asin, true, std::asin(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return divide(dy, sqrt(subtract(1, square(x))));
  }
};
struct Acos : UnaryFormula {
  TFCC_FLOAT_FORMULA(Acos, true, std::acos(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return negative(divide(dy, sqrt(subtract(1, square(x)))));
  }
};
struct Atan : UnaryFormula {
  TFCC_FLOAT_FORMULA(Atan, true, std::atan(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return divide(dy, add(square(x), 1));
  }
};
struct Sinh : UnaryFormula {
  TFCC_FLOAT_FORMULA(Sinh, true, std::sinh(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, cosh(x));
  }
};
struct Cosh : UnaryFormula {
  TFCC_FLOAT_FORMULA(Cosh, true, std::cosh(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, sinh(x));
  }
};
struct Lgamma : UnaryFormula {
  TFCC_FLOAT_FORMULA(Lgamma, true, detail::lgamma(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, digamma(x));
  }
};
struct Digamma : UnaryFormula {
  TFCC_FLOAT_FORMULA(Digamma, true, detail::digamma(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, polygamma(1, x));
  }
};
struct Erfc : UnaryFormula {
  TFCC_FLOAT_FORMULA(Erfc, true, std::erfc(x))
  static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
    return multiply(dy, multiply(exp(negative(square(x))), -2 / std::sqrt(std::numbers::pi)));
  }
};
#undef TFCC_FLOAT_FORMULA

// Integer ops.
struct Invert : UnaryFormula {
  static constexpr const char* kName = "Invert";
  static constexpr Types kTypes = Types::kInteger;
  template <typename T>
  static T f(T x) {
    return static_cast<T>(~x);
  }
};

/// Every unary formula. The order of the fusable ones is _FusedElementwise's opcode order.
using UnaryFormulas = List<Neg, Abs, Sign, Square, Relu, Exp, Log, Log1p, Expm1, Sqrt, Rsqrt,
                           Reciprocal, Sin, Cos, Tan, Tanh, Sigmoid, Erf, Floor, Ceil, Round, Relu6,
                           Asin, Acos, Atan, Sinh, Cosh, Lgamma, Digamma, Erfc, Invert>;

}  // namespace tfcc::formula
