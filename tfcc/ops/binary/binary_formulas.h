// The binary element-wise arithmetic ops, one struct each (tfcc/ops/formula.h): name, dtypes, the
// formula `f(x, y)` that the eager broadcasting kernel (binary_cpu.cc) and _FusedElementwise both
// instantiate, an input check run before the loop, and the gradient rule (absent: not
// differentiable). Integer arithmetic wraps, as TensorFlow's does. Adding an op: a struct here,
// its name in BinaryFormulas, the API function (binary.h / binary.cc) and its conformance row.
#pragma once

#include <cmath>
#include <limits>
#include <numbers>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/formula.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/ops/unary/unary_formulas.h"

namespace tfcc::formula {

/// What the kernel checks in the second input before the loop (integer dtypes only).
enum class Check { kNone, kNonzeroDivisor, kNonnegativeExponent };

/// Defaults of a binary formula: every numeric dtype, no check, fusable (for its float dtypes).
struct BinaryFormula {
  static constexpr Types kTypes = Types::kNumeric;
  static constexpr Check kCheck = Check::kNone;
  static constexpr bool kFusable = true;
};

/// The gradients of a broadcasting op, each summed back to its input's shape.
inline std::vector<Tensor> reduce_pair(const GradContext& g, const Tensor& gx, const Tensor& gy) {
  return {gx.defined() ? sum_to_shape_of(gx, g.inputs[0], g.inputs[1]) : Tensor(),
          gy.defined() ? sum_to_shape_of(gy, g.inputs[1], g.inputs[0]) : Tensor()};
}

namespace detail {
template <typename T>
T nan_max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;  // NaN propagates
  }
  return a > b ? a : b;
}
template <typename T>
T nan_min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
  }
  return a < b ? a : b;
}
// The shift amount clamped to [0, bits - 1], as TensorFlow's LeftShift / RightShift.
template <typename T>
int shift_amount(T b) {
  constexpr T bits = static_cast<T>(8 * sizeof(T) - 1);
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return 0;
  }
  return static_cast<int>(b > bits ? bits : b);
}
// The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s by Euler-Maclaurin summation: ten
// terms, then the integral and the Bernoulli correction terms B_2j / (2j)! (s)_(2j-1) w^(1-s-2j).
template <typename T>
T zeta(T s, T q) {
  if (s == T(1)) return T(INFINITY);
  if (s < T(1) || std::isnan(s) || std::isnan(q)) return T(NAN);
  if (q <= T(0)) {
    // At the poles: +inf for an even integer s, NaN otherwise (TensorFlow's rule).
    if (q == std::floor(q))
      return s == std::floor(s) && std::fmod(s, T(2)) == T(0) ? T(INFINITY) : T(NAN);
    if (s != std::floor(s)) return T(NAN);  // (q + k)^-s is complex
  }
  // Below zero the sum is shifted up term by term; far below, NaN bounds the work (a
  // documented difference from TensorFlow).
  if (q < T(-1000)) return T(NAN);
  T sum = 0;
  T w = q;
  for (; w < T(10); w += T(1)) sum += std::pow(w, -s);
  static constexpr double kInvBernoulli[] = {12.0,
                                             -720.0,
                                             30240.0,
                                             -1209600.0,
                                             47900160.0,
                                             -1.8924375803183791606e9,
                                             7.47242496e10,
                                             -2.950130727918164224e12,
                                             1.1646782814350067249e14,
                                             -4.5979787224074726105e15,
                                             1.8152105401943546773e17,
                                             -7.1661652561756670113e18};
  sum += std::pow(w, T(1) - s) / (s - T(1)) + T(0.5) * std::pow(w, -s);
  T rising = s;                   // s (s + 1) ... (s + 2j - 2)
  T power = std::pow(w, -s - 1);  // w^(-s - 2j + 1)
  for (int j = 0; j < 12; ++j) {
    const T term = rising * power / T(kInvBernoulli[j]);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * std::numeric_limits<T>::epsilon()) break;
    rising *= (s + T(2 * j + 1)) * (s + T(2 * j + 2));
    power /= w * w;
  }
  return sum;
}
}  // namespace detail

