// Conformance rows of the binary family.
#include <cmath>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

using BinaryApi = Tensor (*)(const Operand&, const Operand&, Loc);

std::function<Tensor(const Tensor&, const Tensor&)> api(BinaryApi f) {
  return [f](const Tensor& x, const Tensor& y) { return f(x, y, Loc::current()); };
}

double floordiv_ref(double x, double y) { return std::floor(x / y); }
double floormod_ref(double x, double y) {
  double r = std::fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
double nan_max(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); }
double nan_min(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y); }

// Divisors without zeros, for the integer division ops.
std::vector<Case> nonzero_divisor_cases() {
  return {{"same shape", {vec({-7, -1, 0, 7, 9, 100}), vec({2, -3, 5, -2, 3, 7})}, {}},
          {"broadcast", {filled({3, 4}, -50, 50, 11), vec({3, -4, 5, 7})}, {}},
          {"scalar divisor", {vec({-5, 5, 6}), scalar(-2)}, {}}};
}

OpRow comparison_row(std::string name, std::string op, BinaryApi f, double (*ref)(double, double),
                     std::vector<DType> dtypes) {
  OpRow row = binary_row(name, op, dtypes, api(f), ref,
                         {{"nan", {vec({NAN, 1, NAN}), vec({NAN, NAN, 1})}, kFloat}});
  row.out_dtype = [](DType) { return bool_; };
  return row;
}

}  // namespace

std::vector<OpRow> binary_rows() {
  std::vector<OpRow> rows;
  const std::vector<Case> specials = {
      {"specials",
       {vec({INFINITY, -INFINITY, NAN, 0, 1}), vec({1, INFINITY, 2, -0.0, NAN})},
       kFloat}};
  rows.push_back(binary_row(
      "add", "AddV2", kNumeric, api(add), [](double x, double y) { return x + y; }, specials));
  rows.push_back(binary_row(
      "subtract", "Sub", kNumeric, api(subtract), [](double x, double y) { return x - y; },
      specials));
  rows.push_back(binary_row(
      "multiply", "Mul", kNumeric, api(multiply), [](double x, double y) { return x * y; },
      specials));
  {
    OpRow row = binary_row(
        "divide", "RealDiv", kSigned, api(divide), [](double x, double y) { return x / y; },
        specials);
    row.grad_domain = {0.5, 3};
    // Integer inputs divide as float64 (truediv); integer zero divisors give inf, as in TF.
    row.out_dtype = [](DType t) { return is_integer(t) ? float64 : t; };
    rows.push_back(std::move(row));
  }
  {
    OpRow row = binary_row("floordiv", "FloorDiv", kSigned, api(floordiv), floordiv_ref,
                           nonzero_divisor_cases());
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);  // generic cases hold 0 divisors
    row.invalid.push_back({"integer division by zero",
                           [] {
                             floordiv(constant({1, 2}), constant({1, 0}));
                           },
                           ErrorCode::kInvalidArgument, "Integer division by zero"});
    rows.push_back(std::move(row));
  }
  {
    OpRow row = binary_row("floormod", "FloorMod", kSigned, api(floormod), floormod_ref,
                           nonzero_divisor_cases());
    row.grad_domain = {0.5, 3};
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);
    row.invalid.push_back({"integer modulo by zero",
                           [] {
                             floormod(constant({1, 2}), 0);
                           },
                           ErrorCode::kInvalidArgument, "Integer division by zero"});
    rows.push_back(std::move(row));
  }
  {
    std::vector<Case> pow_cases = {
        {"int powers", {vec({-3, -2, 0, 1, 2, 3}), vec({0, 1, 2, 3, 4, 5})}, {}},
        {"fractional", {vec({0.5, 2, 9, 0}), vec({0.5, -1, 0.5, 0})}, kFloat},
        {"broadcast", {filled({3, 4}, 0.1, 3, 12), vec({0, 1, 2, 3})}, {}}};
    OpRow row = binary_row(
        "pow", "Pow", kSigned, api(pow), [](double x, double y) { return std::pow(x, y); },
        pow_cases);
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);
    row.grad_domain = {0.5, 2};
    row.invalid.push_back({"negative integer power",
                           [] {
                             pow(constant({2, 3}), -1);
                           },
                           ErrorCode::kInvalidArgument, "negative integer powers"});
    rows.push_back(std::move(row));
  }
  rows.push_back(binary_row("maximum", "Maximum", kNumeric, api(maximum), nan_max, specials));
  rows.push_back(binary_row("minimum", "Minimum", kNumeric, api(minimum), nan_min, specials));
  rows.push_back(binary_row("squared_difference", "SquaredDifference", kSigned,
                            api(squared_difference),
                            [](double x, double y) { return (x - y) * (x - y); }));

  rows.push_back(comparison_row(
      "equal", "Equal", equal, [](double x, double y) { return double(x == y); }, kNumeric));
  rows.push_back(comparison_row(
      "not_equal", "NotEqual", not_equal, [](double x, double y) { return double(x != y); },
      kNumeric));
  rows.push_back(comparison_row(
      "less", "Less", less, [](double x, double y) { return double(x < y); }, kNumeric));
  rows.push_back(comparison_row(
      "less_equal", "LessEqual", less_equal, [](double x, double y) { return double(x <= y); },
      kNumeric));
  rows.push_back(comparison_row(
      "greater", "Greater", greater, [](double x, double y) { return double(x > y); }, kNumeric));
  rows.push_back(comparison_row(
      "greater_equal", "GreaterEqual", greater_equal,
      [](double x, double y) { return double(x >= y); }, kNumeric));

  std::vector<Case> bool_cases = {{"truth table", {vec({0, 0, 1, 1}), vec({0, 1, 0, 1})}, {}},
                                  {"broadcast", {mat({{0}, {1}}), vec({0, 1, 1})}, {}},
                                  {"empty", {shaped({0}, {}), scalar(1)}, {}}};
  for (auto [name, op, f, ref] :
       {std::tuple{"logical_and", "LogicalAnd", &logical_and,
                   +[](double x, double y) { return double(x != 0 && y != 0); }},
        std::tuple{"logical_or", "LogicalOr", &logical_or,
                   +[](double x, double y) { return double(x != 0 || y != 0); }},
        std::tuple{"logical_xor", "", &logical_xor,
                   +[](double x, double y) { return double((x != 0) != (y != 0)); }}}) {
    OpRow row = binary_row(name, op, {bool_}, api(f), ref, bool_cases);
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);
    if (std::string(op).empty()) row.ops.clear();
    row.invalid = {
        {"float inputs", [f = f] { f(constant({1.f}), constant({0.f}), Loc::current()); },
         ErrorCode::kInvalidArgument, "[Op:"},
        {"incompatible shapes",
         [f = f] {
           f(Tensor::from_vector<bool>({true, false}),
             Tensor::from_vector<bool>({true, false, true}), Loc::current());
         },
         ErrorCode::kInvalidArgument, "Incompatible shapes"}};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tfcc::conformance
