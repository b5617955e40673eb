// Plain float64 linear algebra for the matrix-family conformance rows (rows_matrix*.cc):
// row-major matrices as vectors, Gaussian elimination, Cholesky, Gram-Schmidt QR and the cyclic
// Jacobi eigenvalue method, written independently of the Eigen kernels they check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "tests/ops/harness.h"

namespace tfcc::conformance::matrix_ref {

using M = std::vector<double>;  // row-major

inline M eye_m(int64_t n) {
  M out(size_t(n * n), 0);
  for (int64_t i = 0; i < n; ++i) out[size_t(i * n + i)] = 1;
  return out;
}

inline M matmul(const M& a, const M& b, int64_t m, int64_t k, int64_t n) {
  M c(size_t(m * n), 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t t = 0; t < k; ++t) s += a[size_t(i * k + t)] * b[size_t(t * n + j)];
      c[size_t(i * n + j)] = s;
    }
  }
  return c;
}

inline M transpose(const M& a, int64_t m, int64_t n) {
  M t(a.size());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) t[size_t(j * m + i)] = a[size_t(i * n + j)];
  }
  return t;
}

// Solves a x = b (a n x n, b n x k) by Gaussian elimination with partial pivoting; also returns
// det(a).
inline std::pair<M, double> gauss(M a, M b, int64_t n, int64_t k) {
  double det = 1;
  for (int64_t col = 0; col < n; ++col) {
    int64_t p = col;
    for (int64_t r = col + 1; r < n; ++r) {
      if (std::fabs(a[size_t(r * n + col)]) > std::fabs(a[size_t(p * n + col)])) p = r;
    }
    if (p != col) {
      det = -det;
      for (int64_t j = 0; j < n; ++j) std::swap(a[size_t(p * n + j)], a[size_t(col * n + j)]);
      for (int64_t j = 0; j < k; ++j) std::swap(b[size_t(p * k + j)], b[size_t(col * k + j)]);
    }
    const double piv = a[size_t(col * n + col)];
    det *= piv;
    if (piv == 0) continue;
    for (int64_t r = col + 1; r < n; ++r) {
      const double f = a[size_t(r * n + col)] / piv;
      for (int64_t j = col; j < n; ++j) a[size_t(r * n + j)] -= f * a[size_t(col * n + j)];
      for (int64_t j = 0; j < k; ++j) b[size_t(r * k + j)] -= f * b[size_t(col * k + j)];
    }
  }
  M x(size_t(n * k), 0);
  for (int64_t r = n - 1; r >= 0; --r) {
    for (int64_t j = 0; j < k; ++j) {
      double s = b[size_t(r * k + j)];
      for (int64_t t = r + 1; t < n; ++t) s -= a[size_t(r * n + t)] * x[size_t(t * k + j)];
      x[size_t(r * k + j)] = s / a[size_t(r * n + r)];
    }
  }
  return {x, det};
}

inline M cholesky(const M& a, int64_t n) {
  M l(size_t(n * n), 0);
  for (int64_t j = 0; j < n; ++j) {
    double d = a[size_t(j * n + j)];
    for (int64_t t = 0; t < j; ++t) d -= l[size_t(j * n + t)] * l[size_t(j * n + t)];
    l[size_t(j * n + j)] = std::sqrt(d);
    for (int64_t i = j + 1; i < n; ++i) {
      double s = a[size_t(i * n + j)];
      for (int64_t t = 0; t < j; ++t) s -= l[size_t(i * n + t)] * l[size_t(j * n + t)];
      l[size_t(i * n + j)] = s / l[size_t(j * n + j)];
    }
  }
  return l;
}

// Thin QR (a m x n, k = min(m, n)) by modified Gram-Schmidt: q m x k, r k x n with r's diagonal
// positive.
inline std::pair<M, M> qr(const M& a, int64_t m, int64_t n) {
  const int64_t k = std::min(m, n);
  M q(size_t(m * k), 0), r(size_t(k * n), 0);
  for (int64_t j = 0; j < k; ++j) {
    std::vector<double> v(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) v[size_t(i)] = a[size_t(i * n + j)];
    for (int64_t t = 0; t < j; ++t) {
      double d = 0;
      for (int64_t i = 0; i < m; ++i) d += q[size_t(i * k + t)] * v[size_t(i)];
      r[size_t(t * n + j)] = d;
      for (int64_t i = 0; i < m; ++i) v[size_t(i)] -= d * q[size_t(i * k + t)];
    }
    double norm = 0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    r[size_t(j * n + j)] = norm;
    for (int64_t i = 0; i < m; ++i) q[size_t(i * k + j)] = v[size_t(i)] / norm;
  }
  // Columns past k (wide matrices): r = q^T a.
  for (int64_t j = k; j < n; ++j) {
    for (int64_t t = 0; t < k; ++t) {
      double d = 0;
      for (int64_t i = 0; i < m; ++i) d += q[size_t(i * k + t)] * a[size_t(i * n + j)];
      r[size_t(t * n + j)] = d;
    }
  }
  return {q, r};
}

// Eigenvalues (ascending) of the symmetric n x n `a`, by cyclic Jacobi rotations.
inline std::vector<double> sym_eigenvalues(M a, int64_t n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = i + 1; j < n; ++j) off += a[size_t(i * n + j)] * a[size_t(i * n + j)];
    }
    if (off < 1e-30) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const double apq = a[size_t(p * n + q)];
        if (std::fabs(apq) < 1e-300) continue;
        const double theta = (a[size_t(q * n + q)] - a[size_t(p * n + p)]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // rotate columns p, q
          const double akp = a[size_t(k * n + p)], akq = a[size_t(k * n + q)];
          a[size_t(k * n + p)] = c * akp - s * akq;
          a[size_t(k * n + q)] = s * akp + c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {  // rotate rows p, q
          const double apk = a[size_t(p * n + k)], aqk = a[size_t(q * n + k)];
          a[size_t(p * n + k)] = c * apk - s * aqk;
          a[size_t(q * n + k)] = s * apk + c * aqk;
        }
      }
    }
  }
  std::vector<double> e;
  for (int64_t i = 0; i < n; ++i) e.push_back(a[size_t(i * n + i)]);
  std::sort(e.begin(), e.end());
  return e;
}

// Applies fn(matrix values, rows, cols) -> values to each matrix of a batch Ref; `out_shape`
// gets the shape of one result (after the batch dims).
inline Ref per_matrix(const Ref& x, std::vector<int64_t> out_tail,
                      const std::function<M(const M&, int64_t, int64_t)>& fn) {
  const size_t r = x.shape.size();
  const int64_t rows = x.shape[r - 2], cols = x.shape[r - 1];
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < r; ++i) batch *= x.shape[i];
  Ref out{std::vector<int64_t>(x.shape.begin(), x.shape.end() - 2), {}, std::nullopt};
  out.shape.insert(out.shape.end(), out_tail.begin(), out_tail.end());
  for (int64_t b = 0; b < batch; ++b) {
    M a(x.values.begin() + b * rows * cols, x.values.begin() + (b + 1) * rows * cols);
    M y = fn(a, rows, cols);
    out.values.insert(out.values.end(), y.begin(), y.end());
  }
  return out;
}

}  // namespace tfcc::conformance::matrix_ref
