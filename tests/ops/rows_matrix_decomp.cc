// Conformance rows of the matrix family, part 2: qr, svd and eigh. A decomposition is unique
// only up to signs (and, for repeated values, rotations), so the rows compare what is unique:
// qr's factors with r's diagonal made positive (Gram-Schmidt's convention), the reconstruction
// and q^T q for full_matrices, singular values and eigenvalues (cyclic Jacobi on a^T a or on
// the symmetric input) and the reconstructions u diag(s) v^T and v diag(e) v^T.
#include <algorithm>
#include <cmath>

#include "tests/ops/array_ref.h"
#include "tests/ops/matrix_ref.h"
#include "tfcc/ops/matrix/matrix.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;
namespace mr = matrix_ref;
namespace la = tfcc::linalg;

OpRow decomp_row(std::string name, std::vector<std::string> ops, std::vector<Case> cases, ApiFn fn,
                 RefFn ref, std::vector<BadCase> invalid) {
  OpRow row = make_row(std::move(name), std::move(ops), kFloat, std::move(cases), std::move(fn),
                       std::move(ref), std::move(invalid));
  row.rtol32 = 1e-4;
  row.atol32 = 2e-4;
  row.rtol64 = 1e-9;
  row.atol64 = 1e-9;
  return row;
}

int64_t last(const Tensor& t, int from_end) { return t.shape().dim(t.rank() - from_end); }

// diag(v) for the last axis of v.
Tensor diag(const Tensor& v) {
  return multiply(expand_dims(v, -1), eye(last(v, 1), std::nullopt, v.dtype()));
}

// The sign of r's diagonal entries: [..., k].
Tensor diag_sign(const Tensor& r) {
  const int64_t k = last(r, 2), n = last(r, 1);
  Tensor d = reduce_sum(multiply(r, eye(k, n, r.dtype())), -1);
  return where(less(d, 0), fill({}, -1, r.dtype()), fill({}, 1, r.dtype()));
}

BadCase rank1(const std::string& what, std::function<void()> call) {
  return bad(what + " rank 1", std::move(call), "must have rank >= 2");
}

OpRow qr_row() {
  OpRow row = decomp_row(
      "qr", {"Qr"},
      {{"tall", {filled({4, 3}, -2, 2, 1)}, {}},
       {"square", {filled({3, 3}, -2, 2, 2)}, {}},
       {"batch", {filled({2, 3, 2}, -2, 2, 3)}, {}},
       // TensorFlow has no gradient for wide matrices (rows < columns) either.
       {"wide", {filled({2, 4}, -2, 2, 4)}, {}, false},
       {"large batch", {filled({2000, 4, 3}, -2, 2, 5)}, {}}},
      [](In in) {
        auto [q, r] = la::qr(in[0]);
        Tensor s = diag_sign(r);
        return std::vector<Tensor>{multiply(q, expand_dims(s, -2)),
                                   multiply(r, expand_dims(s, -1))};
      },
      [](RefIn in, DType) {
        const int64_t m = in[0].shape[in[0].shape.size() - 2], n = in[0].shape.back();
        const int64_t k = std::min(m, n);
        Ref q = mr::per_matrix(in[0], {m, k}, [](const mr::M& a, int64_t rows, int64_t cols) {
          return mr::qr(a, rows, cols).first;
        });
        Ref r = mr::per_matrix(in[0], {k, n}, [](const mr::M& a, int64_t rows, int64_t cols) {
          return mr::qr(a, rows, cols).second;
        });
        return std::vector<Ref>{q, r};
      },
      {rank1("qr",
             [] {
               la::qr(f32(vec({1, 2})));
             }),
       bad(
           "int", [] { la::qr(to_tensor(m23(), int32)); }, "[Op:Qr]")});
  return row;
}

OpRow qr_full_row() {
  return decomp_row(
      "qr_full", {"Qr"},
      {{"square", {filled({3, 3}, -2, 2, 1)}, {}},
       // TensorFlow's gradient of a full QR exists only for square matrices.
       {"tall", {filled({4, 2}, -2, 2, 2)}, {}, false},
       {"wide", {filled({2, 3}, -2, 2, 3)}, {}, false}},
      [](In in) {
        auto [q, r] = la::qr(in[0], true);
        return std::vector<Tensor>{matmul(q, r), matmul(q, q, true, false)};
      },
      [](RefIn in, DType) {
        const int64_t m = in[0].shape[in[0].shape.size() - 2];
        return std::vector<Ref>{in[0], shaped({m, m}, mr::eye_m(m))};
      },
      {bad(
          "int", [] { la::qr(to_tensor(m23(), int32), true); }, "[Op:Qr]")});
}

