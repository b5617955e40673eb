// Conformance rows of the sorting family: top_k (values and indices), sort, argsort,
// searchsorted and unique, against plain-loop references (std::stable_sort on the float64
// values).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "tests/ops/array_ref.h"
#include "tfcc/ops/sorting/sorting.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// a before b in a descending order: NaN first.
bool desc(double a, double b) {
  if (std::isnan(a)) return !std::isnan(b);
  if (std::isnan(b)) return false;
  return a > b;
}

// The stable order of each row of the last axis of `x`: orders[row] = indices.
std::vector<V> row_orders(const Ref& x, bool descending) {
  const int64_t n = x.shape.empty() ? 1 : x.shape.back();
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(x.values.size()) / n;
  std::vector<V> out;
  for (int64_t r = 0; r < rows; ++r) {
    V idx(static_cast<size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    const double* row = x.values.data() + r * n;
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
      return descending ? desc(row[a], row[b]) : desc(-row[a], -row[b]);
    });
    out.push_back(idx);
  }
  return out;
}

std::vector<Case> top_k_cases() {
  return {{"vector k=3", {vec({3, 1, 4, 1, 5, 9, 2, 6}), int_scalar(3)}, {}},
          {"matrix k=2", {filled({4, 6}, 0, 99, 1), int_scalar(2)}, {}},
          {"rank 3", {filled({2, 3, 5}, 0, 99, 2), int_scalar(4)}, {}},
          {"k = 0", {filled({3, 4}, 0, 99, 3), int_scalar(0)}, {}},
          {"k = n", {filled({2, 5}, 0, 99, 4), int_scalar(5)}, {}},
          {"ties keep index order", {vec({2, 7, 7, 1, 7, 2}), int_scalar(4)}, {}},
          {"empty rows", {shaped({0, 4}, {}), int_scalar(2)}, {}},
          {"nan first", {vec({1, kNaN, 3, 2}), int_scalar(3)}, kFloat},
          {"large", {filled({300, 400}, 0, 99, 5), int_scalar(7)}, {}}};
}

std::vector<BadCase> top_k_bad() {
  return {bad(
              "negative k",
              [] {
                top_k(f32(vec({1, 2})), -1);
              },
              "Need k >= 0, got -1"),
          bad(
              "k too large", [] { top_k(f32(m23()), 4); },
              "input must have at least k columns. Had 3, needed 4"),
          bad(
              "scalar", [] { top_k(f32(scalar(1)), 1); }, "at least 1-D"),
          bad(
              "bool", [] { top_k(Tensor::from_vector<bool>({true}), 1); }, "[Op:TopKV2]")};
}

OpRow top_k_row(bool indices) {
  OpRow row = make_row(
      indices ? "top_k_indices" : "top_k_values", {"TopKV2"}, kNumeric, top_k_cases(),
      [indices](In in) {
        auto [v, i] = top_k(in[0], ii(in[1]));
        return single(indices ? i : v);
      },
      [indices](RefIn in, DType) {
        const Ref& x = in[0];
        const int64_t k = static_cast<int64_t>(in[1].values[0]);
        const int64_t n = x.shape.back();
        V shape = x.shape;
        shape.back() = k;
        Ref out{shape, {}, indices ? std::optional<DType>(int32) : std::nullopt};
        int64_t r = 0;
        for (const V& order : row_orders(x, true)) {
          for (int64_t j = 0; j < k; ++j) {
            const int64_t src = order[static_cast<size_t>(j)];
            out.values.push_back(indices ? double(src) : x.values[size_t(r * n + src)]);
          }
          ++r;
        }
        return one(out);
      },
      top_k_bad());
  if (indices) row.out_dtype = [](DType) { return int32; };  // indices have no gradient
  return row;
}

// sort / argsort: inputs x, axis, direction (0 ascending, 1 descending).
std::vector<Case> sort_cases() {
  return {{"vector", {vec({3, 1, 4, 1, 5, 9, 2, 6}), int_scalar(-1), int_scalar(0)}, {}},
          {"vector descending", {vec({3, 1, 4, 1, 5, 9, 2, 6}), int_scalar(0), int_scalar(1)}, {}},
          {"matrix axis 0", {filled({5, 3}, 0, 99, 1), int_scalar(0), int_scalar(0)}, {}},
          {"rank 3 axis 1 desc", {filled({2, 4, 3}, 0, 99, 2), int_scalar(1), int_scalar(1)}, {}},
          {"ties", {vec({2, 0, 2, 1, 0}), int_scalar(0), int_scalar(0)}, {}},
          {"extremes", {vec({0, 255, 1, 254}), int_scalar(0), int_scalar(0)}, {}},
          {"empty", {shaped({2, 0}, {}), int_scalar(-1), int_scalar(1)}, {}},
          {"large", {filled({50, 2000}, 0, 99, 3), int_scalar(-1), int_scalar(0)}, {}}};
}

