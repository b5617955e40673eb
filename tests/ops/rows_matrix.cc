// Conformance rows of the matrix family, part 1: band_part, norm, l2_normalize, inv, det,
// cholesky, solve and triangular_solve, against the float64 routines of matrix_ref.h. Rows whose
// op needs a well-conditioned matrix (inverse, solves, Cholesky) build it inside the row's
// function (a + 5 I, a a^T + n I), so the gradient column's random redraws stay well posed.
#include <cmath>
#include <limits>

#include "tests/ops/array_ref.h"
#include "tests/ops/matrix_ref.h"
#include "tfcc/ops/matrix/matrix.h"

namespace tfcc::conformance {

std::vector<OpRow> matrix_decomp_rows();

namespace {

using namespace array_ref;
namespace mr = matrix_ref;
namespace la = tfcc::linalg;

const double kInf = std::numeric_limits<double>::infinity();

Tensor shifted(const Tensor& a, double by) {
  const int64_t n = a.shape().dims().back();
  return add(a, multiply(eye(n, std::nullopt, a.dtype()), by));
}

mr::M shifted_ref(mr::M a, int64_t n, double by) {
  for (int64_t i = 0; i < n; ++i) a[size_t(i * n + i)] += by;
  return a;
}

OpRow linalg_row(std::string name, std::vector<std::string> ops, std::vector<Case> cases, ApiFn fn,
                 RefFn ref, std::vector<BadCase> invalid) {
  OpRow row = make_row(std::move(name), std::move(ops), kFloat, std::move(cases), std::move(fn),
                       std::move(ref), std::move(invalid));
  row.rtol32 = 1e-4;
  row.atol32 = 1e-4;
  row.rtol64 = 1e-9;
  row.atol64 = 1e-9;
  return row;
}

OpRow band_part_row() {
  return make_row(
      "band_part", {"MatrixBandPart"}, kAll,
      {{"lower", {filled({4, 4}, 0, 99, 1), int_scalar(-1), int_scalar(0)}, {}},
       {"upper", {filled({3, 5}, 0, 99, 2), int_scalar(0), int_scalar(-1)}, {}},
       {"band", {filled({2, 4, 3}, 0, 99, 3), int_scalar(1), int_scalar(2)}, {}},
       {"diagonal", {filled({3, 3}, 0, 99, 4), int_scalar(0), int_scalar(0)}, {}},
       {"everything", {filled({2, 3}, 0, 99, 5), int_scalar(-1), int_scalar(-1)}, {}},
       {"empty", {shaped({0, 3}, {}), int_scalar(0), int_scalar(0)}, {}},
       {"large", {filled({8, 100, 100}, 0, 99, 6), int_scalar(3), int_scalar(5)}, {}}},
      [](In in) { return single(la::band_part(in[0], ii(in[1]), ii(in[2]))); },
      [](RefIn in, DType) {
        const Ref& x = in[0];
        const int64_t lo = int64_t(in[1].values[0]), up = int64_t(in[2].values[0]);
        const size_t r = x.shape.size();
        return one(build(x, x.shape, [&](const V& c) {
          const int64_t m = c[r - 2], n = c[r - 1];
          const bool keep = (lo < 0 || m - n <= lo) && (up < 0 || n - m <= up);
          return keep ? ravel(c, x.shape) : -1;
        }));
      },
      {bad(
           "rank 1",
           [] {
             la::band_part(f32(vec({1, 2})), 0, 0);
           },
           "must have rank >= 2"),
       bad(
           "num_lower", [] { la::band_part(f32(m23()), 3, 0); },
           "num_lower must be negative or less or equal to number of rows (2) got: 3"),
       bad(
           "num_upper", [] { la::band_part(f32(m23()), 0, 4); },
           "num_upper must be negative or less or equal to number of columns (3) got: 4")});
}

// A norm variant: ord (a string or a number), axes (empty: all), keepdims.
struct NormSpec {
  std::string name;
  std::string sord;  // empty: use `ord`
  double ord;
  std::vector<int64_t> axes;
  bool keepdims;
};

Tensor call_norm(const NormSpec& s, const Tensor& x) {
  Axes axes = s.axes.empty() ? Axes() : Axes(s.axes);
  return s.sord.empty() ? la::norm(x, s.ord, axes, s.keepdims)
                        : la::norm(x, s.sord, axes, s.keepdims);
}

Ref norm_ref(const NormSpec& s, const Ref& x) {
  const int64_t rank = int64_t(x.shape.size());
  std::vector<bool> reduced(size_t(rank), s.axes.empty());
  std::vector<int64_t> axes;
  for (int64_t a : s.axes) {
    axes.push_back(a < 0 ? a + rank : a);
    reduced[size_t(axes.back())] = true;
  }
  V out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[size_t(d)]) {
      out_shape.push_back(x.shape[size_t(d)]);
    } else if (s.keepdims) {
      out_shape.push_back(1);
    }
  }
  // Group the elements of each output position.
  std::vector<std::vector<std::pair<V, double>>> groups(size_t(numel(out_shape)));
  for (int64_t f = 0; f < numel(x.shape); ++f) {
    V c = unravel(f, x.shape), oc;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[size_t(d)]) {
        oc.push_back(c[size_t(d)]);
      } else if (s.keepdims) {
        oc.push_back(0);
      }
    }
    groups[size_t(ravel(oc, out_shape))].push_back({c, x.values[size_t(f)]});
  }
  Ref out{out_shape, {}, std::nullopt};
  const bool matrix = axes.size() == 2;
  for (const auto& g : groups) {
    double v = 0;
    if (!s.sord.empty() || (!matrix && s.ord == 2)) {
      for (const auto& [c, x2] : g) v += x2 * x2;
      v = std::sqrt(v);
    } else if (matrix) {
      // ord 1: max over columns of the column sums; inf: max over rows of the row sums.
      const int64_t sum_axis = s.ord == 1 ? axes[0] : axes[1];
      const int64_t key_axis = s.ord == 1 ? axes[1] : axes[0];
      std::vector<double> sums(size_t(x.shape[size_t(key_axis)]), 0);
      for (const auto& [c, x2] : g) sums[size_t(c[size_t(key_axis)])] += std::fabs(x2);
      (void)sum_axis;
      v = sums.empty() ? 0 : *std::max_element(sums.begin(), sums.end());
    } else if (std::isinf(s.ord)) {
      for (const auto& [c, x2] : g) v = std::max(v, std::fabs(x2));
    } else {
      for (const auto& [c, x2] : g) v += std::pow(std::fabs(x2), s.ord);
      v = std::pow(v, 1 / s.ord);
    }
    out.values.push_back(v);
  }
  return out;
}

