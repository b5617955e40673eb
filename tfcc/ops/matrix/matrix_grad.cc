// Gradient rules of the matrix decompositions: TensorFlow's formulas (linalg_grad.py), written
// with ops so they run in traced functions and can be differentiated again. Real dtypes only.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/matrix/matrix.h"
#include "tfcc/ops/matrix/matrix_internal.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

using linalg::adjoint;
using linalg::band_part;

// The static size of the last dimension (the gradients build identity matrices from it).
int64_t last_dim(const Tensor& t, const char* what) { return static_dims(t, what).back(); }

Tensor eye_like(int64_t n, const Tensor& like) { return eye(n, std::nullopt, like.dtype()); }

// diag(v): [..., n] -> [..., n, n].
Tensor matrix_diag(const Tensor& v, int64_t n) {
  return multiply(expand_dims(v, -1), eye_like(n, v));
}

// x with its diagonal replaced by 0.
Tensor zero_diag(const Tensor& x, int64_t n) { return multiply(x, subtract(1, eye_like(n, x))); }

// 1/x where x != 0, else 0 (TensorFlow's _SafeReciprocal, with its epsilon of 0).
Tensor safe_reciprocal(const Tensor& x) {
  Tensor nonzero = not_equal(x, 0);
  return where(nonzero, reciprocal(where(nonzero, x, ones_like(x))), zeros_like(x));
}

// x @ inv(r)^T for upper-triangular r (TensorFlow's _TriangularSolve), by a triangular solve
// on the adjoints.
Tensor right_solve_upper(const Tensor& x, const Tensor& r) {
  return adjoint(linalg::triangular_solve(r, adjoint(x), /*lower=*/false, /*adjoint=*/false));
}

}  // namespace

std::vector<Tensor> matrix_inverse_grad(const GradContext& g) {
  const Tensor &ainv = g.outputs[0], &dy = g.grads[0];
  const bool adj = g.attrs.get<bool>("adjoint");
  return {negative(matmul(ainv, matmul(dy, ainv, adj, !adj), !adj, false))};
}

std::vector<Tensor> matrix_determinant_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &det = g.outputs[0], &dy = g.grads[0];
  Tensor scale = expand_dims(expand_dims(multiply(dy, det), -1), -1);
  return {multiply(scale, linalg::inv(a, /*adjoint=*/true))};
}

std::vector<Tensor> cholesky_grad(const GradContext& g) {
  const Tensor &l = g.outputs[0], &dl = g.grads[0];
  const int64_t n = last_dim(l, "The gradient of cholesky");
  Tensor eye_n = eye_like(n, l);
  std::vector<int64_t> dims = static_dims(l, "The gradient of cholesky");
  Tensor l_inv = linalg::triangular_solve(l, broadcast_to(eye_n, dims), /*lower=*/true);
  Tensor middle = matmul(l, dl, true, false);
  middle = band_part(subtract(middle, multiply(multiply(middle, eye_n), 0.5)), -1, 0);
  Tensor ga = matmul(matmul(l_inv, middle, true, false), l_inv);
  return {multiply(add(ga, adjoint(ga)), 0.5)};
}

std::vector<Tensor> qr_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &q = g.outputs[0], &r = g.outputs[1];
  const Tensor &dq = g.grads[0], &dr = g.grads[1];
  const std::vector<int64_t> dims = static_dims(a, "The gradient of qr");
  const int64_t m = dims[dims.size() - 2], n = dims.back();
  if (m < n || (g.attrs.get<bool>("full_matrices") && m > n)) {
    throw UnimplementedError(internal::str_cat(
        "The gradient of qr is implemented for matrices with rows >= columns (and "
        "full_matrices=false when rows > columns), as in TensorFlow; got shape [",
        m, ", ", n, "]"));
  }
  Tensor qdq = matmul(q, dq, true, false);
  Tensor qdq_ = subtract(qdq, adjoint(qdq));
  Tensor rdr = matmul(r, dr, false, true);
  Tensor rdr_ = subtract(rdr, adjoint(rdr));
  Tensor tril = band_part(add(qdq_, rdr_), -1, 0);
  Tensor ga = matmul(q, add(dr, right_solve_upper(tril, r)));
  Tensor gb = right_solve_upper(subtract(dq, matmul(q, qdq)), r);
  return {add(ga, gb)};
}

