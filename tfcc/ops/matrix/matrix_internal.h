// Between the matrix family's definitions (matrix.cc), gradient rules (matrix_grad.cc) and
// kernels (matrix_cpu.cc: band part; matrix_eigen_cpu.cc and matrix_eigen_decomp_cpu.cc: the Eigen
// decompositions).
#pragma once

#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of matrix op `op` for `dtype`, or nullptr.
KernelFn matrix_cpu_kernel(const std::string& op, DType dtype);
/// The Eigen-backed kernels (MatrixInverse, MatrixDeterminant, Cholesky, Qr, MatrixSolve,
/// MatrixTriangularSolve; Svd and SelfAdjointEigV2 through the next), or nullptr.
KernelFn matrix_eigen_cpu_kernel(const std::string& op, DType dtype);
/// The Svd and SelfAdjointEigV2 kernels (matrix_eigen_decomp_cpu.cc), or nullptr.
KernelFn matrix_eigen_decomp_cpu_kernel(const std::string& op, DType dtype);

// Gradient rules (TensorFlow's linalg_grad.py formulas, written with ops).
std::vector<Tensor> matrix_inverse_grad(const GradContext& g);
std::vector<Tensor> matrix_determinant_grad(const GradContext& g);
std::vector<Tensor> cholesky_grad(const GradContext& g);
std::vector<Tensor> qr_grad(const GradContext& g);
std::vector<Tensor> svd_grad(const GradContext& g);
std::vector<Tensor> eigh_grad(const GradContext& g);
std::vector<Tensor> matrix_solve_grad(const GradContext& g);
std::vector<Tensor> triangular_solve_grad(const GradContext& g);

}  // namespace tfcc
