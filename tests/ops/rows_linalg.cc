// Conformance rows of the linalg family: matmul in its four transpose combinations, 2-D and
// batched with broadcast batch dims, against a plain triple loop in float64.
#include <gtest/gtest.h>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

// Stored shape of an operand with logical [rows, cols] matrices, transposed or not.
std::vector<int64_t> stored(std::vector<int64_t> batch, int64_t rows, int64_t cols, bool t) {
  batch.push_back(t ? cols : rows);
  batch.push_back(t ? rows : cols);
  return batch;
}

Case mm_case(std::string label, std::vector<int64_t> ba, std::vector<int64_t> bb, int64_t m,
             int64_t k, int64_t n, bool ta, bool tb, uint64_t seed) {
  return {
      label,
      {filled(stored(ba, m, k, ta), -5, 5, seed), filled(stored(bb, k, n, tb), -5, 5, seed + 1)},
      {}};
}

// out[batch, i, j] = sum_k op_a(A)[i, k] * op_b(B)[k, j], batch dims broadcast.
std::vector<Ref> mm_reference(const Ref& a, const Ref& b, bool ta, bool tb, DType dtype) {
  const size_t ra = a.shape.size(), rb = b.shape.size();
  const int64_t m = ta ? a.shape[ra - 1] : a.shape[ra - 2];
  const int64_t k = ta ? a.shape[ra - 2] : a.shape[ra - 1];
  const int64_t n = tb ? b.shape[rb - 2] : b.shape[rb - 1];
  const size_t batch = std::max(ra, rb) - 2;
  std::vector<int64_t> ab(batch, 1), bb(batch, 1), ob(batch);
  for (size_t i = 0; i < batch; ++i) {
    if (i + (ra - 2) >= batch) ab[i] = a.shape[i + (ra - 2) - batch];
    if (i + (rb - 2) >= batch) bb[i] = b.shape[i + (rb - 2) - batch];
    ob[i] = ab[i] == 1 ? bb[i] : ab[i];
  }
  int64_t nb = 1;
  for (int64_t d : ob) nb *= d;
  Ref out{ob, {}, std::nullopt};
  out.shape.push_back(m);
  out.shape.push_back(n);
  for (int64_t flat = 0; flat < nb; ++flat) {
    int64_t ia = 0, ib = 0, sa = 1, sb = 1, rem = flat;
    for (size_t i = batch; i-- > 0;) {
      const int64_t idx = rem % ob[i];
      rem /= ob[i];
      if (ab[i] != 1) ia += idx * sa;
      if (bb[i] != 1) ib += idx * sb;
      sa *= ab[i];
      sb *= bb[i];
    }
    const double* pa = a.values.data() + ia * m * k;
    const double* pb = b.values.data() + ib * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          const double x = ta ? pa[kk * m + i] : pa[i * k + kk];
          const double y = tb ? pb[j * k + kk] : pb[kk * n + j];
          s += x * y;
        }
        if (is_integer(dtype)) s = to_tensor(scalar(s), dtype).item<double>();
        out.values.push_back(s);
      }
    }
  }
  return {out};
}

