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

double truncmod_ref(double x, double y) { return std::fmod(x, y); }

// Wraps an exact integer result to dtype t's range (two's complement; uint8 modulo 256).
double wrap_to(DType t, int64_t v) {
  if (t == uint8) return static_cast<double>(static_cast<uint8_t>(v));
  if (t == int32) return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(v)));
  return static_cast<double>(v);
}
int bits_of(DType t) { return t == uint8 ? 8 : t == int32 ? 32 : 64; }

// A reference for a bitwise op: f on the operands as int64 and the dtype's width, wrapped.
RefFn bitwise_ref(std::function<int64_t(int64_t, int64_t, int)> f) {
  return [f](const std::vector<Ref>& in, DType t) {
    return std::vector<Ref>{broadcast_ref(in[0], in[1], [&](double x, double y) {
      return wrap_to(t, f(static_cast<int64_t>(x), static_cast<int64_t>(y), bits_of(t)));
    })};
  };
}
int64_t clamp_shift(int64_t s, int bits) { return s < 0 ? 0 : s > bits - 1 ? bits - 1 : s; }

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
  rows.push_back(binary_row(
      "squared_difference", "SquaredDifference", kSigned, api(squared_difference),
      [](double x, double y) { return (x - y) * (x - y); }, specials));
  {
    OpRow row = binary_row(
        "truncatediv", "TruncateDiv", kNumeric, api(truncatediv),
        [](double x, double y) { return std::trunc(x / y); }, nonzero_divisor_cases());
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);  // generic cases hold 0 divisors
    row.cases.push_back(specials[0]);
    row.cases.push_back({"extremes", {vec({-2147483648.0, 7}), vec({-1, -1})}, {int32}});
    row.invalid.push_back({"integer division by zero",
                           [] {
                             truncatediv(constant({1, 2}), constant({1, 0}));
                           },
                           ErrorCode::kInvalidArgument, "Integer division by zero"});
    rows.push_back(std::move(row));
  }
  {
    OpRow row = binary_row("truncatemod", "TruncateMod", kNumeric, api(truncatemod), truncmod_ref,
                           nonzero_divisor_cases());
    row.grad_domain = {0.5, 3};
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);
    row.cases.push_back(specials[0]);
    row.cases.push_back({"extremes", {vec({-2147483648.0, 7}), vec({-1, -1})}, {int32}});
    row.invalid.push_back({"integer modulo by zero",
                           [] {
                             truncatemod(constant({1, 2}), 0);
                           },
                           ErrorCode::kInvalidArgument, "Integer division by zero"});
    rows.push_back(std::move(row));
  }
  {
    OpRow row = binary_row(
        "atan2", "Atan2", kFloat, api(atan2), [](double y, double x) { return std::atan2(y, x); },
        {specials[0],
         {"signed zeros", {vec({0, -0.0, 0, -0.0, 1}), vec({0, 0, -0.0, -0.0, -INFINITY})}, {}}});
    row.grad_domain = {0.5, 3};  // away from the origin
    rows.push_back(std::move(row));
  }
  {
    OpRow row =
        binary_row("xlogy", "Xlogy", kFloat, api(xlogy),
                   [](double x, double y) { return x == 0 ? 0.0 : x * std::log(y); },
                   {specials[0],
                    {"zero x", {vec({0, 0, 0, 0, 1, 2}), vec({0, -1, NAN, INFINITY, 0, -1})}, {}}});
    row.grad_domain = {0.5, 3};
    rows.push_back(std::move(row));
  }
  {
    // Orders 1 and up against the series sum_k n! / (x + k)^(n+1), summed far and closed with
    // its tail integral; at the poles TensorFlow's rule (+inf for odd n, NaN for even n).
    auto ref = [](double n, double x) -> double {
      if (std::isnan(n) || std::isnan(x) || n < 1 || n != std::floor(n)) return NAN;
      if (x <= 0 && x == std::floor(x)) return std::fmod(n, 2) == 1 ? INFINITY : NAN;
      double sum = 0;
      const int kTerms = 200000;
      for (int k = 0; k < kTerms; ++k) sum += std::pow(x + k, -(n + 1));
      sum += std::pow(x + kTerms, -n) / n + 0.5 * std::pow(x + kTerms, -(n + 1));
      return (std::fmod(n, 2) == 0 ? -1 : 1) * std::tgamma(n + 1) * sum;
    };
    OpRow row =
        binary_row("polygamma", "Polygamma", kFloat, api(polygamma), ref,
                   {{"orders", {vec({1, 2, 3, 1, 4}), vec({0.5, 1, 2.5, 10, 0.75})}, {}, false},
                    {"broadcast", {shaped({2, 1}, {1, 2}), filled({3}, 0.5, 5, 3)}, {}, false},
                    {"invalid orders", {vec({-1, 1.5, NAN, 1}), vec({1, 1, 1, NAN})}, {}, false},
                    {"poles", {vec({1, 2, 1, 2}), vec({0, -2, -INFINITY, 0})}, {}, false},
                    {"negative x", {vec({1, 3}), vec({-2.5, -0.5})}, {}, false},
                    // The gradient in x only: n pinned (TensorFlow has no gradient for it).
                    {"gradient in x", {vec({1, 2, 1}, float64), vec({0.7, 1.5, 2.5})}, {float64}}});
    row.cases.erase(row.cases.begin(), row.cases.begin() + 8);  // negative and fractional n
    row.rtol64 = 1e-9;                                          // the reference's truncated series
    row.atol64 = 1e-12;
    row.rtol32 = 1e-5;
    row.grad_domain = {0.5, 3};
    rows.push_back(std::move(row));
  }
  const std::vector<DType> integers = {int32, int64, uint8};
  auto bitwise = [&](std::string name, std::string op, BinaryApi f,
                     std::function<int64_t(int64_t, int64_t, int)> ref) {
    OpRow row =
        binary_row(name, op, integers, api(f), nullptr,
                   {{"extremes",
                     {vec({-2147483648.0, 2147483647, -1, 1, 5, -8}), vec({0, 1, 31, 32, -1, 40})},
                     {int32, int64}},
                    {"bytes", {vec({0, 1, 128, 255, 200}), vec({0, 7, 8, 1, 9})}, {uint8}}});
    row.reference = bitwise_ref(std::move(ref));
    row.grad_check = false;  // integers only
    row.invalid = {{"float inputs", [f] { f(constant({1.f}), constant({1.f}), Loc::current()); },
                    ErrorCode::kInvalidArgument, "[Op:" + op + "]"},
                   {"incompatible shapes",
                    [f] {
                      f(constant({1, 2, 3}), constant({1, 2}), Loc::current());
                    },
                    ErrorCode::kInvalidArgument, "Incompatible shapes"},
                   {"mixed dtypes",
                    [f] {
                      f(constant({1, 2}), constant({1, 2}, int64), Loc::current());
                    },
                    ErrorCode::kInvalidArgument, "[Op:" + op + "]"}};
    rows.push_back(std::move(row));
  };
  bitwise("bitwise_and", "BitwiseAnd", bitwise_and,
          [](int64_t x, int64_t y, int) { return x & y; });
  bitwise("bitwise_or", "BitwiseOr", bitwise_or, [](int64_t x, int64_t y, int) { return x | y; });
  bitwise("bitwise_xor", "BitwiseXor", bitwise_xor,
          [](int64_t x, int64_t y, int) { return x ^ y; });
  bitwise("left_shift", "LeftShift", left_shift, [](int64_t x, int64_t y, int bits) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) << clamp_shift(y, bits));
  });
  bitwise("right_shift", "RightShift", right_shift,
          [](int64_t x, int64_t y, int bits) { return x >> clamp_shift(y, bits); });

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
