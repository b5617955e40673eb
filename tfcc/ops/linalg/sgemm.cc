// The blocked AVX-512 sgemm of sgemm.h. Loop nest (Goto / BLIS order), for C = A B row-major:
//   jc over N in kNc columns:
//     pc over K in kKc:          pack B[pc:, jc:] into slivers of kNr columns (shared, L3/L2)
//       ic over this thread's rows in kMc:   pack A[ic:, pc:] into slivers of kMr rows (L2)
//         jr over B slivers:   (one B sliver, kKc x kNr floats, read from L2)
//           ir over A slivers: the kMr x kNr register tile, kc rank-1 updates
// Threads split the rows of C (whole kMr tiles each) and pack each B panel together.
#include "tfcc/ops/linalg/sgemm.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace tfcc::sgemm {

#if defined(__AVX512F__)

namespace {

// The register tile is kMr x kNr: 24 accumulators, 4 B vectors and a broadcast A value. Measured
// on the AVX-512 Xeon (1 thread, n = 2048, against dnnl_sgemm): 6 x 64 0.95-0.97, 8 x 48 0.92,
// 7 x 64 0.97, 14 x 32 0.90, 12 x 32 0.88 (wider tiles load less per FMA).
constexpr int64_t kMr = 6;         // rows of the register tile
constexpr int64_t kNv = 4;         // 16-float vectors across the register tile
constexpr int64_t kNr = 16 * kNv;  // columns of the register tile
// Depth of a panel: a B sliver is kKc x kNr floats (128 KiB, in L2); a longer depth makes fewer
// passes over C (kKc = 256: 3 points slower, 384: 1 point).
constexpr int64_t kKc = 512;
constexpr int64_t kMc = kMr * 40;  // rows of a packed A block (480 KiB, in L2)
constexpr int64_t kNc = 3072;

int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

__mmask16 lanes(int64_t count) {
  return count >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << std::max<int64_t>(count, 0)) - 1);
}

// The shuffles with every lane selected and a zero source: the unmasked intrinsics pass
// _mm512_undefined_ps(), which GCC 12 reports as maybe-uninitialized once inlined.
inline __m512 unpacklo(__m512 a, __m512 b) {
  return _mm512_mask_unpacklo_ps(_mm512_setzero_ps(), 0xFFFF, a, b);
}
inline __m512 unpackhi(__m512 a, __m512 b) {
  return _mm512_mask_unpackhi_ps(_mm512_setzero_ps(), 0xFFFF, a, b);
}
inline __m512 unpacklo64(__m512 a, __m512 b) {
  return _mm512_castpd_ps(
      _mm512_mask_unpacklo_pd(_mm512_setzero_pd(), 0xFF, _mm512_castps_pd(a), _mm512_castps_pd(b)));
}
inline __m512 unpackhi64(__m512 a, __m512 b) {
  return _mm512_castpd_ps(
      _mm512_mask_unpackhi_pd(_mm512_setzero_pd(), 0xFF, _mm512_castps_pd(a), _mm512_castps_pd(b)));
}
template <int kImm>
inline __m512 shuffle128(__m512 a, __m512 b) {
  return _mm512_mask_shuffle_f32x4(_mm512_setzero_ps(), 0xFFFF, a, b, kImm);
}

