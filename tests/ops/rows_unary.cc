// Conformance rows of the unary family (math primitives and activation composites).
#include <cmath>
#include <numbers>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

OpRow activation_row(std::string name, std::function<Tensor(const Tensor&)> fn,
                     std::function<double(double)> ref) {
  OpRow row = unary_row(std::move(name), "", kFloat, std::move(fn), std::move(ref),
                        {{"large magnitudes", {vec({-100, -30, 30, 100})}, {}}});
  row.ops.clear();                           // a composite: covers no registry op of its own
  row.invalid.back().message_contains = "";  // raised by an inner op
  return row;
}

double round_half_even(double x) { return std::nearbyint(x); }

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
  U("relu", "Relu", kSigned, relu, [](double x) { return x > 0 ? x : 0.0; });
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
  U("sin", "Sin", kFloat, sin, [](double x) { return std::sin(x); });
  U("cos", "Cos", kFloat, cos, [](double x) { return std::cos(x); });
  U("tan", "Tan", kFloat, tan, [](double x) { return std::tan(x); }).grad_domain = {-1, 1};
  U(
      "tanh", "Tanh", kFloat, tanh, [](double x) { return std::tanh(x); }, specials);
  U("sigmoid", "Sigmoid", kFloat, sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); },
    {{"saturating", {vec({-1000, -40, 40, 1000})}, {}}});
  U("erf", "Erf", kFloat, erf, [](double x) { return std::erf(x); });
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

  // Activation composites.
  rows.push_back(activation_row(
      "relu6", [](const Tensor& x) { return relu6(x); },
      [](double x) { return std::min(std::max(x, 0.0), 6.0); }));
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
