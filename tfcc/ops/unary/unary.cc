// Definitions of the unary family: signatures, gradient rules (written with ops), typed API,
// and the activation composites.
#include "tfcc/ops/unary/unary.h"

#include <cmath>
#include <numbers>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary_formulas.h"
#include "tfcc/ops/unary/unary_internal.h"

namespace tfcc {
namespace {

std::vector<OutputSpec> same_shape(const InferenceContext& c) { return {{c.dtype(0), c.shape(0)}}; }
std::vector<OutputSpec> bool_shape(const InferenceContext& c) { return {{bool_, c.shape(0)}}; }

using Rule = std::function<Tensor(const Tensor& x, const Tensor& y, const Tensor& dy)>;

GradFn rule(Rule r) {
  return [r](const GradContext& g) -> std::vector<Tensor> {
    return {r(g.inputs[0], g.outputs[0], g.grads[0])};
  };
}

OpDef& unary_op(OpRegistry& r, const std::string& name, const std::vector<DType>& types) {
  OpDef& op = r.add(name)
                  .input("x", "T")
                  .output("y", "T")
                  .type_attr("T", types)
                  .shape_fn(same_shape)
                  .cpu_kernels(unary_cpu_kernel);
  declare_in_place(op, 0, {0});  // unary_loop: y[i] = f(x[i])
  return op;
}

Tensor call_unary(const OpDef& op, const Tensor& x, Loc loc) {
  Tensor in[] = {x};
  return dispatch1(op, in, {}, loc);
}

template <typename... Ops>
void register_formulas(OpRegistry& r, formula::List<Ops...>) {
  auto one = [&r]<typename Op>() {
    OpDef& op = unary_op(r, Op::kName, formula::dtypes(Op::kTypes));
    if constexpr (requires { &Op::grad; }) {
      op.gradient(rule(&Op::grad));
    } else {
      op.not_differentiable();
    }
  };
  (one.template operator()<Ops>(), ...);
}

}  // namespace

void register_unary_ops(OpRegistry& r) {
  register_formulas(r, formula::UnaryFormulas{});
  r.add("ReluGrad")
      .input("gradients", "T")
      .input("features", "T")
      .output("backprops", "T")
      .type_attr("T", kSignedNumericTypes)
      .shape_fn([](const InferenceContext& c) -> std::vector<OutputSpec> {
        if (!c.shape(0).is_compatible_with(c.shape(1))) {
          c.fail(internal::str_cat("gradients and features must have the same shape: ",
                                   c.shape(0).to_string(), " vs. ", c.shape(1).to_string()));
        }
        return {{c.dtype(0), c.shape(0).merge_with(c.shape(1))}};
      })
      .cpu_kernels(unary_cpu_kernel)
      // Linear in `gradients`; piecewise constant in `features` (zero almost everywhere).
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {relu_grad(g.grads[0], g.inputs[1]), zeros_like(g.inputs[1])};
      });
  declare_in_place(*r.find("ReluGrad"), 0, {0, 1});
  for (const char* name : {"IsNan", "IsFinite"}) {
    r.add(name)
        .input("x", "T")
        .output("y", bool_)
        .type_attr("T", kFloatTypes)
        .shape_fn(bool_shape)
        .cpu_kernels(unary_cpu_kernel)
        .not_differentiable();
  }
  r.add("LogicalNot")
      .input("x", bool_)
      .output("y", bool_)
      .shape_fn(bool_shape)
      .cpu_kernels(unary_cpu_kernel)
      .not_differentiable();
}

#define TFCC_UNARY_API(fn, op_name)           \
  Tensor fn(const Tensor& x, Loc loc) {       \
    static const OpDef& op = op_def(op_name); \
    return call_unary(op, x, loc);            \
  }
