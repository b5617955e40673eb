// CPU kernels of the LU, Cholesky and QR based matrix ops, on Eigen (the library TensorFlow's
// CPU kernels use, so results, signs included, follow the same algorithms): LU for inverse,
// determinant and solve; LLT for Cholesky; Householder QR. Each matrix of a batch is mapped in
// place (row-major) and solved independently; batches run in parallel and a failure (a singular
// matrix) is reported after the loop, naming the first failing matrix.
#define EIGEN_DONT_PARALLELIZE  // tfcc parallelises over the batch
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>

#include "tfcc/ops/matrix/matrix_eigen_util.h"

namespace tfcc {
namespace {

using namespace matrix_eigen;

template <typename T>
void inverse_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const Dims d = dims_of(in);
  const int64_t n = d.rows, nn = n * n;
  const bool adjoint = c.attr<bool>("adjoint");
  const int64_t bad = for_each_matrix(d.batch, nn * n, [&](int64_t b) {
    In<T> a(in.data<T>() + b * nn, n, n);
    Out<T> y(out.mutable_data<T>() + b * nn, n, n);
    if (n == 0) return true;
    Eigen::PartialPivLU<Mat<T>> lu =
        adjoint ? Eigen::PartialPivLU<Mat<T>>(a.transpose()) : Eigen::PartialPivLU<Mat<T>>(a);
    // TensorFlow's test: a zero pivot means singular.
    if (lu.matrixLU().diagonal().cwiseAbs().minCoeff() == T(0)) return false;
    y = lu.inverse();
    return true;
  });
  if (bad >= 0) c.fail("Input is not invertible" + which(bad, d.batch) + ".");
}

template <typename T>
void determinant_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const Dims d = dims_of(in);
  const int64_t n = d.rows, nn = n * n;
  T* y = out.mutable_data<T>();
  for_each_matrix(d.batch, nn * n, [&](int64_t b) {
    In<T> a(in.data<T>() + b * nn, n, n);
    y[b] = n == 0 ? T(1) : Eigen::PartialPivLU<Mat<T>>(a).determinant();
    return true;
  });
}

template <typename T>
void cholesky_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocate_output(0);
  const Dims d = dims_of(in);
  const int64_t n = d.rows, nn = n * n;
  const int64_t bad = for_each_matrix(d.batch, nn * n, [&](int64_t b) {
    In<T> a(in.data<T>() + b * nn, n, n);
    Out<T> y(out.mutable_data<T>() + b * nn, n, n);
    if (n == 0) return true;
    Eigen::LLT<Mat<T>, Eigen::Lower> llt(a);
    if (llt.info() != Eigen::Success) return false;
    y = llt.matrixL();
    return true;
  });
  if (bad >= 0) {
    c.fail("Cholesky decomposition was not successful" + which(bad, d.batch) +
           ": the input is not symmetric positive definite.");
  }
}

template <typename T>
void qr_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& q_t = c.allocate_output(0);
  Tensor& r_t = c.allocate_output(1);
  const Dims d = dims_of(in);
  const int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const bool full = c.attr<bool>("full_matrices");
  const int64_t qc = full ? m : k, rr = full ? m : k;
  for_each_matrix(d.batch, m * n * k, [&](int64_t b) {
    In<T> a(in.data<T>() + b * m * n, m, n);
    Out<T> q(q_t.mutable_data<T>() + b * m * qc, m, qc);
    Out<T> r(r_t.mutable_data<T>() + b * rr * n, rr, n);
    if (m == 0 || n == 0) {
      q.setIdentity();
      r.setZero();
      return true;
    }
    Eigen::HouseholderQR<Mat<T>> qr(a);
    r = qr.matrixQR().topRows(rr).template triangularView<Eigen::Upper>();
    q = qr.householderQ() * Mat<T>::Identity(m, qc);
    return true;
  });
}

template <typename T>
void solve_kernel(KernelContext& c) {
  const Tensor &a_t = c.input(0), &b_t = c.input(1);
  if (dims_of(a_t).batch != dims_of(b_t).batch) {
    c.fail("The batch dimensions of matrix and rhs must be equal: " + a_t.shape().to_string() +
           " vs. " + b_t.shape().to_string());
  }
  const Dims d = dims_of(b_t), da = dims_of(a_t);
  if (da.rows != da.cols || da.rows != d.rows) {
    c.fail("matrix must be square with as many rows as rhs: " + a_t.shape().to_string() + " vs. " +
           b_t.shape().to_string());
  }
  Tensor& out = c.allocate_output(0, b_t.shape());
  const int64_t n = d.rows, k = d.cols;
  const bool adjoint = c.attr<bool>("adjoint");
  const bool triangular = c.op().name() == "MatrixTriangularSolve";
  const bool lower = triangular && c.attr<bool>("lower");
  const int64_t bad = for_each_matrix(d.batch, n * n * (n + k), [&](int64_t b) {
    In<T> a(a_t.data<T>() + b * n * n, n, n);
    In<T> rhs(b_t.data<T>() + b * n * k, n, k);
    Out<T> x(out.mutable_data<T>() + b * n * k, n, k);
    if (n == 0 || k == 0) return true;
    if (triangular) {
      // A singular triangular matrix has a zero on its diagonal.
      if (a.diagonal().cwiseAbs().minCoeff() == T(0)) return false;
      if (lower) {
        x = adjoint ? Mat<T>(a.transpose().template triangularView<Eigen::Upper>().solve(rhs))
                    : Mat<T>(a.template triangularView<Eigen::Lower>().solve(rhs));
      } else {
        x = adjoint ? Mat<T>(a.transpose().template triangularView<Eigen::Lower>().solve(rhs))
                    : Mat<T>(a.template triangularView<Eigen::Upper>().solve(rhs));
      }
      return true;
    }
    Eigen::PartialPivLU<Mat<T>> lu =
        adjoint ? Eigen::PartialPivLU<Mat<T>>(a.transpose()) : Eigen::PartialPivLU<Mat<T>>(a);
    if (lu.matrixLU().diagonal().cwiseAbs().minCoeff() == T(0)) return false;
    x = lu.solve(rhs);
    return true;
  });
  if (bad >= 0) c.fail("Input matrix is not invertible" + which(bad, d.batch) + ".");
}

}  // namespace

KernelFn matrix_eigen_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "Svd" || op == "SelfAdjointEigV2") return matrix_eigen_decomp_cpu_kernel(op, dtype);
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_floating_point_v<T>) {
      if (op == "MatrixInverse") return inverse_kernel<T>;
      if (op == "MatrixDeterminant") return determinant_kernel<T>;
      if (op == "Cholesky") return cholesky_kernel<T>;
      if (op == "Qr") return qr_kernel<T>;
      if (op == "MatrixSolve" || op == "MatrixTriangularSolve") return solve_kernel<T>;
    }
    return nullptr;
  });
}

}  // namespace tfcc