std::vector<Tensor> eigh_grad(const GradContext& g) {
  const Tensor &e = g.outputs[0], &de = g.grads[0];
  const int64_t n = last_dim(g.inputs[0], "The gradient of eigh");
  if (!g.attrs.get<bool>("compute_v")) {
    // Only eigenvalues: recompute the vectors, d a = v diag(de) v^T.
    Tensor v = linalg::eigh(g.inputs[0]).second;
    return {matmul(v, matmul(matrix_diag(de, n), v, false, true))};
  }
  const Tensor &v = g.outputs[1], &dv = g.grads[1];
  Tensor f = zero_diag(safe_reciprocal(subtract(expand_dims(e, -2), expand_dims(e, -1))), n);
  Tensor inner = add(matrix_diag(de, n), multiply(f, matmul(v, dv, true, false)));
  Tensor ga = matmul(v, matmul(inner, v, false, true));
  // Only the lower triangle is read: fold the upper part's gradient onto it.
  ga = band_part(add(ga, adjoint(ga)), -1, 0);
  Tensor eye_n = eye_like(n, ga);
  return {subtract(ga, multiply(multiply(ga, eye_n), 0.5))};
}

std::vector<Tensor> svd_grad(const GradContext& g) {
  const Tensor& a = g.inputs[0];
  const std::vector<int64_t> dims = static_dims(a, "The gradient of svd");
  int64_t m = dims[dims.size() - 2], n = dims.back();
  const Tensor& ds = g.grads[0];
  if (!g.attrs.get<bool>("compute_uv")) {
    auto [s, u, v] = linalg::svd(a, false, true);
    return {matmul(u, matmul(matrix_diag(ds, std::min(m, n)), v, false, true))};
  }
  if (g.attrs.get<bool>("full_matrices") && m != n) {
    throw UnimplementedError(internal::str_cat(
        "The gradient of svd with full_matrices=true needs square matrices, got [", m, ", ", n,
        "]"));
  }
  Tensor s = g.outputs[0], u = g.outputs[1], v = g.outputs[2];
  Tensor du = g.grads[1], dv = g.grads[2];
  const bool flip = m > n;  // work on the adjoint so that m <= n
  if (flip) {
    std::swap(m, n);
    std::swap(u, v);
    std::swap(du, dv);
  }
  Tensor s_mat = matrix_diag(s, m);
  Tensor s2 = square(s);
  Tensor f = zero_diag(safe_reciprocal(subtract(expand_dims(s2, -2), expand_dims(s2, -1))), m);
  Tensor s_inv_mat = matrix_diag(safe_reciprocal(s), m);
  Tensor f_u = multiply(f, matmul(u, du, true, false));
  Tensor f_v = multiply(f, matmul(v, dv, true, false));
  Tensor term1_nouv = add(add(matrix_diag(ds, m), matmul(add(f_u, adjoint(f_u)), s_mat)),
                          matmul(s_mat, add(f_v, adjoint(f_v))));
  Tensor ga = matmul(u, matmul(term1_nouv, v, false, true));
  if (m != n) {
    Tensor gv1t = adjoint(dv);
    Tensor term2_nous = subtract(gv1t, matmul(matmul(gv1t, v), v, false, true));
    ga = add(ga, matmul(matmul(u, s_inv_mat), term2_nous));
  }
  return {flip ? adjoint(ga) : ga};
}

std::vector<Tensor> matrix_solve_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &x = g.outputs[0], &dy = g.grads[0];
  const bool adj = g.attrs.get<bool>("adjoint");
  Tensor gb = linalg::solve(a, dy, !adj);
  Tensor ga = adj ? negative(matmul(x, gb, false, true)) : negative(matmul(gb, x, false, true));
  return {ga, gb};
}

std::vector<Tensor> triangular_solve_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &x = g.outputs[0], &dy = g.grads[0];
  const bool adj = g.attrs.get<bool>("adjoint"), lower = g.attrs.get<bool>("lower");
  Tensor gb = linalg::triangular_solve(a, dy, lower, !adj);
  Tensor ga = adj ? negative(matmul(x, gb, false, true)) : negative(matmul(gb, x, false, true));
  return {lower ? band_part(ga, -1, 0) : band_part(ga, 0, -1), gb};
}

}  // namespace tfcc
