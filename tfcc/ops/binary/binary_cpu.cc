// CPU kernels of the binary family. One generic broadcasting loop; ops differ by functor.
// Integer arithmetic wraps (computed in unsigned), as TensorFlow's does, instead of hitting
// signed-overflow undefined behaviour.
#include <cmath>
#include <type_traits>

#include "tfcc/ops/binary/binary_internal.h"
#include "tfcc/ops/kernel_util.h"

namespace tfcc {
namespace {

using kernels::parallel_for;

template <typename T>
using Wide = std::conditional_t<
    std::is_integral_v<T> && !std::is_same_v<T, bool>,
    std::make_unsigned_t<std::conditional_t<std::is_same_v<T, uint8_t>, uint32_t, T>>, T>;

template <typename T>
T wrap(Wide<T> v) {
  return static_cast<T>(v);
}

struct AddF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>)
      return wrap<T>(Wide<T>(a) + Wide<T>(b));
    else
      return a + b;
  }
};
struct SubF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>)
      return wrap<T>(Wide<T>(a) - Wide<T>(b));
    else
      return a - b;
  }
};
struct MulF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>)
      return wrap<T>(Wide<T>(a) * Wide<T>(b));
    else
      return a * b;
  }
};
struct DivF {
  template <typename T>
  T operator()(T a, T b) const {
    return a / b;
  }
};
// Integer floor division; b == 0 was rejected before the loop, and INT_MIN / -1 wraps.
struct FloorDivF {
  template <typename T>
  T operator()(T a, T b) const {
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
struct FloorModF {
  template <typename T>
  T operator()(T a, T b) const {
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
};
struct PowF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::pow(a, b);
    } else {
      // Exponentiation by squaring in wrapping arithmetic; negative b was rejected before.
      Wide<T> result = 1, base = Wide<T>(a);
      uint64_t e = static_cast<uint64_t>(b);
      while (e) {
        if (e & 1) result *= base;
        base *= base;
        e >>= 1;
      }
      return wrap<T>(result);
    }
  }
};
struct MaxF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return a + b;  // NaN propagates
    }
    return a > b ? a : b;
  }
};
struct MinF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return a + b;
    }
    return a < b ? a : b;
  }
};
struct SqDiffF {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      Wide<T> d = Wide<T>(a) - Wide<T>(b);
      return wrap<T>(d * d);
    } else {
      T d = a - b;
      return d * d;
    }
  }
};
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
  if constexpr (std::is_integral_v<T>) {
    const Tensor& b = ctx.input(1);
    const T* pb = b.data<T>();
    for (int64_t i = 0; i < b.num_elements(); ++i) {
      if (pb[i] == 0) ctx.fail("Integer division by zero");
    }
  }
}

template <typename T>
void check_nonnegative_exponent(KernelContext& ctx) {
  if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) {
    const Tensor& b = ctx.input(1);
    const T* pb = b.data<T>();
    for (int64_t i = 0; i < b.num_elements(); ++i) {
      if (pb[i] < 0) ctx.fail("Integers to negative integer powers are not allowed");
    }
  }
}

template <typename T>
KernelFn arithmetic_kernel(const std::string& op) {
  if (op == "AddV2") return [](KernelContext& c) { binary_loop<T, T>(c, AddF{}); };
  if (op == "Sub") return [](KernelContext& c) { binary_loop<T, T>(c, SubF{}); };
  if (op == "Mul") return [](KernelContext& c) { binary_loop<T, T>(c, MulF{}); };
  if (op == "Maximum") return [](KernelContext& c) { binary_loop<T, T>(c, MaxF{}); };
  if (op == "Minimum") return [](KernelContext& c) { binary_loop<T, T>(c, MinF{}); };
  if (op == "SquaredDifference") return [](KernelContext& c) { binary_loop<T, T>(c, SqDiffF{}); };
  if (op == "Pow") {
    return [](KernelContext& c) {
      check_nonnegative_exponent<T>(c);
      binary_loop<T, T>(c, PowF{});
    };
  }
  if (op == "FloorDiv") {
    return [](KernelContext& c) {
      check_nonzero_divisor<T>(c);
      binary_loop<T, T>(c, FloorDivF{});
    };
  }
  if (op == "FloorMod") {
    return [](KernelContext& c) {
      check_nonzero_divisor<T>(c);
      binary_loop<T, T>(c, FloorModF{});
    };
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (op == "RealDiv") return [](KernelContext& c) { binary_loop<T, T>(c, DivF{}); };
  }
  return nullptr;
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
  if (op == "LogicalAnd") return [](KernelContext& c) { binary_loop<bool, bool>(c, AndF{}); };
  if (op == "LogicalOr") return [](KernelContext& c) { binary_loop<bool, bool>(c, OrF{}); };
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_same_v<T, BFloat16>) {
      return nullptr;
    } else {
      KernelFn k = comparison_kernel<T>(op);
      if (k) return k;
      if constexpr (!std::is_same_v<T, bool>) return arithmetic_kernel<T>(op);
      return nullptr;
    }
  });
}

}  // namespace tfcc