OpRow matmul_row(bool ta, bool tb) {
  OpRow row;
  row.name = std::string("matmul") + (ta ? "_ta" : "") + (tb ? "_tb" : "");
  row.ops = {"MatMul", "BatchMatMulV2"};
  row.dtypes = kSigned;
  row.cases = {
      mm_case("2x3 @ 3x4", {}, {}, 2, 3, 4, ta, tb, 1),
      mm_case("1x1 @ 1x1", {}, {}, 1, 1, 1, ta, tb, 3),
      mm_case("vector-like 1xK @ Kx1", {}, {}, 1, 17, 1, ta, tb, 5),
      mm_case("batched", {3}, {3}, 4, 5, 6, ta, tb, 7),
      mm_case("batch @ matrix", {2, 3}, {}, 4, 5, 2, ta, tb, 9),
      mm_case("matrix @ batch", {}, {2}, 3, 4, 5, ta, tb, 11),
      mm_case("broadcast batch", {2, 1, 3}, {4, 1}, 2, 3, 4, ta, tb, 13),
      mm_case("broadcast both ways", {1, 3}, {2, 1}, 3, 2, 3, ta, tb, 15),
      mm_case("empty M", {}, {}, 0, 3, 4, ta, tb, 17),
      mm_case("empty batch", {0}, {1}, 2, 3, 4, ta, tb, 19),
      mm_case("K = 0", {2}, {2}, 3, 0, 4, ta, tb, 21),
      mm_case("large", {}, {}, 130, 200, 150, ta, tb, 23),
      mm_case("large batched", {4}, {1}, 64, 96, 80, ta, tb, 25),
  };
  row.fn = [ta, tb](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{matmul(in[0], in[1], ta, tb)};
  };
  row.reference = [ta, tb](const std::vector<Ref>& in, DType dtype) {
    return mm_reference(in[0], in[1], ta, tb, dtype);
  };
  row.rtol32 = 1e-4;
  row.atol32 = 1e-3;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-9;
  auto f32 = [](std::vector<int64_t> s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return Tensor::from_vector(std::vector<float>(size_t(n), 1.f), Shape(s));
  };
  row.invalid = {
      {"rank 1",
       [f32, ta, tb] {
         matmul(f32({3}), f32({3, 4}), ta, tb);
       },
       ErrorCode::kInvalidArgument, "In[0] ndims must be >= 2: 1"},
      {"rank 0 rhs",
       [f32, ta, tb] {
         matmul(f32({3, 4}), f32({}), ta, tb);
       },
       ErrorCode::kInvalidArgument, "In[1] ndims must be >= 2: 0"},
      {"inner mismatch 2-D",
       [f32, ta, tb] { matmul(f32(stored({}, 2, 3, ta)), f32(stored({}, 4, 5, tb)), ta, tb); },
       ErrorCode::kInvalidArgument,
       "Matrix size-incompatible: In[0]: [" + std::string(ta ? "3,2" : "2,3") + "], In[1]: [" +
           (tb ? "5,4" : "4,5") + "]"},
      {"inner mismatch batched",
       [f32, ta, tb] { matmul(f32(stored({2}, 2, 3, ta)), f32(stored({2}, 4, 5, tb)), ta, tb); },
       ErrorCode::kInvalidArgument, "Matrix size-incompatible"},
      {"incompatible batch",
       [f32, ta, tb] { matmul(f32(stored({2}, 2, 3, ta)), f32(stored({3}, 3, 5, tb)), ta, tb); },
       ErrorCode::kInvalidArgument, "must have compatible batch dimensions"},
      {"mixed dtypes",
       [ta, tb] {
         matmul(Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2}),
                Tensor::from_vector<double>({1, 2, 3, 4}, Shape{2, 2}), ta, tb);
       },
       ErrorCode::kInvalidArgument, "[Op:MatMul]"},
      {"bool",
       [ta, tb] {
         matmul(Tensor::from_vector<bool>({true, false}, Shape{1, 2}),
                Tensor::from_vector<bool>({true, false}, Shape{2, 1}), ta, tb);
       },
       ErrorCode::kInvalidArgument, "[Op:MatMul]"},
      {"uint8 batched",
       [ta, tb] {
         matmul(Tensor::from_vector<uint8_t>({1, 2}, Shape{1, 1, 2}),
                Tensor::from_vector<uint8_t>({1, 2}, Shape{1, 2, 1}), ta, tb);
       },
       ErrorCode::kInvalidArgument, "[Op:BatchMatMulV2]"},
  };
  row.second_order = true;  // the issue asks second-order checks for this family
  return row;
}

}  // namespace

std::vector<OpRow> linalg_rows() {
  return {matmul_row(false, false), matmul_row(false, true), matmul_row(true, false),
          matmul_row(true, true)};
}

}  // namespace tfcc::conformance