// o[p] = {src[r * ld + p] for r < 16} for p < 16, rows r >= `rows` read as zero: a 16 x 16
// register transpose.
inline void transpose16(const float* src, int64_t ld, int64_t rows, __m512 o[16]) {
  __m512 r[16];
#pragma GCC unroll 16
  for (int64_t i = 0; i < 16; ++i)
    r[i] = i < rows ? _mm512_loadu_ps(src + i * ld) : _mm512_setzero_ps();
  __m512 t[16];
#pragma GCC unroll 8
  for (int i = 0; i < 16; i += 2) {
    t[i] = unpacklo(r[i], r[i + 1]);
    t[i + 1] = unpackhi(r[i], r[i + 1]);
  }
#pragma GCC unroll 4
  for (int i = 0; i < 16; i += 4) {
    r[i] = unpacklo64(t[i], t[i + 2]);
    r[i + 1] = unpackhi64(t[i], t[i + 2]);
    r[i + 2] = unpacklo64(t[i + 1], t[i + 3]);
    r[i + 3] = unpackhi64(t[i + 1], t[i + 3]);
  }
  // Now r[4q + s] holds, in 128-bit lane L, rows 4q..4q+3 at column 4L + s; column 4L + s of the
  // result is lane L of r[s], r[4 + s], r[8 + s], r[12 + s].
#pragma GCC unroll 4
  for (int s = 0; s < 4; ++s) {
    const __m512 e = shuffle128<0x88>(r[s], r[4 + s]);  // A0 A2 B0 B2
    const __m512 f = shuffle128<0xDD>(r[s], r[4 + s]);  // A1 A3 B1 B3
    const __m512 g = shuffle128<0x88>(r[8 + s], r[12 + s]);
    const __m512 h = shuffle128<0xDD>(r[8 + s], r[12 + s]);
    o[s] = shuffle128<0x88>(e, g);
    o[4 + s] = shuffle128<0x88>(f, h);
    o[8 + s] = shuffle128<0xDD>(e, g);
    o[12 + s] = shuffle128<0xDD>(f, h);
  }
}

// Columns [j0, j0 + nc) of rows [p0, p0 + kc) of op(B), as ceil(nc / kNr) slivers of kc x kNr
// floats (zero beyond nc). Only slivers [s_begin, s_end) are written.
void pack_b(const Dims& d, const float* b, int64_t ldb, int64_t p0, int64_t kc, int64_t j0,
            int64_t nc, int64_t s_begin, int64_t s_end, float* out) {
  for (int64_t s = s_begin; s < s_end; ++s) {
    const int64_t j = j0 + s * kNr;
    const int64_t w = std::min(kNr, j0 + nc - j);
    float* dst = out + s * kc * kNr;
    if (!d.tb) {
      __mmask16 m[kNv];
      for (int64_t v = 0; v < kNv; ++v) m[v] = lanes(w - 16 * v);
      for (int64_t p = 0; p < kc; ++p) {
        const float* src = b + (p0 + p) * ldb + j;
#pragma GCC unroll 4
        for (int64_t v = 0; v < kNv; ++v)
          _mm512_store_ps(dst + p * kNr + 16 * v, _mm512_maskz_loadu_ps(m[v], src + 16 * v));
      }
    } else {
      // B stored [n, k]: column j of op(B) is row j of B; 16 x 16 blocks transposed in registers.
      int64_t p = 0;
      for (; p + 16 <= kc; p += 16) {
        for (int64_t v = 0; v < kNv; ++v) {
          __m512 o[16];
          transpose16(b + (j + 16 * v) * ldb + p0 + p, ldb, std::max<int64_t>(0, w - 16 * v), o);
#pragma GCC unroll 16
          for (int q = 0; q < 16; ++q) _mm512_store_ps(dst + (p + q) * kNr + 16 * v, o[q]);
        }
      }
      for (; p < kc; ++p) {
        for (int64_t jj = 0; jj < kNr; ++jj)
          dst[p * kNr + jj] = jj < w ? b[(j + jj) * ldb + p0 + p] : 0.0f;
      }
    }
  }
}

