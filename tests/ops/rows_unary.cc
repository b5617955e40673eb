// Conformance rows of the unary family (math primitives and activation composites).
#include <cmath>
#include <numbers>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

OpRow activation_row(std::string name, std::function<Tensor(const Tensor&)> fn,
                     std::function<double(double)> ref) {
  OpRow row = unary_row(std::move(name), "", kFloat, std::move(fn), std::move(ref),
                        {{"large magnitudes", {vec({-100, -30, 30, 100})}, {}},
                         {"specials", {vec({INFINITY, -INFINITY, NAN, 0.0, -0.0})}, {}}});
  row.ops.clear();                           // a composite: covers no registry op of its own
  row.invalid.back().message_contains = "";  // raised by an inner op
  return row;
}

double round_half_even(double x) { return std::nearbyint(x); }

// psi(x) by recurrence up to 20 and seven asymptotic terms (a different split from the kernel's),
// with TensorFlow's NaN at the poles and at -inf.
double digamma_ref(double x) {
  if (std::isnan(x) || x == INFINITY) return x;
  if (x <= 0 && x == std::floor(x)) return NAN;
  if (x < 0) return digamma_ref(1 - x) - std::numbers::pi / std::tan(std::numbers::pi * x);
  double acc = 0;
  for (; x < 20; x += 1) acc -= 1 / x;
  const double z = 1 / (x * x);
  const double b[] = {1.0 / 12,  -1.0 / 120,     1.0 / 252, -1.0 / 240,
                      1.0 / 132, -691.0 / 32760, 1.0 / 12};
  double series = 0, p = z;
  for (double c : b) {
    series += c * p;
    p *= z;
  }
  return acc + std::log(x) - 0.5 / x - series;
}

double log_sigmoid_ref(double x) {
  return x < 0 ? x - std::log1p(std::exp(x)) : -std::log1p(std::exp(-x));
}

}  // namespace

