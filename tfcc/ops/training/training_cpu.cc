// Kernels of the fused optimizer updates. Each locks the variable and its slots, then updates
// them in one pass: in place when the variable alone holds its buffer (the usual optimizer step),
// otherwise copy-on-write, so a tensor read earlier keeps its value (buffers are immutable).
#include <cmath>
#include <mutex>

#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/training/training_internal.h"

namespace tfcc {
namespace {

VariableState& state(const KernelContext& ctx, std::string_view name) {
  return *ctx.attr<std::shared_ptr<VariableState>>(name);
}

// The variable's buffer, made private to the variable first if anything else holds it.
template <typename T>
T* writable(VariableState& v) {
  if (v.value.buffer().use_count() != 1) {
    v.value = Tensor::from_bytes(v.dtype, v.shape, v.value.raw_data(), v.value.nbytes());
  }
  return v.value.mutable_data<T>();
}

template <typename T>
T scalar(const KernelContext& ctx, int i) {
  return ctx.input(i).data<T>()[0];
}

void publish(KernelContext& ctx, const VariableState& var) {
  ctx.set_output(0, Tensor::with_buffer(var.dtype, var.shape, var.value.buffer()));
}

template <typename T>
void gradient_descent(KernelContext& ctx) {
  VariableState& var = state(ctx, "var");
  const T alpha = scalar<T>(ctx, 0);
  const T* g = ctx.input(1).data<T>();
  std::lock_guard<std::mutex> lock(var.mu);
  T* w = writable<T>(var);
  kernels::parallel_for(var.shape.num_elements(), [w, g, alpha](int64_t lo, int64_t hi) {
    T* __restrict pw = w;
    const T* __restrict pg = g;
    for (int64_t i = lo; i < hi; ++i) pw[i] -= alpha * pg[i];
  });
  publish(ctx, var);
}

template <typename T>
void keras_momentum(KernelContext& ctx) {
  VariableState& var = state(ctx, "var");
  VariableState& acc = state(ctx, "accum");
  const T lr = scalar<T>(ctx, 0), momentum = scalar<T>(ctx, 1);
  const T* g = ctx.input(2).data<T>();
  const bool nesterov = ctx.attr<bool>("use_nesterov");
  std::scoped_lock lock(var.mu, acc.mu);
  T* w = writable<T>(var);
  T* a = writable<T>(acc);
  // Scalars by value and restrict pointers: the loop vectorises (stores cannot alias them).
  kernels::parallel_for(var.shape.num_elements(), [=](int64_t lo, int64_t hi) {
    T* __restrict pw = w;
    T* __restrict pa = a;
    const T* __restrict pg = g;
    if (nesterov) {
      for (int64_t i = lo; i < hi; ++i) {
        pa[i] = pa[i] * momentum - lr * pg[i];
        pw[i] += pa[i] * momentum - lr * pg[i];
      }
    } else {
      for (int64_t i = lo; i < hi; ++i) {
        pa[i] = pa[i] * momentum - lr * pg[i];
        pw[i] += pa[i];
      }
    }
  });
  publish(ctx, var);
}

template <typename T>
void adam(KernelContext& ctx) {
  VariableState& var = state(ctx, "var");
  VariableState& ms = state(ctx, "m");
  VariableState& vs = state(ctx, "v");
  const T beta1_power = scalar<T>(ctx, 0), beta2_power = scalar<T>(ctx, 1);
  const T lr = scalar<T>(ctx, 2), beta1 = scalar<T>(ctx, 3), beta2 = scalar<T>(ctx, 4);
  const T epsilon = scalar<T>(ctx, 5);
  const T* g = ctx.input(6).data<T>();
  const bool nesterov = ctx.attr<bool>("use_nesterov");
  const T lr_t = lr * std::sqrt(T(1) - beta2_power) / (T(1) - beta1_power);
  std::scoped_lock lock(var.mu, ms.mu, vs.mu);
  T* w = writable<T>(var);
  T* m = writable<T>(ms);
  T* v = writable<T>(vs);
  // One pass over var, m, v and g (seven memory streams), vectorised: scalars by value,
  // restrict pointers, the nesterov choice outside the loop. The same arithmetic, in the same
  // order, as the scalar formulas.
  const T one_minus_beta1 = T(1) - beta1, one_minus_beta2 = T(1) - beta2;
  kernels::parallel_for(var.shape.num_elements(), [=](int64_t lo, int64_t hi) {
    T* __restrict pw = w;
    T* __restrict pm = m;
    T* __restrict pv = v;
    const T* __restrict pg = g;
    // Locals, not the closure's copies: a store through pw/pm/pv could alias those.
    const T b1 = beta1, c1 = one_minus_beta1, c2 = one_minus_beta2, rate = lr_t, eps = epsilon;
    auto run = [&]<bool kNesterov>() {
      for (int64_t i = lo; i < hi; ++i) {
        const T gi = pg[i];
        const T mi = pm[i] + (gi - pm[i]) * c1;
        const T vi = pv[i] + (gi * gi - pv[i]) * c2;
        pm[i] = mi;
        pv[i] = vi;
        const T step = kNesterov ? gi * c1 + b1 * mi : mi;
        pw[i] -= rate * step / (std::sqrt(vi) + eps);
      }
    };
    if (nesterov) {
      run.template operator()<true>();
    } else {
      run.template operator()<false>();
    }
  });
  publish(ctx, var);
}

}  // namespace

KernelFn training_cpu_kernel(const std::string& op, DType dtype) {
  const bool f64 = dtype == float64;
  if (op == "ResourceApplyGradientDescent")
    return f64 ? gradient_descent<double> : gradient_descent<float>;
  if (op == "ResourceApplyKerasMomentum")
    return f64 ? keras_momentum<double> : keras_momentum<float>;
  if (op == "ResourceApplyAdam") return f64 ? adam<double> : adam<float>;
  return nullptr;
}

}  // namespace tfcc
