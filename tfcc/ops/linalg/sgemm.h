// tfcc's own float32 matrix product for AVX-512 CPUs: C = op(A) op(B), row-major.
//
// oneDNN 2.6's dnnl_sgemm runs at 0.77-0.80 of the FMA peak on the AVX-512 Xeons this project is
// built on (BENCHMARKS.md); this kernel is the classic blocked design (B packed into L1-sized
// column slivers, A into L2-sized row blocks, a 6 x 64 register tile, OpenMP threads over row
// blocks) and is what linalg_cpu.cc calls for large single products when the CPU has AVX-512.
//
//   std::vector<float> ws(tfcc::sgemm::workspace_floats(m, n, k, threads));
//   if (tfcc::sgemm::available())
//     tfcc::sgemm::multiply({m, n, k, false, false}, a, k, b, n, c, n, ws.data(), threads);
#pragma once

#include <cstdint>

namespace tfcc::sgemm {

/// Shape of C[m, n] = op(A)[m, k] op(B)[k, n]; `ta` / `tb` mean A / B are stored transposed.
struct Dims {
  int64_t m = 0, n = 0, k = 0;
  bool ta = false, tb = false;
};

/// True when this build has the AVX-512 kernel (compiled with -mavx512f, i.e. -march=native on an
/// AVX-512 machine). Without it, multiply() must not be called.
bool available();

/// Floats of scratch memory multiply() needs for these dims on `threads` threads.
int64_t workspace_floats(const Dims& d, int threads);

/// C = op(A) op(B) (C is overwritten). lda / ldb / ldc are the row strides of A, B, C as stored
/// (for a transposed A stored [k, m], lda >= m). `workspace` holds workspace_floats(d, threads)
/// floats, 64-byte aligned. Runs an OpenMP team of `threads` (1 = the calling thread only).
void multiply(const Dims& d, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
              int64_t ldc, float* workspace, int threads);

}  // namespace tfcc::sgemm