TFCC_UNARY_API(negative, "Neg")
TFCC_UNARY_API(abs, "Abs")
TFCC_UNARY_API(sign, "Sign")
TFCC_UNARY_API(exp, "Exp")
TFCC_UNARY_API(log, "Log")
TFCC_UNARY_API(log1p, "Log1p")
TFCC_UNARY_API(expm1, "Expm1")
TFCC_UNARY_API(sqrt, "Sqrt")
TFCC_UNARY_API(rsqrt, "Rsqrt")
TFCC_UNARY_API(square, "Square")
TFCC_UNARY_API(reciprocal, "Reciprocal")
TFCC_UNARY_API(sin, "Sin")
TFCC_UNARY_API(cos, "Cos")
TFCC_UNARY_API(tan, "Tan")
TFCC_UNARY_API(tanh, "Tanh")
TFCC_UNARY_API(sigmoid, "Sigmoid")
TFCC_UNARY_API(erf, "Erf")
TFCC_UNARY_API(floor, "Floor")
TFCC_UNARY_API(ceil, "Ceil")
TFCC_UNARY_API(round, "Round")
TFCC_UNARY_API(logical_not, "LogicalNot")
TFCC_UNARY_API(is_nan, "IsNan")
TFCC_UNARY_API(is_finite, "IsFinite")
TFCC_UNARY_API(relu, "Relu")
TFCC_UNARY_API(relu6, "Relu6")
TFCC_UNARY_API(asin, "Asin")
TFCC_UNARY_API(acos, "Acos")
TFCC_UNARY_API(atan, "Atan")
TFCC_UNARY_API(sinh, "Sinh")
TFCC_UNARY_API(cosh, "Cosh")
TFCC_UNARY_API(lgamma, "Lgamma")
TFCC_UNARY_API(digamma, "Digamma")
TFCC_UNARY_API(erfc, "Erfc")
TFCC_UNARY_API(bitwise_invert, "Invert")
#undef TFCC_UNARY_API

Tensor relu_grad(const Tensor& gradients, const Tensor& features, Loc loc) {
  static const OpDef& op = op_def("ReluGrad");
  Tensor in[] = {gradients, features};
  return dispatch1(op, in, {}, loc);
}

// Activations as composites. Where a branch could overflow (exp of a large x), its input is
// clamped first, so the unselected branch never produces inf * 0 = NaN in the gradient.
Tensor log_sigmoid(const Tensor& x, Loc loc) {
  // log(1 / (1 + e^-x)) = -softplus(-x): no overflow for large |x|.
  return negative(softplus(negative(x, loc), loc), loc);
}

Tensor leaky_relu(const Tensor& x, double alpha, Loc loc) {
  return where(greater(x, 0, loc), x, multiply(x, alpha, loc), loc);
}

Tensor elu(const Tensor& x, Loc loc) {
  return where(greater(x, 0, loc), x, expm1(minimum(x, 0, loc), loc), loc);
}

Tensor selu(const Tensor& x, Loc loc) {
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  Tensor neg = multiply(expm1(minimum(x, 0, loc), loc), kAlpha, loc);
  return multiply(where(greater(x, 0, loc), x, neg, loc), kScale, loc);
}

Tensor gelu(const Tensor& x, bool approximate, Loc loc) {
  if (approximate) {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    const double c = std::sqrt(2.0 / std::numbers::pi);
    Tensor inner = multiply(add(x, multiply(pow(x, 3, loc), 0.044715, loc), loc), c, loc);
    return multiply(multiply(x, 0.5, loc), add(tanh(inner, loc), 1, loc), loc);
  }
  Tensor cdf = add(erf(multiply(x, 1 / std::numbers::sqrt2, loc), loc), 1, loc);
  return multiply(multiply(x, 0.5, loc), cdf, loc);
}

Tensor softplus(const Tensor& x, Loc loc) {
  // log(1 + e^x) = max(x, 0) + log1p(e^-|x|): no overflow for large |x|.
  return add(relu(x, loc), log1p(exp(negative(abs(x, loc), loc), loc), loc), loc);
}

Tensor softsign(const Tensor& x, Loc loc) { return divide(x, add(abs(x, loc), 1, loc), loc); }

Tensor silu(const Tensor& x, Loc loc) { return multiply(x, sigmoid(x, loc), loc); }

}  // namespace tfcc