OpRow sort_row(bool indices) {
  OpRow row = make_row(
      indices ? "argsort" : "sort", {}, kNumeric, sort_cases(),
      [indices](In in) {
        const std::string dir = ii(in[2]) ? "DESCENDING" : "ASCENDING";
        return single(indices ? argsort(in[0], ii(in[1]), dir) : sort(in[0], ii(in[1]), dir));
      },
      [indices](RefIn in, DType) {
        const Ref& x = in[0];
        const int64_t rank = static_cast<int64_t>(x.shape.size());
        int64_t axis = static_cast<int64_t>(in[1].values[0]);
        if (axis < 0) axis += rank;
        const bool descending = in[2].values[0] != 0;
        Ref out{x.shape, std::vector<double>(x.values.size()),
                indices ? std::optional<DType>(int32) : std::nullopt};
        const int64_t n = x.shape[size_t(axis)];
        const V st = strides_of(x.shape);
        for (int64_t f = 0; f < numel(x.shape); ++f) {
          V c = unravel(f, x.shape);
          if (c[size_t(axis)] != 0) continue;  // one line per position with axis index 0
          Ref line{{n}, {}, std::nullopt};
          for (int64_t j = 0; j < n; ++j)
            line.values.push_back(x.values[size_t(f + j * st[size_t(axis)])]);
          const V order = n ? row_orders(line, descending)[0] : V{};
          for (int64_t j = 0; j < n; ++j) {
            const int64_t src = order[size_t(j)];
            out.values[size_t(f + j * st[size_t(axis)])] =
                indices ? double(src) : line.values[size_t(src)];
          }
        }
        return one(out);
      },
      {bad(
           "direction",
           [] {
             sort(f32(vec({1, 2})), -1, "UP");
           },
           "direction should be one of ASCENDING, DESCENDING (got: UP)"),
       bad(
           "axis", [] { argsort(f32(m23()), 2); }, "axis 2 is out of range for a tensor of rank 2"),
       bad(
           "scalar", [] { sort(f32(scalar(1))); }, "known rank >= 1"),
       bad(
           "bool",
           [] {
             sort(Tensor::from_vector<bool>({true, false}));
           },
           "[Op:")});
  if (indices) row.out_dtype = [](DType) { return int32; };
  return row;
}

OpRow searchsorted_row() {
  return make_row(
      "searchsorted", {"LowerBound", "UpperBound"}, kNumeric,
      {{"vector left", {vec({1, 3, 3, 5, 7}), vec({0, 3, 4, 7, 8}), int_scalar(0)}, {}},
       {"vector right", {vec({1, 3, 3, 5, 7}), vec({0, 3, 4, 7, 8}), int_scalar(1)}, {}},
       {"batched", {mat({{1, 2, 3}, {10, 20, 30}}), mat({{2, 0}, {25, 30}}), int_scalar(1)}, {}},
       {"rank 3",
        {shaped({2, 1, 2}, {1, 5, 2, 4}), shaped({2, 1, 3}, {0, 5, 6, 3, 4, 9}), int_scalar(0)},
        {}},
       {"empty sequence", {shaped({0}, {}), vec({1, 2}), int_scalar(0)}, {}},
       {"empty values", {vec({1, 2}), shaped({0}, {}), int_scalar(1)}, {}},
       {"large",
        {shaped({2000},
                [] {
                  std::vector<double> v;
                  for (int i = 0; i < 2000; ++i) v.push_back(i / 21);
                  return v;
                }()),
         filled({40000}, 0, 99, 3), int_scalar(1)},
        {}}},
      [](In in) { return single(searchsorted(in[0], in[1], ii(in[2]) ? "right" : "left")); },
      [](RefIn in, DType) {
        const Ref &s = in[0], &v = in[1];
        const bool right = in[2].values[0] != 0;
        const int64_t n = s.shape.back(), m = v.shape.back();
        Ref out{v.shape, {}, int32};
        for (size_t i = 0; i < v.values.size(); ++i) {
          const int64_t row = m ? static_cast<int64_t>(i) / m : 0;
          int64_t count = 0;
          for (int64_t j = 0; j < n; ++j) {
            const double e = s.values[size_t(row * n + j)];
            if (e < v.values[i] || (right && e == v.values[i])) ++count;
          }
          out.values.push_back(double(count));
        }
        return one(out);
      },
      {bad(
           "side", [] { searchsorted(f32(vec({1})), f32(vec({1})), "middle"); },
           "side must be \"left\" or \"right\""),
       bad(
           "ranks", [] { searchsorted(f32(vec({1})), f32(m23())); }, "the same rank"),
       bad(
           "leading dims",
           [] {
             searchsorted(f32(m23()), f32(mat({{1}, {2}, {3}})));
           },
           "Leading dim_size of both tensors must match"),
       bad(
           "mixed dtypes", [] { searchsorted(f32(vec({1})), to_tensor(vec({1}), int32)); },
           "[Op:LowerBound]")});
}

OpRow unique_row() {
  return make_row(
      "unique", {"Unique"}, {float32, float64, int32, int64, uint8, bool_},
      {{"vector", {vec({3, 1, 3, 2, 1, 0})}, {}},
       {"all same", {vec({1, 1, 1})}, {}},
       {"one", {vec({5})}, {}},
       {"empty", {shaped({0}, {})}, {}},
       {"nan distinct", {vec({kNaN, 1, kNaN, 1})}, kFloat},
       {"large", {filled({70000}, 0, 60, 4)}, {}}},
      [](In in) {
        auto [y, idx] = unique(in[0]);
        return std::vector<Tensor>{y, idx};
      },
      [](RefIn in, DType) {
        Ref y{{0}, {}, std::nullopt}, idx{in[0].shape, {}, int32};
        for (double v : in[0].values) {
          auto it = std::isnan(v) ? y.values.end() : std::find(y.values.begin(), y.values.end(), v);
          if (it == y.values.end()) {
            idx.values.push_back(double(y.values.size()));
            y.values.push_back(v);
          } else {
            idx.values.push_back(double(it - y.values.begin()));
          }
        }
        y.shape = {static_cast<int64_t>(y.values.size())};
        return std::vector<Ref>{y, idx};
      },
      {bad(
          "matrix", [] { unique(f32(m23())); }, "unique expects a 1D vector")});
}

}  // namespace

std::vector<OpRow> sorting_rows() {
  return {top_k_row(false), top_k_row(true),    sort_row(false),
          sort_row(true),   searchsorted_row(), unique_row()};
}

}  // namespace tfcc::conformance