// Singular values (descending) of one matrix: square roots of the eigenvalues of the smaller
// Gram matrix.
mr::M singular_values(const mr::M& a, int64_t m, int64_t n) {
  mr::M at = mr::transpose(a, m, n);
  mr::M gram = m >= n ? mr::matmul(at, a, n, m, n) : mr::matmul(a, at, m, n, m);
  std::vector<double> e = mr::sym_eigenvalues(gram, std::min(m, n));
  mr::M s;
  for (auto it = e.rbegin(); it != e.rend(); ++it) s.push_back(std::sqrt(std::max(*it, 0.0)));
  return s;
}

OpRow svd_row(bool compute_uv) {
  return decomp_row(
      compute_uv ? "svd" : "svd_values", {"Svd"},
      {{"square", {filled({3, 3}, -2, 2, 1)}, {}},
       {"tall", {filled({4, 2}, -2, 2, 2)}, {}},
       {"wide", {filled({2, 4}, -2, 2, 3)}, {}},
       {"batch", {filled({2, 3, 3}, -2, 2, 4)}, {}},
       {"large batch", {filled({2000, 3, 2}, -2, 2, 5)}, {}}},
      [compute_uv](In in) {
        auto [s, u, v] = la::svd(in[0], false, compute_uv);
        if (!compute_uv) return single(s);
        return std::vector<Tensor>{s, matmul(u, matmul(diag(s), v, false, true))};
      },
      [compute_uv](RefIn in, DType) {
        const int64_t m = in[0].shape[in[0].shape.size() - 2], n = in[0].shape.back();
        Ref s = mr::per_matrix(in[0], {std::min(m, n)}, singular_values);
        if (!compute_uv) return one(s);
        return std::vector<Ref>{s, in[0]};
      },
      {rank1("svd",
             [] {
               la::svd(f32(vec({1, 2})));
             }),
       bad(
           "int", [] { la::svd(to_tensor(m23(), int32)); }, "[Op:Svd]")});
}

// (a + a^T) / 2: the rows feed eigh symmetric matrices.
Tensor sym(const Tensor& a) { return multiply(add(a, la::adjoint(a)), 0.5); }

OpRow eigh_row(bool vectors) {
  return decomp_row(
      vectors ? "eigh" : "eigvalsh", {"SelfAdjointEigV2"},
      {{"3x3", {filled({3, 3}, -2, 2, 1)}, {}},
       {"batch", {filled({2, 4, 4}, -2, 2, 2)}, {}},
       {"1x1", {filled({1, 1}, -2, 2, 3)}, {}},
       {"large batch", {filled({2000, 3, 3}, -2, 2, 4)}, {}}},
      [vectors](In in) {
        if (!vectors) return single(la::eigvalsh(sym(in[0])));
        auto [e, v] = la::eigh(sym(in[0]));
        return std::vector<Tensor>{e, matmul(v, matmul(diag(e), v, false, true))};
      },
      [vectors](RefIn in, DType) {
        const int64_t n = in[0].shape.back();
        auto symmetric = [n](const mr::M& a) {
          mr::M s = a, t = mr::transpose(a, n, n);
          for (size_t i = 0; i < s.size(); ++i) s[i] = (s[i] + t[i]) / 2;
          return s;
        };
        Ref e = mr::per_matrix(in[0], {n}, [&](const mr::M& a, int64_t, int64_t) {
          return mr::sym_eigenvalues(symmetric(a), n);
        });
        if (!vectors) return one(e);
        Ref s = mr::per_matrix(in[0], {n, n},
                               [&](const mr::M& a, int64_t, int64_t) { return symmetric(a); });
        return std::vector<Ref>{e, s};
      },
      {bad(
           "not square", [] { la::eigh(f32(m23())); }, "Input matrices must be squares"),
       rank1("eigh", [] { la::eigh(f32(vec({1}))); })});
}

}  // namespace

std::vector<OpRow> matrix_decomp_rows() {
  return {qr_row(), qr_full_row(), svd_row(true), svd_row(false), eigh_row(true), eigh_row(false)};
}

}  // namespace tfcc::conformance