struct AddV2 : BinaryFormula {
  static constexpr const char* kName = "AddV2";
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) return wrap<T>(Wide<T>(a) + Wide<T>(b));
    return a + b;
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    return reduce_pair(g, g.grads[0], g.grads[0]);
  }
};
struct Sub : BinaryFormula {
  static constexpr const char* kName = "Sub";
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) return wrap<T>(Wide<T>(a) - Wide<T>(b));
    return a - b;
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    return reduce_pair(g, g.grads[0], negative(g.grads[0]));
  }
};
struct Mul : BinaryFormula {
  static constexpr const char* kName = "Mul";
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) return wrap<T>(Wide<T>(a) * Wide<T>(b));
    return a * b;
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    return reduce_pair(g, multiply(g.grads[0], g.inputs[1]), multiply(g.grads[0], g.inputs[0]));
  }
};
struct RealDiv : BinaryFormula {
  static constexpr const char* kName = "RealDiv";
  static constexpr Types kTypes = Types::kFloat;
  template <typename T>
  static T f(T a, T b) {
    return a / b;
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &x = g.inputs[0], &y = g.inputs[1], &dz = g.grads[0];
    return reduce_pair(g, divide(dz, y), negative(multiply(dz, divide(divide(x, y), y))));
  }
};
struct Maximum : BinaryFormula {
  static constexpr const char* kName = "Maximum";
  template <typename T>
  static T f(T a, T b) {
    return detail::nan_max(a, b);
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    Tensor pick_x = greater_equal(g.inputs[0], g.inputs[1]);
    Tensor zero = zeros_like(g.grads[0]);
    return reduce_pair(g, where(pick_x, g.grads[0], zero), where(pick_x, zero, g.grads[0]));
  }
};
struct Minimum : BinaryFormula {
  static constexpr const char* kName = "Minimum";
  template <typename T>
  static T f(T a, T b) {
    return detail::nan_min(a, b);
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    Tensor pick_x = less_equal(g.inputs[0], g.inputs[1]);
    Tensor zero = zeros_like(g.grads[0]);
    return reduce_pair(g, where(pick_x, g.grads[0], zero), where(pick_x, zero, g.grads[0]));
  }
};
struct SquaredDifference : BinaryFormula {
  static constexpr const char* kName = "SquaredDifference";
  static constexpr Types kTypes = Types::kSigned;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      Wide<T> d = Wide<T>(a) - Wide<T>(b);
      return wrap<T>(d * d);
    } else {
      T d = a - b;
      return d * d;
    }
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    Tensor d = multiply(g.grads[0], multiply(subtract(g.inputs[0], g.inputs[1]), 2));
    return reduce_pair(g, d, negative(d));
  }
};
struct Pow : BinaryFormula {
  static constexpr const char* kName = "Pow";
  static constexpr Types kTypes = Types::kSigned;
  static constexpr Check kCheck = Check::kNonnegativeExponent;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::pow(a, b);
    } else {
      // Exponentiation by squaring in wrapping arithmetic; negative b was rejected before.
      Wide<T> result = 1, base = Wide<T>(a);
      for (uint64_t e = static_cast<uint64_t>(b); e; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return wrap<T>(result);
    }
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &x = g.inputs[0], &y = g.inputs[1], &z = g.outputs[0], &dz = g.grads[0];
    // d/dx = y * x^(y-1); d/dy = z * log(x), defined as 0 where x <= 0 (TensorFlow's choice).
    Tensor gx = multiply(dz, multiply(y, pow(x, subtract(y, 1))));
    Tensor safe_log = where(greater(x, 0), log(where(greater(x, 0), x, 1)), 0);
    return reduce_pair(g, gx, multiply(dz, multiply(z, safe_log)));
  }
};
// Integer floor division; b == 0 was rejected before the loop, and INT_MIN / -1 wraps.
struct FloorDiv : BinaryFormula {
  static constexpr const char* kName = "FloorDiv";
  static constexpr Check kCheck = Check::kNonzeroDivisor;
  static constexpr bool kFusable = false;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::floor(a / b);
    } else if constexpr (std::is_unsigned_v<T>) {
      return a / b;
    } else {
      if (b == -1) return wrap<T>(Wide<T>(0) - Wide<T>(a));
      T q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    }
  }
};
struct FloorMod : BinaryFormula {
  static constexpr const char* kName = "FloorMod";
  static constexpr Check kCheck = Check::kNonzeroDivisor;
  static constexpr bool kFusable = false;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    } else if constexpr (std::is_unsigned_v<T>) {
      return a % b;
    } else {
      if (b == -1) return 0;
      T r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &x = g.inputs[0], &y = g.inputs[1], &dz = g.grads[0];
    return reduce_pair(g, dz, negative(multiply(dz, floordiv(x, y))));
  }
};
// Division rounding toward zero (C's); b == 0 was rejected for integers, INT_MIN / -1 wraps.
// Not differentiable, as in TensorFlow.
struct TruncateDiv : BinaryFormula {
  static constexpr const char* kName = "TruncateDiv";
  static constexpr Check kCheck = Check::kNonzeroDivisor;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::trunc(a / b);
    } else if constexpr (std::is_unsigned_v<T>) {
      return a / b;
    } else {
      return b == -1 ? wrap<T>(Wide<T>(0) - Wide<T>(a)) : a / b;
    }
  }
};
// The remainder with the sign of a (C's %, fmod).
struct TruncateMod : BinaryFormula {
  static constexpr const char* kName = "TruncateMod";
  static constexpr Check kCheck = Check::kNonzeroDivisor;
  template <typename T>
  static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmod(a, b);
    } else if constexpr (std::is_unsigned_v<T>) {
      return a % b;
    } else {
      return b == -1 ? T(0) : a % b;
    }
  }
  // x - truncate(x / y) * y: 1 for x, -truncate(x / y) for y (TensorFlow registers none).
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &x = g.inputs[0], &y = g.inputs[1], &dz = g.grads[0];
    return reduce_pair(g, dz, negative(multiply(dz, truncatediv(x, y))));
  }
};
// atan2(y, x): the angle of the point (x, y); inputs in TensorFlow's order (y first).
struct Atan2 : BinaryFormula {
  static constexpr const char* kName = "Atan2";
  static constexpr Types kTypes = Types::kFloat;
  template <typename T>
  static T f(T y, T x) {
    return std::atan2(y, x);
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &y = g.inputs[0], &x = g.inputs[1];
    Tensor scale = divide(g.grads[0], add(square(x), square(y)));
    return reduce_pair(g, multiply(x, scale), negative(multiply(y, scale)));
  }
};
// x * log(y), 0 where x == 0 whatever y is (TF's Xlogy). A NaN x is returned as it is: x times
// the NaN of log(negative y) would keep either NaN's sign bit, whichever operand the compiler
// puts first, so the eager kernel and _FusedElementwise could differ bit for bit.
struct Xlogy : BinaryFormula {
  static constexpr const char* kName = "Xlogy";
  static constexpr Types kTypes = Types::kFloat;
  template <typename T>
  static T f(T x, T y) {
    if (x == T(0) || x != x) return x == T(0) ? T(0) : x;
    return x * std::log(y);
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &x = g.inputs[0], &y = g.inputs[1], &dz = g.grads[0];
    Tensor x_zero = equal(x, 0);
    Tensor gx = multiply(dz, xlogy(cast(logical_not(x_zero), x.dtype()), y));
    Tensor gy = multiply(dz, where(x_zero, zeros_like(x), divide(x, y)));
    return reduce_pair(g, gx, gy);
  }
};
// The n-th derivative of digamma, (-1)^(n+1) n! zeta(n + 1, x); n = 0 is digamma. NaN for a
// negative or fractional n, as TensorFlow's. Differentiable in x only.
struct Polygamma : BinaryFormula {
  static constexpr const char* kName = "Polygamma";
  static constexpr Types kTypes = Types::kFloat;
  static constexpr bool kFusable = false;
  template <typename T>
  static T f(T n, T x) {
    if (std::isnan(n) || n < T(0) || n != std::floor(n)) return T(NAN);
    if (n == T(0)) return detail::digamma(x);
    const T factorial = std::exp(detail::lgamma(n + T(1)));
    return (std::fmod(n, T(2)) == T(0) ? T(-1) : T(1)) * factorial * detail::zeta(n + T(1), x);
  }
  static std::vector<Tensor> grad(const GradContext& g) {
    const Tensor &n = g.inputs[0], &x = g.inputs[1];
    return reduce_pair(g, Tensor(), multiply(g.grads[0], polygamma(add(n, 1), x)));
  }
};

