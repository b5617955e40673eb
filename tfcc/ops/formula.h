// Element-wise formulas defined once. Each element-wise op of the unary and binary families is one
// struct (tfcc/ops/unary/unary_formulas.h, tfcc/ops/binary/binary_formulas.h) holding its registry
// name, its dtypes, the per-element formula `f` and its gradient rule. The eager kernels, the
// registration and the fused element-wise kernel (_FusedElementwise) all instantiate that struct,
// so adding an element-wise op is one struct and one entry in its family's list.
//
//   struct Sinh : UnaryFormula {
//     static constexpr const char* kName = "Sinh";
//     static constexpr bool kSlow = true;                 // a polynomial: parallel sooner
//     template <typename T>
//     static T f(T x) { return std::sinh(x); }
//     static Tensor grad(const Tensor& x, const Tensor&, const Tensor& dy) {
//       return multiply(dy, cosh(x));
//     }
//   };
//
// Kernels that instantiate formulas are compiled with -ffp-contract=off (tfcc/ops/CMakeLists.txt),
// so a formula of several operations rounds identically in the eager and the fused kernel.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tfcc/core/dtype.h"
#include "tfcc/ops/op_def.h"

namespace tfcc::formula {

/// The dtypes an element-wise op accepts.
enum class Types { kFloat, kSigned, kNumeric, kInteger };

/// The registry's dtype list for `t`.
inline const std::vector<DType>& dtypes(Types t) {
  static const std::vector<DType> integers = {int32, int64, uint8};
  switch (t) {
    case Types::kFloat:
      return kFloatTypes;
    case Types::kSigned:
      return kSignedNumericTypes;
    case Types::kNumeric:
      return kNumericTypes;
    case Types::kInteger:
      break;
  }
  return integers;
}

/// True if C++ type T is one of the dtypes of `t` (bool and bfloat16 never are).
template <typename T>
constexpr bool accepts(Types t) {
  if constexpr (std::is_same_v<T, bool> || !std::is_arithmetic_v<T>) {
    return false;
  } else {
    switch (t) {
      case Types::kFloat:
        return std::is_floating_point_v<T>;
      case Types::kSigned:
        return std::is_floating_point_v<T> || std::is_signed_v<T>;
      case Types::kNumeric:
        return true;
      case Types::kInteger:
        return std::is_integral_v<T>;
    }
    return false;
  }
}

/// A compile-time list of formula structs.
template <typename... Ops>
struct List {
  static constexpr int64_t size = sizeof...(Ops);
};

/// Pred<Op>::value: keeps the structs of a List for which Pred holds.
template <template <typename> class Pred, typename L>
struct Filter;
template <template <typename> class Pred>
struct Filter<Pred, List<>> {
  using type = List<>;
};
template <template <typename> class Pred, typename H, typename... R>
struct Filter<Pred, List<H, R...>> {
  template <typename L>
  struct Prepend;
  template <typename... Xs>
  struct Prepend<List<Xs...>> {
    using type = List<H, Xs...>;
  };
  using rest = typename Filter<Pred, List<R...>>::type;
  using type = std::conditional_t<Pred<H>::value, typename Prepend<rest>::type, rest>;
};

/// Integer arithmetic wraps as TensorFlow's does: computed in an unsigned type at least as wide
/// as int, never hitting signed-overflow undefined behaviour.
template <typename T>
using Wide = std::conditional_t<
    std::is_integral_v<T> && !std::is_same_v<T, bool>,
    std::make_unsigned_t<std::conditional_t<std::is_same_v<T, uint8_t>, uint32_t, T>>, T>;

/// The wrapped result of a Wide computation.
template <typename T>
T wrap(Wide<T> v) {
  return static_cast<T>(v);
}

}  // namespace tfcc::formula