OpRow norm_row(NormSpec spec) {
  OpRow row = linalg_row(
      "norm_" + spec.name, {},
      {{"matrix", {filled({3, 4}, -3, 3, 1)}, {}},
       {"rank 3", {filled({2, 3, 4}, -3, 3, 2)}, {}},
       {"large", {filled({40, 300, 20}, -3, 3, 3)}, {}}},
      [spec](In in) { return single(call_norm(spec, in[0])); },
      [spec](RefIn in, DType) { return one(norm_ref(spec, in[0])); },
      {bad(
           "ord string", [] { la::norm(f32(m23()), "nuclear"); }, "ord must be"),
       bad(
           "axis", [] { la::norm(f32(m23()), 2.0, Axes(2)); }, "axis 2 is out of range"),
       bad(
           "three axes",
           [] {
             la::norm(f32(filled({2, 2, 2}, 0, 1)), 2.0, Axes({0, 1, 2}));
           },
           "a pair of distinct integers"),
       bad(
           "matrix ord 3",
           [] {
             la::norm(f32(m23()), 3.0, Axes({0, 1}));
           },
           "a matrix norm (two axes) supports ord 1, 2, inf"),
       bad(
           "int", [] { la::norm(to_tensor(vec({1}), int32)); }, "norm needs a float tensor")});
  row.grad_domain = {0.5, 2.0};  // away from |x|'s kink at 0
  return row;
}

OpRow l2_normalize_row() {
  return linalg_row(
      "l2_normalize", {},
      {{"all", {filled({3, 4}, -3, 3, 1), ints({})}, {}},
       {"axis 1", {filled({3, 4}, -3, 3, 2), ints({1})}, {}},
       {"axes 0 2", {filled({2, 3, 2}, -3, 3, 3), ints({0, 2})}, {}},
       {"zeros use epsilon", {vec({0, 0}), ints({})}, {}},
       {"large", {filled({500, 200}, -3, 3, 4), ints({-1})}, {}}},
      [](In in) {
        V axes = iv(in[1]);
        return single(la::l2_normalize(in[0], axes.empty() ? Axes() : Axes(axes)));
      },
      [](RefIn in, DType) {
        const Ref& x = in[0];
        const int64_t rank = int64_t(x.shape.size());
        V axes = rv(in[1]);
        for (int64_t& a : axes) a = a < 0 ? a + rank : a;
        const Ref n = norm_ref({"", "euclidean", 0, axes, true}, x);
        Ref out = x;
        for (int64_t f = 0; f < numel(x.shape); ++f) {
          V c = unravel(f, x.shape);
          for (int64_t d = 0; d < rank; ++d) {
            if (axes.empty() || std::find(axes.begin(), axes.end(), d) != axes.end())
              c[size_t(d)] = 0;
          }
          const double nv = n.values[size_t(ravel(c, n.shape))];
          out.values[size_t(f)] = x.values[size_t(f)] / std::sqrt(std::max(nv * nv, 1e-12));
        }
        return one(out);
      },
      {bad(
          "int",
          [] {
            la::l2_normalize(to_tensor(vec({1, 2}), int32));
          },
          "l2_normalize needs a float tensor, got int32")});
}