std::vector<OpRow> unary_rows() {
  std::vector<OpRow> rows;
  const std::vector<Case> specials = {
      {"specials", {vec({INFINITY, -INFINITY, NAN, 0.0, -0.0})}, kFloat}};
  auto U = [&](std::string name, std::string op, std::vector<DType> dtypes,
               Tensor (*fn)(const Tensor&, Loc), double (*ref)(double),
               std::vector<Case> extra = {}) -> OpRow& {
    rows.push_back(unary_row(
        name, op, dtypes, [fn = fn](const Tensor& x) { return fn(x, Loc::current()); }, ref,
        extra));
    return rows.back();
  };
  U(
      "negative", "Neg", kSigned, negative, [](double x) { return -x; }, specials);
  U(
      "abs", "Abs", kSigned, abs, [](double x) { return std::fabs(x); }, specials);
  U(
      "sign", "Sign", kSigned, sign,
      [](double x) { return std::isnan(x) ? x : double((x > 0) - (x < 0)); }, specials);
  U(
      "square", "Square", kSigned, square, [](double x) { return x * x; }, specials);
  // NaN propagates through relu and relu6 (TensorFlow's rule).
  U(
      "relu", "Relu", kSigned, relu, [](double x) { return std::isnan(x) || x > 0 ? x : 0.0; },
      specials);
  U("relu6", "Relu6", kSigned, relu6,
    [](double x) { return std::isnan(x) ? x : std::min(std::max(x, 0.0), 6.0); },
    {specials[0], {"beyond six", {vec({5.5, 6, 6.5, 100})}, {}}});
  U(
      "exp", "Exp", kFloat, exp, [](double x) { return std::exp(x); }, specials);
  std::vector<Case> positive = {{"positive", {vec({1e-6, 0.5, 1, 10, 1e6})}, {}}};
  U(
      "log", "Log", kFloat, log, [](double x) { return std::log(x); }, positive)
      .grad_domain = {0.5, 3};
  U("log1p", "Log1p", kFloat, log1p, [](double x) { return std::log1p(x); },
    {{"tiny", {vec({1e-10, -1e-10, 0.5})}, {}}})
      .grad_domain = {-0.5, 2};
  U("expm1", "Expm1", kFloat, expm1, [](double x) { return std::expm1(x); },
    {{"tiny", {vec({1e-10, -1e-10, 0.5})}, {}}});
  U(
      "sqrt", "Sqrt", kFloat, sqrt, [](double x) { return std::sqrt(x); }, positive)
      .grad_domain = {0.5, 3};
  U(
      "rsqrt", "Rsqrt", kFloat, rsqrt, [](double x) { return 1 / std::sqrt(x); }, positive)
      .grad_domain = {0.5, 3};
  U(
      "reciprocal", "Reciprocal", kFloat, reciprocal, [](double x) { return 1 / x; }, specials)
      .grad_domain = {0.5, 3};
  U(
      "sin", "Sin", kFloat, sin, [](double x) { return std::sin(x); }, specials);
  U(
      "cos", "Cos", kFloat, cos, [](double x) { return std::cos(x); }, specials);
  U(
      "tan", "Tan", kFloat, tan, [](double x) { return std::tan(x); }, specials)
      .grad_domain = {-1, 1};
  U(
      "tanh", "Tanh", kFloat, tanh, [](double x) { return std::tanh(x); }, specials);
  U("sigmoid", "Sigmoid", kFloat, sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); },
    {{"saturating", {vec({-1000, -40, 40, 1000})}, {}}, specials[0]});
  U(
      "erf", "Erf", kFloat, erf, [](double x) { return std::erf(x); }, specials);
  U("erfc", "Erfc", kFloat, erfc, [](double x) { return std::erfc(x); },
    {specials[0], {"tails", {vec({-6, 5, 10, 26})}, {}}});
  std::vector<Case> unit = {specials[0], {"unit interval", {vec({-1, -0.999, 0, 0.5, 1})}, {}}};
  U(
      "asin", "Asin", kFloat, asin, [](double x) { return std::asin(x); }, unit)
      .grad_domain = {-0.9, 0.9};
  U(
      "acos", "Acos", kFloat, acos, [](double x) { return std::acos(x); }, unit)
      .grad_domain = {-0.9, 0.9};
  U(
      "atan", "Atan", kFloat, atan, [](double x) { return std::atan(x); }, specials);
  U("sinh", "Sinh", kFloat, sinh, [](double x) { return std::sinh(x); },
    {specials[0], {"overflow", {vec({-1000, -20, 20, 1000})}, {}}});
  U("cosh", "Cosh", kFloat, cosh, [](double x) { return std::cosh(x); },
    {specials[0], {"overflow", {vec({-1000, -20, 20, 1000})}, {}}});
  std::vector<Case> gamma_cases = {
      specials[0],
      {"poles and halves", {vec({-3, -2, -1, -2.5, -0.5, 0.5, 1, 2, 1.4616321449683622})}, {}},
      {"large", {vec({30, 171.5, 1e10, 1e300})}, {}}};
  U(
      "lgamma", "Lgamma", kFloat, lgamma, [](double x) { return std::lgamma(x); }, gamma_cases)
      .grad_domain = {0.5, 3};
  {
    OpRow& row = U("digamma", "Digamma", kFloat, digamma, digamma_ref, gamma_cases);
    row.grad_domain = {0.5, 3};
    row.rtol64 = 1e-11;  // the series and the reference's split differ in the last digits
    row.atol64 = 1e-12;
    row.rtol32 = 1e-5;  // the float32 recurrence sums up to six rounded terms
    row.atol32 = 1e-5;
  }
  U(
      "floor", "Floor", kFloat, floor, [](double x) { return std::floor(x); }, specials);
  U(
      "ceil", "Ceil", kFloat, ceil, [](double x) { return std::ceil(x); }, specials);
  U("round", "Round", kFloat, round, round_half_even,
    {{"halves", {vec({0.5, 1.5, 2.5, -0.5, -1.5})}, {}}});

  // Predicates: float inputs, bool outputs.
  for (auto [name, op, fn, ref] :
       {std::tuple{"is_nan", "IsNan", &is_nan, +[](double x) { return double(std::isnan(x)); }},
        std::tuple{"is_finite", "IsFinite", &is_finite,
                   +[](double x) { return double(std::isfinite(x)); }}}) {
    OpRow row = unary_row(
        name, op, kFloat, [fn = fn](const Tensor& x) { return fn(x, Loc::current()); }, ref,
        specials);
    row.out_dtype = [](DType) { return bool_; };
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "logical_not";
    row.ops = {"LogicalNot"};
    row.dtypes = {bool_};
    row.cases = {{"vector", {vec({1, 0, 1})}, {}},
                 {"scalar", {scalar(0)}, {}},
                 {"empty", {shaped({0}, {})}, {}}};
    row.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{logical_not(in[0])}; };
    row.reference = [](const std::vector<Ref>& in, DType) {
      Ref out{in[0].shape, {}, {}};
      for (double v : in[0].values) out.values.push_back(v == 0 ? 1 : 0);
      return std::vector<Ref>{out};
    };
    row.invalid = {{"float input", [] { logical_not(constant({1.f})); },
                    ErrorCode::kInvalidArgument, "[Op:LogicalNot]"}};
    rows.push_back(std::move(row));
  }

  {
    // ~x: two's complement for signed dtypes, 255 - x for uint8.
    const std::vector<DType> integers = {int32, int64, uint8};
    OpRow row = unary_row(
        "bitwise_invert", "Invert", integers, [](const Tensor& x) { return bitwise_invert(x); },
        [](double x) { return -x - 1; },
        {{"extremes", {vec({0, 1, -1, 127, 2147483647, -2147483648.0})}, {int32, int64}},
         {"bytes", {vec({0, 1, 127, 128, 255})}, {uint8}}});
    row.reference = [](const std::vector<Ref>& in, DType t) {
      Ref out{in[0].shape, {}, std::nullopt};
      for (double v : in[0].values) out.values.push_back(t == uint8 ? 255 - v : -v - 1);
      return std::vector<Ref>{out};
    };
    row.grad_check = false;  // integers only
    row.invalid.push_back({"float input", [] { bitwise_invert(constant({1.f})); },
                           ErrorCode::kInvalidArgument, "[Op:Invert]"});
    rows.push_back(std::move(row));
  }

  // Activation composites.
  rows.push_back(activation_row(
      "log_sigmoid", [](const Tensor& x) { return log_sigmoid(x); }, log_sigmoid_ref));
  rows.push_back(activation_row(
      "leaky_relu", [](const Tensor& x) { return leaky_relu(x, 0.3); },
      [](double x) { return x > 0 ? x : 0.3 * x; }));
  {
    OpRow row;
    row.name = "relu_grad";
    row.ops = {"ReluGrad"};
    row.dtypes = kSigned;
    row.cases = {{"mixed signs", {vec({1, -2, 3, 0.5, 4}), vec({-1, 2, 0, 3, -0.25})}, {}},
                 {"matrix", {mat({{1, 2}, {3, 4}}), mat({{0.5, -0.5}, {-1, 1}})}, {}},
                 {"scalar", {scalar(2), scalar(1)}, {}},
                 {"empty", {shaped({0, 3}, {}), shaped({0, 3}, {})}, {}},
                 {"large", {filled({300, 257}, -2, 2, 3), filled({300, 257}, -2, 2, 4)}, {}}};
    row.fn = [](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{relu_grad(in[0], in[1])};
    };
    row.reference = [](const std::vector<Ref>& in, DType) {
      Ref out{in[0].shape, {}, {}};
      for (size_t i = 0; i < in[0].values.size(); ++i) {
        out.values.push_back(in[1].values[i] > 0 ? in[0].values[i] : 0.0);
      }
      return std::vector<Ref>{out};
    };
    row.second_order = true;
    row.invalid = {{"shapes differ",
                    [] {
                      relu_grad(constant({1.f, 2.f}), constant({1.f}));
                    },
                    ErrorCode::kInvalidArgument, "same shape"},
                   {"dtypes differ", [] { relu_grad(constant({1.f}), constant({1.0}, float64)); },
                    ErrorCode::kInvalidArgument, "[Op:ReluGrad]"},
                   {"bool", [] { relu_grad(constant({true}), constant({true})); },
                    ErrorCode::kInvalidArgument, "[Op:ReluGrad]"}};
    rows.push_back(std::move(row));
  }
  rows.push_back(activation_row(
      "elu", [](const Tensor& x) { return elu(x); },
      [](double x) { return x > 0 ? x : std::expm1(x); }));
  rows.push_back(activation_row(
      "selu", [](const Tensor& x) { return selu(x); },
      [](double x) {
        const double a = 1.6732632423543772848170429916717, s = 1.0507009873554804934193349852946;
        return s * (x > 0 ? x : a * std::expm1(x));
      }));
  rows.push_back(activation_row(
      "gelu", [](const Tensor& x) { return gelu(x); },
      [](double x) { return 0.5 * x * (1 + std::erf(x / std::numbers::sqrt2)); }));
  rows.push_back(activation_row(
      "gelu_approximate", [](const Tensor& x) { return gelu(x, true); },
      [](double x) {
        const double c = std::sqrt(2 / std::numbers::pi);
        return 0.5 * x * (1 + std::tanh(c * (x + 0.044715 * x * x * x)));
      }));
  rows.push_back(activation_row(
      "softplus", [](const Tensor& x) { return softplus(x); },
      [](double x) { return x > 30 ? x : std::log1p(std::exp(x)); }));
  rows.push_back(activation_row(
      "softsign", [](const Tensor& x) { return softsign(x); },
      [](double x) { return x / (1 + std::fabs(x)); }));
  rows.push_back(activation_row(
      "silu", [](const Tensor& x) { return silu(x); },
      [](double x) { return x / (1 + std::exp(-x)); }));
  return rows;
}

}  // namespace tfcc::conformance
