// Conformance rows of the reduction family: Sum, Prod, Max, Min, All, Any here, one row per op
// and axis configuration; ArgMax/ArgMin/Cumsum/Cumprod in rows_reduction_scan.cc; composites
// (mean, logsumexp, variance, std, softmax, log_softmax) in rows_reduction_composite.cc.
#include <algorithm>

#include "tests/ops/reduction_ref.h"

namespace tfcc::conformance {

std::vector<OpRow> reduction_scan_rows();
std::vector<OpRow> reduction_composite_rows();

namespace reduction {

std::vector<Variant> reduce_variants(const std::function<Ref(std::vector<int64_t>, uint64_t)>& make,
                                     bool special) {
  const std::vector<DType> f = kFloat;
  auto sp = [&](std::vector<Case> cases, Case c) {
    if (special) cases.push_back(std::move(c));
    return cases;
  };
  const Ref m4 = mat({{1, kInf, 3}, {-kInf, 2, kNaN}, {kInf, kInf, 0}, {-kInf, -5, 1}});
  const Ref r3 = shaped({2, 2, 3}, {1, kNaN, 3, kInf, -kInf, 0, -kInf, -1, 4, 2, 5, kInf});
  return {
      {"", Axes(), false,
       sp({{"rank 0", {make({}, 1)}, {}},
           {"vector", {make({7}, 2)}, {}},
           {"matrix", {make({3, 4}, 3)}, {}},
           {"rank 3", {make({2, 3, 4}, 4)}, {}},
           {"empty", {make({0, 3}, 5)}, {}},
           {"large", {make({300, 250}, 6)}, {}}},
          {"inf nan", {vec({1, kInf, -kInf, kNaN, 2})}, f})},
      {"_keepdims",
       Axes(),
       true,
       {{"rank 0", {make({}, 7)}, {}},
        {"matrix", {make({3, 4}, 8)}, {}},
        {"rank 3", {make({2, 3, 4}, 9)}, {}},
        {"empty", {make({2, 0, 3}, 10)}, {}}}},
      {"_axis1", Axes(1), false,
       sp({{"matrix", {make({3, 4}, 11)}, {}},
           {"rank 3", {make({2, 3, 4}, 12)}, {}},
           {"empty kept", {make({0, 3}, 13)}, {}},
           {"empty reduced", {make({3, 0}, 14)}, {}},
           {"large", {make({300, 250}, 15)}, {}}},
          {"inf nan", {m4}, f})},
      {"_axis0", Axes(0), false,
       sp({{"matrix", {make({3, 4}, 16)}, {}},
           {"rank 3", {make({2, 3, 4}, 17)}, {}},
           {"large tall", {make({20000, 3}, 18)}, {}},
           {"large wide", {make({3, 20000}, 19)}, {}}},
          {"inf nan", {m4}, f})},
      {"_axis_neg1_keepdims",
       Axes(-1),
       true,
       {{"matrix", {make({3, 4}, 20)}, {}},
        {"rank 3", {make({2, 3, 4}, 21)}, {}},
        {"empty reduced", {make({3, 0}, 22)}, {}},
        {"large", {make({250, 300}, 23)}, {}}}},
      {"_axes_0_2", Axes({0, 2}), false,
       sp({{"rank 3", {make({4, 3, 5}, 24)}, {}},
           {"size-1 dims", {make({4, 1, 5}, 25)}, {}},
           {"empty", {make({2, 0, 3}, 26)}, {}},
           {"large", {make({40, 30, 40}, 27)}, {}}},
          {"inf nan", {r3}, f})},
      {"_axes_neg1_0_keepdims",
       Axes({-1, 0}),
       true,
       {{"rank 3", {make({4, 3, 5}, 28)}, {}}, {"large", {make({30, 50, 40}, 29)}, {}}}},
      {"_axes_1_2", Axes({1, 2}), false,
       sp({{"rank 3", {make({4, 3, 5}, 30)}, {}},
           {"rank 4", {make({2, 3, 4, 2}, 31)}, {}},
           {"large", {make({3, 200, 100}, 32)}, {}}},
          {"inf nan", {r3}, f})},
      {"_no_axes",
       Axes(std::vector<int64_t>{}),
       false,
       {{"matrix", {make({3, 4}, 33)}, {}}, {"rank 0", {make({}, 34)}, {}}}},
  };
}

std::vector<BadCase> reduce_invalid(const ReduceFn& fn, const std::string& op, DType good,
                                    DType bad) {
  const std::string tag = "[Op:" + op + "]";
  auto x = [good] { return to_tensor(filled({2, 3}, 0, 2, 1), good); };
  return {
      {"axis out of range", [=] { fn(x(), Axes(2), false); }, ErrorCode::kInvalidArgument,
       "Invalid reduction dimension 2 for input with 2 dimension(s)"},
      {"negative axis out of range", [=] { fn(x(), Axes(-3), false); }, ErrorCode::kInvalidArgument,
       tag},
      {"duplicate axis",
       [=] {
         fn(x(), Axes({1, -1}), false);
       },
       ErrorCode::kInvalidArgument, "duplicate dimension 1"},
      {"axis on rank 0", [=] { fn(to_tensor(scalar(1), good), Axes(0), false); },
       ErrorCode::kInvalidArgument, tag},
      {"wrong dtype",
       [=] {
         fn(to_tensor(vec({1, 0}), bad), Axes(), false);
       },
       ErrorCode::kInvalidArgument, tag},
  };
}

namespace {

using Fold = std::function<double(const std::vector<double>&, DType)>;

OpRow reduce_row(const std::string& name, const std::string& op, std::vector<DType> dtypes,
                 const Variant& v, ReduceFn fn, Fold fold, DType bad_dtype) {
  OpRow row;
  row.name = name + v.suffix;
  row.ops = {op};
  row.dtypes = dtypes;
  row.cases = v.cases;
  Axes axis = v.axis;
  bool keepdims = v.keepdims;
  row.fn = [fn, axis, keepdims](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fn(in[0], axis, keepdims)};
  };
  row.reference = [fold, axis, keepdims](const std::vector<Ref>& in, DType dtype) {
    Groups g = group(in[0], axis, keepdims);
    Ref out{g.shape, {}, std::nullopt};
    for (const auto& values : g.values) out.values.push_back(fold(values, dtype));
    return std::vector<Ref>{out};
  };
  row.invalid = reduce_invalid(fn, op, dtypes[0], bad_dtype);
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

double sum_fold(const std::vector<double>& v, DType dtype) {
  if (is_integer(dtype)) {
    uint64_t acc = 0;
    for (double x : v) acc += as_u64(x);
    return wrap(acc, dtype);
  }
  double acc = 0;
  for (double x : v) acc += x;
  return round_to(acc, dtype);
}

double prod_fold(const std::vector<double>& v, DType dtype) {
  if (is_integer(dtype)) {
    uint64_t acc = 1;
    for (double x : v) acc *= as_u64(x);
    return wrap(acc, dtype);
  }
  double acc = 1;
  for (double x : v) acc *= x;
  return round_to(acc, dtype);
}

double lowest(DType dtype) {
  if (dtype == int32) return std::numeric_limits<int32_t>::lowest();
  if (dtype == int64) return static_cast<double>(std::numeric_limits<int64_t>::lowest());
  if (dtype == uint8) return 0;
  return -kInf;
}

double highest(DType dtype) {
  if (dtype == int32) return std::numeric_limits<int32_t>::max();
  if (dtype == int64) return static_cast<double>(std::numeric_limits<int64_t>::max());
  if (dtype == uint8) return 255;
  return kInf;
}

double max_fold(const std::vector<double>& v, DType dtype) {
  double acc = lowest(dtype);
  for (double x : v) {
    if (std::isnan(x)) return x;
    acc = std::max(acc, x);
  }
  return acc;
}

double min_fold(const std::vector<double>& v, DType dtype) {
  double acc = highest(dtype);
  for (double x : v) {
    if (std::isnan(x)) return x;
    acc = std::min(acc, x);
  }
  return acc;
}

}  // namespace
}  // namespace reduction

std::vector<OpRow> reduction_rows() {
  using namespace reduction;
  std::vector<OpRow> rows;
  auto numbers = [](double lo, double hi) {
    return [lo, hi](std::vector<int64_t> shape, uint64_t seed) {
      return filled(std::move(shape), lo, hi, seed);
    };
  };
  struct Spec {
    const char* name;
    const char* op;
    ReduceFn fn;
    Fold fold;
    double lo, hi;
  };
  // Value ranges are non-negative so uint8 holds them; the "signed" case adds negatives.
  const Spec numeric[] = {
      {"reduce_sum", "Sum", [](auto& x, auto& a, bool k) { return reduce_sum(x, a, k); }, sum_fold,
       0, 10},
      {"reduce_prod", "Prod", [](auto& x, auto& a, bool k) { return reduce_prod(x, a, k); },
       prod_fold, 0.5, 1.5},
      {"reduce_max", "Max", [](auto& x, auto& a, bool k) { return reduce_max(x, a, k); }, max_fold,
       0, 100},
      {"reduce_min", "Min", [](auto& x, auto& a, bool k) { return reduce_min(x, a, k); }, min_fold,
       0, 100},
  };
  for (const Spec& s : numeric) {
    for (Variant& v : reduce_variants(numbers(s.lo, s.hi), true)) {
      // Signed values and integer wrap-around, on the all-axes row.
      if (v.suffix.empty()) {
        v.cases.push_back({"signed", {filled({5, 6}, -4, 4, 40)}, kSigned});
        v.cases.push_back({"int32 wraps", {vec({2e9, 2e9, 3, -7})}, {int32}});
        v.cases.push_back({"int64 wraps", {vec({4e18, 4e18, 3e18})}, {int64}});
        v.cases.push_back({"uint8 wraps", {vec({200, 100, 255, 7})}, {uint8}});
      }
      rows.push_back(reduce_row(s.name, s.op, kNumeric, v, s.fn, s.fold, bool_));
    }
  }
  // Bool data: mostly true, mostly false or mixed, so All and Any see both outcomes.
  auto bool_data = [](std::vector<int64_t> shape, uint64_t seed) {
    return bits(std::move(shape), seed % 3 == 0 ? 0.5 : (seed % 3 == 1 ? 0.99 : 0.01), seed);
  };
  auto all_fold = [](const std::vector<double>& v, DType) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x != 0; }) ? 1.0 : 0.0;
  };
  auto any_fold = [](const std::vector<double>& v, DType) {
    return std::any_of(v.begin(), v.end(), [](double x) { return x != 0; }) ? 1.0 : 0.0;
  };
  for (Variant& v : reduce_variants(bool_data, false)) {
    rows.push_back(reduce_row(
        "reduce_all", "All", {bool_}, v,
        [](auto& x, auto& a, bool k) { return reduce_all(x, a, k); }, all_fold, float32));
    rows.push_back(reduce_row(
        "reduce_any", "Any", {bool_}, v,
        [](auto& x, auto& a, bool k) { return reduce_any(x, a, k); }, any_fold, float32));
  }
  for (auto family : {reduction_scan_rows, reduction_composite_rows}) {
    for (auto& r : family()) rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace tfcc::conformance