OpRow inv_row() {
  return linalg_row(
      "inv", {"MatrixInverse"},
      {{"3x3", {filled({3, 3}, -2, 2, 1), int_scalar(0)}, {}},
       {"adjoint", {filled({3, 3}, -2, 2, 2), int_scalar(1)}, {}},
       {"batch", {filled({2, 2, 4, 4}, -2, 2, 3), int_scalar(0)}, {}},
       {"1x1", {filled({1, 1}, -2, 2, 4), int_scalar(0)}, {}},
       {"0x0", {shaped({2, 0, 0}, {}), int_scalar(0)}, {}},
       {"large batch", {filled({3000, 3, 3}, -2, 2, 5), int_scalar(0)}, {}}},
      [](In in) { return single(la::inv(shifted(in[0], 5), ii(in[1]) != 0)); },
      [](RefIn in, DType) {
        const bool adj = in[1].values[0] != 0;
        const int64_t n = in[0].shape.back();
        return one(mr::per_matrix(in[0], {n, n}, [&](const mr::M& a, int64_t, int64_t) {
          mr::M s = shifted_ref(a, n, 5);
          if (adj) s = mr::transpose(s, n, n);
          return mr::gauss(s, mr::eye_m(n), n, n).first;
        }));
      },
      {bad(
           "singular",
           [] {
             la::inv(f32(mat({{1, 2}, {2, 4}})));
           },
           "Input is not invertible."),
       bad(
           "not square", [] { la::inv(f32(m23())); }, "Input matrices must be squares"),
       bad(
           "rank 1", [] { la::inv(f32(vec({1}))); }, "must have rank >= 2"),
       bad(
           "int", [] { la::inv(to_tensor(mat({{1}}), int32)); }, "[Op:MatrixInverse]")});
}

OpRow det_row() {
  return linalg_row(
      "det", {"MatrixDeterminant"},
      {{"3x3", {filled({3, 3}, -2, 2, 1)}, {}},
       {"singular", {mat({{1, 2, 3}, {2, 4, 6}, {0, 1, 1}})}, {}},
       {"batch", {filled({2, 3, 4, 4}, -2, 2, 2)}, {}},
       {"0x0 is 1", {shaped({2, 0, 0}, {})}, {}},
       {"large batch", {filled({4000, 3, 3}, -2, 2, 3)}, {}}},
      [](In in) { return single(la::det(in[0])); },
      [](RefIn in, DType) {
        const int64_t n = in[0].shape.back();
        return one(mr::per_matrix(in[0], {}, [&](const mr::M& a, int64_t, int64_t) {
          return mr::M{n == 0 ? 1.0 : mr::gauss(a, mr::M(size_t(n), 0), n, 1).second};
        }));
      },
      {bad(
          "not square", [] { la::det(f32(m23())); }, "Input matrices must be squares")});
}

// a a^T + n I: symmetric positive definite.
Tensor spd(const Tensor& a) {
  return shifted(matmul(a, a, false, true), double(a.shape().dims().back()));
}

OpRow cholesky_row() {
  return linalg_row(
      "cholesky", {"Cholesky"},
      {{"3x3", {filled({3, 3}, -2, 2, 1)}, {}},
       {"batch", {filled({2, 4, 4}, -2, 2, 2)}, {}},
       {"1x1", {filled({1, 1}, -2, 2, 3)}, {}},
       {"0x0", {shaped({0, 0}, {})}, {}},
       {"large batch", {filled({3000, 3, 3}, -2, 2, 4)}, {}}},
      [](In in) { return single(la::cholesky(spd(in[0]))); },
      [](RefIn in, DType) {
        const int64_t n = in[0].shape.back();
        return one(mr::per_matrix(in[0], {n, n}, [&](const mr::M& a, int64_t, int64_t) {
          return mr::cholesky(
              shifted_ref(mr::matmul(a, mr::transpose(a, n, n), n, n, n), n, double(n)), n);
        }));
      },
      {bad(
           "not positive definite",
           [] {
             la::cholesky(f32(mat({{1, 2}, {2, 1}})));
           },
           "Cholesky decomposition was not successful"),
       bad(
           "not square", [] { la::cholesky(f32(m23())); }, "Input matrices must be squares")});
}

