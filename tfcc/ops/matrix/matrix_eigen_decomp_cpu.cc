// CPU kernels of the spectral decompositions on Eigen: the SVD (JacobiSVD: the algorithm
// Eigen's BDCSVD, which TensorFlow runs, itself uses below 16 columns; far lighter to compile)
// and the self-adjoint eigensolver. Batches run in parallel like matrix_eigen_cpu.cc's.
#define EIGEN_DONT_PARALLELIZE  // tfcc parallelises over the batch
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "tfcc/ops/matrix/matrix_eigen_util.h"

namespace tfcc {
namespace {

using namespace matrix_eigen;

template <typename T>
void svd_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const bool uv = c.attr<bool>("compute_uv"), full = c.attr<bool>("full_matrices");
  Tensor& s_t = c.allocate_output(0);
  Tensor& u_t = c.allocate_output(1);
  Tensor& v_t = c.allocate_output(2);
  const Dims d = dims_of(in);
  const int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const int64_t uc = full ? m : k, vc = full ? n : k;
  const unsigned options = !uv    ? 0u
                           : full ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                  : Eigen::ComputeThinU | Eigen::ComputeThinV;
  for_each_matrix(d.batch, m * n * k, [&](int64_t b) {
    In<T> a(in.data<T>() + b * m * n, m, n);
    Vec<T> s(s_t.mutable_data<T>() + b * k, k);
    if (m == 0 || n == 0) {
      if (uv) {
        Out<T>(u_t.mutable_data<T>() + b * m * uc, m, uc).setIdentity();
        Out<T>(v_t.mutable_data<T>() + b * n * vc, n, vc).setIdentity();
      }
      return true;
    }
    Eigen::JacobiSVD<Mat<T>> svd(a, options);
    s = svd.singularValues();
    if (uv) {
      Out<T>(u_t.mutable_data<T>() + b * m * uc, m, uc) = svd.matrixU();
      Out<T>(v_t.mutable_data<T>() + b * n * vc, n, vc) = svd.matrixV();
    }
    return true;
  });
}

template <typename T>
void eigh_kernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const bool want_v = c.attr<bool>("compute_v");
  Tensor& e_t = c.allocate_output(0);
  Tensor& v_t = c.allocate_output(1);
  const Dims d = dims_of(in);
  const int64_t n = d.rows, nn = n * n;
  const int64_t bad = for_each_matrix(d.batch, nn * n, [&](int64_t b) {
    In<T> a(in.data<T>() + b * nn, n, n);
    if (n == 0) return true;
    Eigen::SelfAdjointEigenSolver<Mat<T>> es(
        a, want_v ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success) return false;
    Vec<T>(e_t.mutable_data<T>() + b * n, n) = es.eigenvalues();
    if (want_v) Out<T>(v_t.mutable_data<T>() + b * nn, n, n) = es.eigenvectors();
    return true;
  });
  if (bad >= 0) c.fail("Self-adjoint eigen decomposition was not successful" + which(bad, d.batch));
}

}  // namespace

KernelFn matrix_eigen_decomp_cpu_kernel(const std::string& op, DType dtype) {
  return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
    if constexpr (std::is_floating_point_v<T>) {
      if (op == "Svd") return svd_kernel<T>;
      if (op == "SelfAdjointEigV2") return eigh_kernel<T>;
    }
    return nullptr;
  });
}

}  // namespace tfcc
