// Conformance rows of ArgMax, ArgMin, Cumsum and Cumprod (reduction family), one row per op and
// axis configuration, with plain-loop references.
#include "tests/ops/reduction_ref.h"

namespace tfcc::conformance {
namespace {

using namespace reduction;

/// Sizes around `axis`: [outer, n, inner].
struct Around {
  int64_t outer = 1, n = 1, inner = 1;
};
Around around(const std::vector<int64_t>& shape, int64_t axis) {
  Around a;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    (i < axis ? a.outer : i == axis ? a.n : a.inner) *= shape[i];
  }
  return a;
}

int64_t norm(int64_t axis, size_t rank) { return axis < 0 ? axis + int64_t(rank) : axis; }

/// Drops the cases whose input has no dimension `axis`.
void fit(std::vector<Case>& cases, int64_t axis) {
  std::erase_if(cases, [axis](const Case& c) {
    return axis >= static_cast<int64_t>(c.inputs[0].shape.size());
  });
}

// 70 values with NaN at 0, 33 and 69 around the largest (50) and smallest (-50): crosses the
// kernel's 32-lane pass and its tail.
std::vector<double> nan_row() {
  std::vector<double> v(70);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 17);
  v[0] = v[33] = v[69] = kNaN;
  v[40] = 50;
  v[41] = -50;
  return v;
}

std::vector<Case> scan_cases(double lo, double hi) {
  std::vector<Case> c = {
      {"vector", {filled({7}, lo, hi, 1)}, {}},
      {"matrix", {filled({3, 4}, lo, hi, 2)}, {}},
      {"empty rows", {filled({0, 3}, lo, hi, 3)}, {}},
      {"large", {filled({300, 250}, lo, hi, 4)}, {}},
      {"ties", {mat({{2, 5, 5, 1}, {3, 3, 3, 3}, {0, 1, 0, 1}})}, {}},
      {"inf nan",
       {mat({{1, kNaN, 3, kNaN}, {-kInf, -kInf, 2, kInf}, {kInf, 0, -kInf, 1}})},
       kFloat},
      {"nan first and all nan",
       {mat({{kNaN, kNaN, kNaN}, {kNaN, 2, kNaN}, {1, kNaN, 3}, {kInf, kNaN, -kInf}})},
       kFloat},
      {"nan in a long row", {shaped({1, 70}, nan_row())}, kFloat},
      {"signed", {filled({4, 5}, -5, 5, 5)}, kSigned},
  };
  c.push_back({"rank 3", {filled({2, 3, 4}, lo, hi, 6)}, {}});
  return c;
}

