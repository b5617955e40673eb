// Conformance rows of the reduction composites (reduce_mean, reduce_logsumexp, reduce_variance,
// reduce_std) and of the nn composites softmax and log_softmax.
#include "tests/ops/reduction_ref.h"

namespace tfcc::conformance {
namespace {

using namespace reduction;
using Fold = std::function<double(const std::vector<double>&, DType)>;

struct Config {
  std::string suffix;
  Axes axis;
  bool keepdims;
  std::vector<Case> cases;
};

std::vector<Config> configs(double lo, double hi, std::vector<Case> special) {
  std::vector<Config> c = {
      {"",
       Axes(),
       false,
       {{"rank 0", {filled({}, lo, hi, 1)}, {}},
        {"vector", {filled({7}, lo, hi, 2)}, {}},
        {"matrix", {filled({3, 4}, lo, hi, 3)}, {}},
        {"empty", {shaped({0, 3}, {})}, {}},
        {"large", {filled({300, 250}, lo, hi, 4)}, {}},
        {"signed", {filled({4, 5}, -5, 5, 5)}, kSigned}}},
      {"_axis1",
       Axes(1),
       false,
       {{"matrix", {filled({3, 4}, lo, hi, 6)}, {}},
        {"empty reduced", {shaped({3, 0}, {})}, {}},
        {"large", {filled({250, 300}, lo, hi, 7)}, {}}}},
      {"_axis_neg1_keepdims",
       Axes(-1),
       true,
       {{"matrix", {filled({3, 4}, lo, hi, 8)}, {}},
        {"rank 3", {filled({2, 3, 4}, lo, hi, 9)}, {}}}},
      {"_axes_0_2",
       Axes({0, 2}),
       false,
       {{"rank 3", {filled({4, 3, 5}, lo, hi, 10)}, {}},
        {"large", {filled({40, 30, 40}, lo, hi, 11)}, {}}}},
  };
  for (Case& s : special) c[1].cases.push_back(s);
  return c;
}

OpRow composite_row(const std::string& name, std::vector<DType> dtypes, const Config& c,
                    ReduceFn fn, Fold fold, std::vector<BadCase> invalid) {
  OpRow row;
  row.name = name + c.suffix;
  row.dtypes = std::move(dtypes);
  row.cases = c.cases;
  row.rtol32 = 1e-5;
  Axes axis = c.axis;
  bool keepdims = c.keepdims;
  row.fn = [=](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fn(in[0], axis, keepdims)};
  };
  row.reference = [=](const std::vector<Ref>& in, DType dtype) {
    Groups g = group(in[0], axis, keepdims);
    Ref out{g.shape, {}, std::nullopt};
    for (const auto& values : g.values) out.values.push_back(fold(values, dtype));
    return std::vector<Ref>{out};
  };
  row.invalid = std::move(invalid);
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double mean_fold(const std::vector<double>& v, DType dtype) {
  if (!is_integer(dtype)) return mean_of(v);
  if (v.empty()) return 0;
  int64_t s = 0;
  for (double x : v) s += static_cast<int64_t>(x);
  return static_cast<double>(s / static_cast<int64_t>(v.size()));  // C++ truncates, as TF
}

double logsumexp_fold(const std::vector<double>& v, DType) {
  double m = -kInf;
  for (double x : v) {
    if (std::isnan(x)) return x;
    m = std::max(m, x);
  }
  if (std::isinf(m)) return m;
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}

double variance_fold(const std::vector<double>& v, DType) {
  double m = mean_of(v), s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size());
}

std::vector<BadCase> invalid_for(const ReduceFn& fn, const std::string& axis_tag, DType bad_dtype,
                                 const std::string& dtype_msg) {
  return {
      {"axis out of range",
       [=] {
         fn(to_tensor(filled({2, 3}, 0, 5), float32), Axes(2), false);
       },
       ErrorCode::kInvalidArgument, axis_tag},
      {"duplicate axis",
       [=] {
         fn(to_tensor(filled({2, 3}, 0, 5), float32), Axes({0, -2}), false);
       },
       ErrorCode::kInvalidArgument, "duplicate dimension 0"},
      {"wrong dtype",
       [=] {
         fn(to_tensor(vec({1, 0}), bad_dtype), Axes(), false);
       },
       ErrorCode::kInvalidArgument, dtype_msg},
  };
}

OpRow softmax_row(bool log, int64_t axis, const std::string& suffix) {
  OpRow row;
  row.name = (log ? "log_softmax" : "softmax") + suffix;
  row.dtypes = kFloat;
  row.rtol32 = 1e-5;
  row.cases = {
      {"vector", {filled({7}, -3, 3, 1)}, {}},
      {"matrix", {filled({3, 4}, -3, 3, 2)}, {}},
      {"rank 3", {filled({2, 3, 4}, -3, 3, 3)}, {}},
      {"large", {filled({300, 250}, -10, 10, 4)}, {}},
      {"big logits", {mat({{1000, 1001, 1002}, {-1000, -1001, -1002}})}, {}},
      {"-inf logits", {mat({{-kInf, 0, 1}, {2, -kInf, -kInf}})}, {}},
      // TensorFlow: a NaN or +inf logit makes its whole row NaN.
      {"nan and inf logits", {mat({{1, kNaN, 3}, {kInf, 1, 2}, {-kInf, kInf, 0}})}, {}},
      {"empty", {shaped({0, 3}, {})}, {}},
  };
  if (axis == 0) {
    std::erase_if(row.cases, [](const Case& c) {
      return c.label == "-inf logits" || c.label == "nan and inf logits";
    });
  }
  row.fn = [=](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{log ? log_softmax(in[0], axis) : softmax(in[0], axis)};
  };
  row.reference = [=](const std::vector<Ref>& in, DType) {
    const Ref& x = in[0];
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    const int64_t a = axis < 0 ? axis + rank : axis;
    int64_t outer = 1, n = x.shape[a], inner = 1;
    for (int64_t i = 0; i < a; ++i) outer *= x.shape[i];
    for (int64_t i = a + 1; i < rank; ++i) inner *= x.shape[i];
    Ref out{x.shape, std::vector<double>(x.values.size()), std::nullopt};
    for (int64_t p = 0; p < outer; ++p) {
      for (int64_t k = 0; k < inner; ++k) {
        auto at = [&](int64_t i) { return static_cast<size_t>((p * n + i) * inner + k); };
        double m = -kInf, s = 0;
        for (int64_t i = 0; i < n; ++i) {
          m = std::isnan(x.values[at(i)]) ? x.values[at(i)] : std::max(m, x.values[at(i)]);
          if (std::isnan(m)) break;
        }
        for (int64_t i = 0; i < n; ++i) s += std::exp(x.values[at(i)] - m);
        for (int64_t i = 0; i < n; ++i) {
          double d = x.values[at(i)] - m;
          out.values[at(i)] = log ? d - std::log(s) : std::exp(d) / s;
        }
      }
    }
    return std::vector<Ref>{out};
  };
  auto call = [=](const Tensor& x, int64_t ax) {
    return log ? log_softmax(x, ax) : softmax(x, ax);
  };
  row.invalid = {
      {"int logits",
       [=] {
         call(to_tensor(vec({1, 2}), int32), -1);
       },
       ErrorCode::kInvalidArgument, "floating-point logits"},
      {"rank 0", [=] { call(to_tensor(scalar(1), float32), -1); }, ErrorCode::kInvalidArgument,
       ">= 1 dimension"},
      {"axis out of range",
       [=] {
         call(to_tensor(filled({2, 3}, 0, 1), float32), 2);
       },
       ErrorCode::kInvalidArgument, "[Op:Max]"},
  };
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

}  // namespace

std::vector<OpRow> reduction_composite_rows() {
  std::vector<OpRow> rows;
  const std::vector<Case> inf_nan = {
      {"inf nan", {mat({{1, kInf, 3}, {-kInf, 2, kNaN}, {kInf, -kInf, 0}})}, kFloat}};
  ReduceFn mean = [](auto& x, auto& a, bool k) { return reduce_mean(x, a, k); };
  for (const Config& c : configs(0, 10, inf_nan)) {
    rows.push_back(composite_row("reduce_mean", kNumeric, c, mean, mean_fold,
                                 invalid_for(mean, "[Op:Sum]", bool_, "[Op:Sum]")));
  }
  std::vector<Case> lse_special = inf_nan;
  lse_special.push_back(
      {"-inf rows", {mat({{-kInf, -kInf, -kInf}, {kInf, 1, 2}, {1000, 999, -1000}})}, {}});
  ReduceFn lse = [](auto& x, auto& a, bool k) { return reduce_logsumexp(x, a, k); };
  for (const Config& c : configs(-20, 20, lse_special)) {
    rows.push_back(composite_row("reduce_logsumexp", kFloat, c, lse, logsumexp_fold,
                                 invalid_for(lse, "[Op:Max]", int32, "floating-point")));
  }
  std::vector<Case> var_special = inf_nan;
  var_special.push_back({"offset data", {filled({3, 500}, 1e4, 1e4 + 2, 12)}, {}});
  ReduceFn var = [](auto& x, auto& a, bool k) { return reduce_variance(x, a, k); };
  ReduceFn std_ = [](auto& x, auto& a, bool k) { return reduce_std(x, a, k); };
  for (const Config& c : configs(-5, 5, var_special)) {
    rows.push_back(composite_row("reduce_variance", kFloat, c, var, variance_fold,
                                 invalid_for(var, "[Op:Sum]", int32, "floating-point")));
    rows.push_back(composite_row(
        "reduce_std", kFloat, c, std_,
        [](const std::vector<double>& v, DType d) { return std::sqrt(variance_fold(v, d)); },
        invalid_for(std_, "[Op:Sum]", int32, "floating-point")));
    // The std of one value is 0, where sqrt has no derivative (TF gives inf/nan there too).
    for (Case& k : rows.back().cases) {
      if (k.label == "rank 0") k.grad = false;
    }
  }
  for (bool log : {false, true}) {
    rows.push_back(softmax_row(log, -1, ""));
    rows.push_back(softmax_row(log, 0, "_axis0"));
  }
  return rows;
}

}  // namespace tfcc::conformance
