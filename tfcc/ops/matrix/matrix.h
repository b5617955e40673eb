// Matrix functions beyond matmul: TensorFlow's tf.linalg band_part, norm, l2_normalize, inv,
// det, cholesky, qr, svd, eigh, solve and triangular_solve, on float32 and float64 (complex
// dtypes are not supported). Every op works on the last two dimensions; leading dimensions are
// batch dimensions. The decompositions run Eigen (what TensorFlow's CPU kernels use), so their
// sign conventions match TensorFlow's.
//
//   namespace la = tfcc::linalg;
//   auto a = tfcc::constant({4., 2., 2., 3.}, std::vector<int64_t>{2, 2});
//   auto l = la::cholesky(a);                  // lower triangular, l @ l^T == a
//   auto x = la::solve(a, tfcc::constant({1., 1.}, std::vector<int64_t>{2, 1}));
//   auto [e, v] = la::eigh(a);                 // ascending eigenvalues, eigenvectors in columns
//   la::norm(a);                               // Frobenius norm
//   la::band_part(a, 0, -1);                   // upper triangle
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>
#include <tuple>
#include <utility>

#include "tfcc/core/tensor.h"
#include "tfcc/ops/axes.h"

namespace tfcc::linalg {

using Loc = std::source_location;

/// Keeps the band of each matrix: element (m, n) stays when (num_lower < 0 or m - n <=
/// num_lower) and (num_upper < 0 or n - m <= num_upper), the rest becomes 0. band_part(x, -1, 0)
/// is the lower triangle.
Tensor band_part(const Tensor& input, int64_t num_lower, int64_t num_upper,
                 Loc loc = Loc::current());

/// The norm of `tensor` (composite): `ord` "euclidean" (default; Frobenius over two axes) or
/// "fro" (two axes or all). With no axis, the vector norm of all elements; one axis: the vector
/// norm along it; two axes: a matrix norm.
Tensor norm(const Tensor& tensor, const std::string& ord = "euclidean", const Axes& axis = {},
            bool keepdims = false, Loc loc = Loc::current());
/// A numeric `ord`: vector norms for any p > 0 and inf (max |x|); matrix norms (two axes) for
/// 1 (max column sum), inf (max row sum) and 2 (largest singular value).
Tensor norm(const Tensor& tensor, double ord, const Axes& axis = {}, bool keepdims = false,
            Loc loc = Loc::current());
/// x / sqrt(max(sum(x^2, axis), epsilon)) (composite); no axis: over all elements.
Tensor l2_normalize(const Tensor& x, const Axes& axis = {}, double epsilon = 1e-12,
                    Loc loc = Loc::current());

/// The inverse of each square matrix (of its adjoint when `adjoint`); InvalidArgumentError
/// "Input is not invertible." for a singular matrix.
Tensor inv(const Tensor& input, bool adjoint = false, Loc loc = Loc::current());
/// The determinant of each square matrix (shape: the batch dimensions).
Tensor det(const Tensor& input, Loc loc = Loc::current());
/// The lower-triangular Cholesky factor L (L @ L^T == input) of each symmetric positive definite
/// matrix; only the lower triangle of input is read. InvalidArgumentError when not positive
/// definite.
Tensor cholesky(const Tensor& input, Loc loc = Loc::current());
/// QR decomposition (q, r) of each [m, n] matrix: q has orthonormal columns, r is upper
/// triangular; `full_matrices`: q is [m, m] and r [m, n], otherwise [m, k] and [k, n] with
/// k = min(m, n).
std::pair<Tensor, Tensor> qr(const Tensor& input, bool full_matrices = false,
                             Loc loc = Loc::current());
/// Singular value decomposition (s, u, v) with input = u @ diag(s) @ v^T, s descending. Without
/// `compute_uv` u and v are empty ([0]).
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& tensor, bool full_matrices = false,
                                       bool compute_uv = true, Loc loc = Loc::current());
/// Eigen decomposition (e, v) of each self-adjoint matrix (only its lower triangle is read):
/// eigenvalues ascending, eigenvectors in v's columns.
std::pair<Tensor, Tensor> eigh(const Tensor& tensor, Loc loc = Loc::current());
/// The eigenvalues alone, ascending (SelfAdjointEigV2 with compute_v false).
Tensor eigvalsh(const Tensor& tensor, Loc loc = Loc::current());
/// x with matrix @ x == rhs (adjoint(matrix) @ x == rhs when `adjoint`); matrix [..., M, M],
/// rhs [..., M, K] with the same batch dimensions.
Tensor solve(const Tensor& matrix, const Tensor& rhs, bool adjoint = false,
             Loc loc = Loc::current());
/// solve() for a triangular matrix: only its lower (`lower`) or upper triangle is read.
Tensor triangular_solve(const Tensor& matrix, const Tensor& rhs, bool lower = true,
                        bool adjoint = false, Loc loc = Loc::current());

/// The matrix transpose of the last two dimensions (the adjoint for real dtypes).
Tensor adjoint(const Tensor& matrix, Loc loc = Loc::current());

}  // namespace tfcc::linalg
#pragma GCC visibility pop