OpRow arg_row(bool is_max, int64_t axis, DType out_type, const std::string& suffix) {
  OpRow row;
  const std::string op = is_max ? "ArgMax" : "ArgMin";
  row.name = (is_max ? "argmax" : "argmin") + suffix;
  row.ops = {op};
  row.dtypes = kNumeric;
  row.cases = scan_cases(0, 100);
  if (axis == 0) row.cases.erase(row.cases.begin() + 2);  // reducing an empty axis is invalid
  fit(row.cases, axis);
  row.out_dtype = [out_type](DType) { return out_type; };
  row.fn = [=](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{is_max ? argmax(in[0], axis, out_type)
                                      : argmin(in[0], axis, out_type)};
  };
  row.reference = [=](const std::vector<Ref>& in, DType) {
    const Ref& x = in[0];
    const int64_t a = norm(axis, x.shape.size());
    Around s = around(x.shape, a);
    Ref out{x.shape, {}, out_type};
    out.shape.erase(out.shape.begin() + a);
    for (int64_t p = 0; p < s.outer; ++p) {
      for (int64_t k = 0; k < s.inner; ++k) {
        // TensorFlow's rule: NaN is never picked; a lane of NaN only gives 0.
        int64_t best = -1;
        for (int64_t i = 0; i < s.n; ++i) {
          double v = x.values[(p * s.n + i) * s.inner + k];
          if (std::isnan(v)) continue;
          if (best < 0) {
            best = i;
            continue;
          }
          double b = x.values[(p * s.n + best) * s.inner + k];
          if (is_max ? v > b : v < b) best = i;
        }
        best = std::max<int64_t>(best, 0);
        out.values.push_back(static_cast<double>(best));
      }
    }
    return std::vector<Ref>{out};
  };
  const std::string tag = "[Op:" + op + "]";
  auto call = [=](const Tensor& x, int64_t ax, DType t) {
    return is_max ? argmax(x, ax, t) : argmin(x, ax, t);
  };
  row.invalid = {
      {"axis out of range",
       [=] {
         call(to_tensor(filled({2, 3}, 0, 5), float32), 2, int64);
       },
       ErrorCode::kInvalidArgument, tag},
      {"rank 0", [=] { call(to_tensor(scalar(1), float32), 0, int64); },
       ErrorCode::kInvalidArgument, tag},
      {"empty axis",
       [=] {
         call(to_tensor(shaped({3, 0}, {}), float32), 1, int64);
       },
       ErrorCode::kInvalidArgument, "Reduction axis 1 is empty"},
      {"bool input",
       [=] {
         call(to_tensor(vec({1, 0}), bool_), 0, int64);
       },
       ErrorCode::kInvalidArgument, tag},
      {"float output_type",
       [=] {
         call(to_tensor(vec({1, 0}), float32), 0, float32);
       },
       ErrorCode::kInvalidArgument, tag},
  };
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

OpRow cum_row(bool prod, int64_t axis, bool exclusive, bool reverse, const std::string& suffix) {
  OpRow row;
  const std::string op = prod ? "Cumprod" : "Cumsum";
  row.name = (prod ? "cumprod" : "cumsum") + suffix;
  row.ops = {op};
  row.dtypes = kNumeric;
  row.cases = prod ? scan_cases(0.5, 1.5) : scan_cases(0, 10);
  if (prod) row.cases.push_back({"int wraps", {filled({2, 40}, 1, 9, 7)}, {int32, int64, uint8}});
  row.cases.push_back({"empty axis", {shaped({3, 0}, {})}, {}});
  fit(row.cases, axis);
  row.fn = [=](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{prod ? cumprod(in[0], axis, exclusive, reverse)
                                    : cumsum(in[0], axis, exclusive, reverse)};
  };
  row.reference = [=](const std::vector<Ref>& in, DType dtype) {
    const Ref& x = in[0];
    Around s = around(x.shape, norm(axis, x.shape.size()));
    Ref out{x.shape, std::vector<double>(x.values.size()), std::nullopt};
    for (int64_t p = 0; p < s.outer; ++p) {
      for (int64_t k = 0; k < s.inner; ++k) {
        double acc = prod ? 1 : 0;
        uint64_t iacc = prod ? 1 : 0;
        for (int64_t step = 0; step < s.n; ++step) {
          int64_t i = reverse ? s.n - 1 - step : step;
          size_t at = static_cast<size_t>((p * s.n + i) * s.inner + k);
          double before = is_integer(dtype) ? wrap(iacc, dtype) : round_to(acc, dtype);
          acc = prod ? acc * x.values[at] : acc + x.values[at];
          iacc = prod ? iacc * as_u64(x.values[at]) : iacc + as_u64(x.values[at]);
          double now = is_integer(dtype) ? wrap(iacc, dtype) : round_to(acc, dtype);
          out.values[at] = exclusive ? before : now;
        }
      }
    }
    return std::vector<Ref>{out};
  };
  const std::string tag = "[Op:" + op + "]";
  auto call = [=](const Tensor& x, int64_t ax) { return prod ? cumprod(x, ax) : cumsum(x, ax); };
  row.invalid = {
      {"axis out of range",
       [=] {
         call(to_tensor(filled({2, 3}, 0, 5), float32), 2);
       },
       ErrorCode::kInvalidArgument, "Expected axis in the range [-2, 2)"},
      {"negative axis out of range",
       [=] {
         call(to_tensor(filled({2, 3}, 0, 5), float32), -3);
       },
       ErrorCode::kInvalidArgument, tag},
      {"rank 0", [=] { call(to_tensor(scalar(1), float32), 0); }, ErrorCode::kInvalidArgument, tag},
      {"bool input",
       [=] {
         call(to_tensor(vec({1, 0}), bool_), 0);
       },
       ErrorCode::kInvalidArgument, tag},
  };
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

}  // namespace

std::vector<OpRow> reduction_scan_rows() {
  std::vector<OpRow> rows;
  for (bool is_max : {true, false}) {
    rows.push_back(arg_row(is_max, 0, int64, ""));
    rows.push_back(arg_row(is_max, 1, int64, "_axis1"));
    rows.push_back(arg_row(is_max, -1, int32, "_axis_neg1_int32"));
  }
  for (bool prod : {false, true}) {
    rows.push_back(cum_row(prod, 0, false, false, ""));
    rows.push_back(cum_row(prod, 1, false, false, "_axis1"));
    rows.push_back(cum_row(prod, -1, true, false, "_axis_neg1_exclusive"));
    rows.push_back(cum_row(prod, 0, false, true, "_reverse"));
    rows.push_back(cum_row(prod, 1, true, true, "_axis1_exclusive_reverse"));
  }
  return rows;
}

}  // namespace tfcc::conformance