// Rows [i0, i0 + mc) of columns [p0, p0 + kc) of op(A), as ceil(mc / kMr) slivers of kc x kMr
// floats (zero beyond mc).
void pack_a(const Dims& d, const float* a, int64_t lda, int64_t i0, int64_t mc, int64_t p0,
            int64_t kc, float* out) {
  for (int64_t i = 0; i < mc; i += kMr) {
    const int64_t h = std::min(kMr, mc - i);
    float* dst = out + i * kc;
    if (d.ta) {
      // A stored [k, m]: the kMr values of one depth are contiguous.
      const __mmask16 m = lanes(h);
      for (int64_t p = 0; p < kc; ++p) {
        const __m512 v = _mm512_maskz_loadu_ps(m, a + (p0 + p) * lda + i0 + i);
        _mm512_mask_storeu_ps(dst + p * kMr, lanes(kMr), v);
      }
    } else if (h == kMr) {
      // A stored [m, k]: 16 depths of the kMr rows at a time, transposed in registers.
      const float* src = a + (i0 + i) * lda + p0;
      int64_t p = 0;
      const __mmask16 m = lanes(kMr);
      for (; p + 16 <= kc; p += 16) {
        __m512 o[16];
        transpose16(src + p, lda, kMr, o);
#pragma GCC unroll 16
        for (int q = 0; q < 16; ++q) _mm512_mask_storeu_ps(dst + (p + q) * kMr, m, o[q]);
      }
      for (; p < kc; ++p) {
        for (int64_t ii = 0; ii < kMr; ++ii) dst[p * kMr + ii] = src[ii * lda + p];
      }
    } else {
      for (int64_t ii = 0; ii < kMr; ++ii) {
        if (ii < h) {
          const float* src = a + (i0 + i + ii) * lda + p0;
          for (int64_t p = 0; p < kc; ++p) dst[p * kMr + ii] = src[p];
        } else {
          for (int64_t p = 0; p < kc; ++p) dst[p * kMr + ii] = 0.0f;
        }
      }
    }
  }
}

// c[0:kMr, 0:kNr] (+)= the product of one A sliver and one B sliver of depth kc.
inline void tile(int64_t kc, const float* __restrict ap, const float* __restrict bp,
                 float* __restrict c, int64_t ldc, bool accumulate) {
  // C's tile is read at the end. Fetch it towards L2 now and into L1 kTail depths before the end:
  // fetched into L1 now, the B stream would evict it before it is used.
  constexpr int64_t kTail = 32;
  auto prefetch_c = [&](auto hint) {
#pragma GCC unroll 8
    for (int64_t i = 0; i < kMr; ++i) {
#pragma GCC unroll 4
      for (int64_t v = 0; v < kNv; ++v)
        _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + 16 * v), decltype(hint)::value);
    }
  };
  prefetch_c(std::integral_constant<_mm_hint, _MM_HINT_T1>());
  __m512 acc[kMr][kNv];
#pragma GCC unroll 8
  for (int64_t i = 0; i < kMr; ++i)
#pragma GCC unroll 4
    for (int64_t v = 0; v < kNv; ++v) acc[i][v] = _mm512_setzero_ps();
  auto rank1 = [&]() __attribute__((always_inline)) {
    __m512 bv[kNv];
#pragma GCC unroll 4
    for (int64_t v = 0; v < kNv; ++v) bv[v] = _mm512_load_ps(bp + 16 * v);
#pragma GCC unroll 8
    for (int64_t i = 0; i < kMr; ++i) {
      const __m512 av = _mm512_set1_ps(ap[i]);
#pragma GCC unroll 4
      for (int64_t v = 0; v < kNv; ++v) acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
    }
    ap += kMr;
    bp += kNr;
  };
  int64_t p = 0;
#pragma GCC unroll 4
  for (; p < kc - kTail; ++p) rank1();
  prefetch_c(std::integral_constant<_mm_hint, _MM_HINT_T0>());
  for (; p < kc; ++p) rank1();
#pragma GCC unroll 8
  for (int64_t i = 0; i < kMr; ++i) {
    float* row = c + i * ldc;
#pragma GCC unroll 4
    for (int64_t v = 0; v < kNv; ++v) {
      if (accumulate) acc[i][v] = _mm512_add_ps(acc[i][v], _mm512_loadu_ps(row + 16 * v));
      _mm512_storeu_ps(row + 16 * v, acc[i][v]);
    }
  }
}

struct Layout {
  int64_t b_floats;        // the shared B panel
  int64_t a_floats;        // one thread's A block
  int64_t scratch_floats;  // one thread's edge tile
};