// solve / triangular_solve: a, b, adjoint (and lower for the triangular one).
OpRow solve_row(bool triangular) {
  return linalg_row(
      triangular ? "triangular_solve" : "solve",
      {triangular ? "MatrixTriangularSolve" : "MatrixSolve"},
      {{"3x3 @ 3x2",
        {filled({3, 3}, -2, 2, 1), filled({3, 2}, -2, 2, 2), int_scalar(0), int_scalar(1)},
        {}},
       {"adjoint",
        {filled({3, 3}, -2, 2, 3), filled({3, 2}, -2, 2, 4), int_scalar(1), int_scalar(1)},
        {}},
       {"upper",
        {filled({3, 3}, -2, 2, 5), filled({3, 1}, -2, 2, 6), int_scalar(0), int_scalar(0)},
        {}},
       {"upper adjoint",
        {filled({4, 4}, -2, 2, 7), filled({4, 2}, -2, 2, 8), int_scalar(1), int_scalar(0)},
        {}},
       {"batch",
        {filled({2, 3, 3}, -2, 2, 9), filled({2, 3, 2}, -2, 2, 10), int_scalar(0), int_scalar(1)},
        {}},
       {"no columns",
        {filled({3, 3}, -2, 2, 11), shaped({3, 0}, {}), int_scalar(0), int_scalar(1)},
        {}},
       {"large batch",
        {filled({2000, 3, 3}, -2, 2, 12), filled({2000, 3, 2}, -2, 2, 13), int_scalar(0),
         int_scalar(1)},
        {}}},
      [triangular](In in) {
        const bool adj = ii(in[2]) != 0, lower = ii(in[3]) != 0;
        Tensor a = shifted(in[0], 5);
        return single(triangular ? la::triangular_solve(a, in[1], lower, adj)
                                 : la::solve(a, in[1], adj));
      },
      [triangular](RefIn in, DType) {
        const bool adj = in[2].values[0] != 0, lower = in[3].values[0] != 0;
        const int64_t n = in[0].shape.back(), k = in[1].shape.back();
        int64_t batch = 1;
        for (size_t i = 0; i + 2 < in[0].shape.size(); ++i) batch *= in[0].shape[i];
        Ref out{in[1].shape, {}, std::nullopt};
        for (int64_t b = 0; b < batch; ++b) {
          mr::M a(in[0].values.begin() + b * n * n, in[0].values.begin() + (b + 1) * n * n);
          mr::M rhs(in[1].values.begin() + b * n * k, in[1].values.begin() + (b + 1) * n * k);
          a = shifted_ref(a, n, 5);
          if (triangular) {  // only the chosen triangle is read
            for (int64_t i = 0; i < n; ++i) {
              for (int64_t j = 0; j < n; ++j) {
                if (lower ? j > i : j < i) a[size_t(i * n + j)] = 0;
              }
            }
          }
          if (adj) a = mr::transpose(a, n, n);
          mr::M x = mr::gauss(a, rhs, n, k).first;
          out.values.insert(out.values.end(), x.begin(), x.end());
        }
        return one(out);
      },
      {bad(
           "rows",
           [triangular] {
             Tensor a = f32(mat({{1, 0}, {0, 1}})), b = f32(mat({{1}, {2}, {3}}));
             triangular ? la::triangular_solve(a, b) : la::solve(a, b);
           },
           "must have the same number of rows"),
       bad(
           "batch",
           [triangular] {
             Tensor a = f32(shaped({2, 1, 1}, {1, 1})), b = f32(shaped({3, 1, 1}, {1, 1, 1}));
             triangular ? la::triangular_solve(a, b) : la::solve(a, b);
           },
           "batch dimensions of matrix and rhs must be equal"),
       bad(
           "singular",
           [triangular] {
             Tensor a = f32(mat({{0, 0}, {0, 0}})), b = f32(mat({{1}, {2}}));
             triangular ? la::triangular_solve(a, b) : la::solve(a, b);
           },
           "Input matrix is not invertible.")});
}

}  // namespace

std::vector<OpRow> matrix_rows() {
  std::vector<OpRow> rows = {
      band_part_row(),
      norm_row({"default", "euclidean", 0, {}, false}),
      norm_row({"fro_keepdims", "fro", 0, {-2, -1}, true}),
      norm_row({"axis_p2", "", 2, {1}, false}),
      norm_row({"axis_p1_keepdims", "", 1, {-1}, true}),
      norm_row({"p3", "", 3, {0}, false}),
      norm_row({"inf", "", kInf, {}, false}),
      norm_row({"matrix_1", "", 1, {0, 1}, false}),
      norm_row({"matrix_inf_keepdims", "", kInf, {-2, -1}, true}),
      l2_normalize_row(),
      inv_row(),
      det_row(),
      cholesky_row(),
      solve_row(false),
      solve_row(true),
  };
  for (auto& r : matrix_decomp_rows()) rows.push_back(std::move(r));
  return rows;
}

}  // namespace tfcc::conformance