// Bitwise integer ops (not differentiable). Shift amounts are clamped to [0, bits - 1].
#define TFCC_BITWISE_FORMULA(Name, expr)           \
  static constexpr const char* kName = #Name;      \
  static constexpr Types kTypes = Types::kInteger; \
  template <typename T>                            \
  static T f(T a, T b) {                           \
    return static_cast<T>(expr);                   \
  }
struct BitwiseAnd : BinaryFormula {
  TFCC_BITWISE_FORMULA(BitwiseAnd, a& b)
};
struct BitwiseOr : BinaryFormula {
  TFCC_BITWISE_FORMULA(BitwiseOr, a | b)
};
struct BitwiseXor : BinaryFormula {
  TFCC_BITWISE_FORMULA(BitwiseXor, a ^ b)
};
struct LeftShift : BinaryFormula {
  TFCC_BITWISE_FORMULA(LeftShift, Wide<T>(a) << detail::shift_amount(b))
};
struct RightShift : BinaryFormula {
  TFCC_BITWISE_FORMULA(RightShift, a >> detail::shift_amount(b))
};
#undef TFCC_BITWISE_FORMULA

/// Every binary formula. The order of the fusable ones is _FusedElementwise's opcode order.
using BinaryFormulas = List<AddV2, Sub, Mul, RealDiv, Maximum, Minimum, SquaredDifference, Pow,
                            FloorDiv, FloorMod, TruncateDiv, TruncateMod, Atan2, Xlogy, Polygamma,
                            BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift>;

}  // namespace tfcc::formula