Layout layout(const Dims& d) {
  Layout l;
  l.b_floats = round_up(std::min(d.k, kKc), 16) * round_up(std::min(d.n, kNc), kNr);
  l.a_floats = round_up(std::min(d.m, kMc), kMr) * round_up(std::min(d.k, kKc), 16);
  l.scratch_floats = kMr * kNr;
  return l;
}

// One thread's share of the work: rows [row_begin, row_end) of C.
void run(const Dims& d, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
         int64_t ldc, float* bpack, float* apack, float* edge, int thread, int threads,
         int64_t row_begin, int64_t row_end) {
  for (int64_t jc = 0; jc < d.n; jc += kNc) {
    const int64_t nc = std::min(kNc, d.n - jc);
    const int64_t slivers = (nc + kNr - 1) / kNr;
    for (int64_t pc = 0; pc < d.k; pc += kKc) {
      const int64_t kc = std::min(kKc, d.k - pc);
      const bool accumulate = pc > 0;
      if (threads > 1) {
#pragma omp barrier
      }
      pack_b(d, b, ldb, pc, kc, jc, nc, slivers * thread / threads,
             slivers * (thread + 1) / threads, bpack);
      if (threads > 1) {
#pragma omp barrier
      }
      for (int64_t ic = row_begin; ic < row_end; ic += kMc) {
        const int64_t mc = std::min(kMc, row_end - ic);
        pack_a(d, a, lda, ic, mc, pc, kc, apack);
        for (int64_t s = 0; s < slivers; ++s) {
          const int64_t j = jc + s * kNr;
          const int64_t w = std::min(kNr, d.n - j);
          const float* bp = bpack + s * kc * kNr;
          for (int64_t i = 0; i < mc; i += kMr) {
            const int64_t h = std::min(kMr, mc - i);
            float* ct = c + (ic + i) * ldc + j;
            const float* ap = apack + i * kc;
            if (h == kMr && w == kNr) {
              tile(kc, ap, bp, ct, ldc, accumulate);
              continue;
            }
            tile(kc, ap, bp, edge, kNr, false);
            for (int64_t r = 0; r < h; ++r) {
              float* row = ct + r * ldc;
              const float* src = edge + r * kNr;
              for (int64_t x = 0; x < w; ++x) row[x] = accumulate ? row[x] + src[x] : src[x];
            }
          }
        }
      }
    }
  }
}

}  // namespace

bool available() { return true; }

int64_t workspace_floats(const Dims& d, int threads) {
  const Layout l = layout(d);
  return l.b_floats + int64_t(std::max(threads, 1)) * (l.a_floats + l.scratch_floats);
}

void multiply(const Dims& d, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
              int64_t ldc, float* workspace, int threads) {
  if (d.m <= 0 || d.n <= 0) return;
  if (d.k <= 0) {
    for (int64_t i = 0; i < d.m; ++i) std::memset(c + i * ldc, 0, sizeof(float) * d.n);
    return;
  }
  threads = std::max(threads, 1);
  const Layout l = layout(d);
  float* bpack = workspace;
  const int64_t tiles = (d.m + kMr - 1) / kMr;
  auto body = [&](int t, int team) {
    float* apack = workspace + l.b_floats + t * (l.a_floats + l.scratch_floats);
    const int64_t begin = std::min(d.m, tiles * t / team * kMr);
    const int64_t end = std::min(d.m, tiles * (t + 1) / team * kMr);
    run(d, a, lda, b, ldb, c, ldc, bpack, apack, apack + l.a_floats, t, team, begin, end);
  };
  if (threads == 1) {
    body(0, 1);
    return;
  }
#pragma omp parallel num_threads(threads)
  body(omp_get_thread_num(), omp_get_num_threads());
}

#else  // no AVX-512 in this build

bool available() { return false; }
int64_t workspace_floats(const Dims&, int) { return 0; }
void multiply(const Dims&, const float*, int64_t, const float*, int64_t, float*, int64_t, float*,
              int) {}

#endif

}  // namespace tfcc::sgemm
