// Helpers shared by the array-family conformance rows (rows_array*.cc): index arithmetic over
// shapes, a gather-style reference builder, and the row/bad-case constructors (data movement is
// exact, so rows compare with zero tolerance).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/ops/harness.h"

namespace tfcc::conformance::array_ref {

using V = std::vector<int64_t>;
using In = const std::vector<Tensor>&;
using RefIn = const std::vector<Ref>&;

inline const std::vector<DType> kAll = {float32, float64, int32, int64, uint8, bool_, bfloat16};

// An int64 parameter input.
inline Ref ints(std::vector<double> v) { return vec(std::move(v), int64); }
inline Ref int_scalar(double v) { return scalar(v, int64); }
inline V iv(const Tensor& t) { return t.to_vector<int64_t>(); }
inline int64_t ii(const Tensor& t) { return t.item<int64_t>(); }
inline V rv(const Ref& r) { return V(r.values.begin(), r.values.end()); }

inline int64_t numel(const V& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}
inline V strides_of(const V& s) {
  V st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}
inline V unravel(int64_t flat, const V& s) {
  V idx(s.size());
  for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i) {
    idx[i] = flat % s[i];
    flat /= s[i];
  }
  return idx;
}
inline int64_t ravel(const V& idx, const V& s) {
  int64_t f = 0;
  for (size_t i = 0; i < s.size(); ++i) f = f * s[i] + idx[i];
  return f;
}

// Output of `shape` where element at coordinates c is in.values[src(c)] (or `fill` if src < 0).
template <typename F>
inline Ref build(const Ref& in, const V& shape, F src, double fill = 0) {
  Ref out{shape, {}, std::nullopt};
  for (int64_t f = 0; f < numel(shape); ++f) {
    int64_t s = src(unravel(f, shape));
    out.values.push_back(s < 0 ? fill : in.values[static_cast<size_t>(s)]);
  }
  return out;
}

inline std::vector<Ref> one(Ref r) { return {std::move(r)}; }

inline OpRow make_row(std::string name, std::vector<std::string> ops, std::vector<DType> dtypes,
                      std::vector<Case> cases, ApiFn fn, RefFn ref, std::vector<BadCase> invalid) {
  OpRow row;
  row.name = std::move(name);
  row.ops = std::move(ops);
  row.dtypes = std::move(dtypes);
  row.cases = std::move(cases);
  row.fn = std::move(fn);
  row.reference = std::move(ref);
  row.invalid = std::move(invalid);
  row.rtol32 = row.atol32 = row.rtol64 = row.atol64 = 0;  // data movement is exact
  return row;
}

inline Tensor f32(Ref r) { return to_tensor(r, float32); }
inline std::vector<Tensor> single(Tensor t) { return {std::move(t)}; }

inline BadCase bad(std::string label, std::function<void()> call, std::string msg,
                   ErrorCode code = ErrorCode::kInvalidArgument) {
  return {std::move(label), std::move(call), code, std::move(msg)};
}

inline Ref m23() { return mat({{1, 2, 3}, {4, 5, 6}}); }

}  // namespace tfcc::conformance::array_ref
