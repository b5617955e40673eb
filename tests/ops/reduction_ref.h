// Helpers shared by the reduction-family conformance rows: independent reference loops over Ref
// values (grouping by output position, wrapping like a dtype) and common sample data.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/ops/harness.h"

namespace tfcc::conformance::reduction {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The input values each output of a reduction combines, in input order, and the output shape.
struct Groups {
  std::vector<int64_t> shape;
  std::vector<std::vector<double>> values;
};

inline Groups group(const Ref& x, const Axes& axis, bool keepdims) {
  const int rank = static_cast<int>(x.shape.size());
  std::vector<bool> red(rank, axis.all());
  if (!axis.all()) {
    for (int64_t a : *axis.list) red[a < 0 ? a + rank : a] = true;
  }
  Groups g;
  int64_t outputs = 1;
  for (int i = 0; i < rank; ++i) {
    if (!red[i]) {
      g.shape.push_back(x.shape[i]);
      outputs *= x.shape[i];
    } else if (keepdims) {
      g.shape.push_back(1);
    }
  }
  g.values.resize(outputs);
  for (size_t flat = 0; flat < x.values.size(); ++flat) {
    // Unravel, then ravel the kept coordinates.
    std::vector<int64_t> idx(rank);
    int64_t rem = static_cast<int64_t>(flat);
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = rem % x.shape[i];
      rem /= x.shape[i];
    }
    int64_t out = 0;
    for (int i = 0; i < rank; ++i) {
      if (!red[i]) out = out * x.shape[i] + idx[i];
    }
    g.values[out].push_back(x.values[flat]);
  }
  return g;
}

/// An exact integer result (mod 2^64) wrapped to `dtype`'s width.
inline double wrap(uint64_t v, DType dtype) {
  if (dtype == int32) return static_cast<int32_t>(static_cast<uint32_t>(v));
  if (dtype == uint8) return static_cast<uint8_t>(v);
  return static_cast<double>(static_cast<int64_t>(v));
}

/// A float64 result rounded as `dtype` stores it (float32 rounding, overflow to inf).
inline double round_to(double v, DType dtype) {
  return dtype == float32 ? static_cast<double>(static_cast<float>(v)) : v;
}

inline uint64_t as_u64(double v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }

/// 0/1 values, each 1 with probability p.
inline Ref bits(std::vector<int64_t> shape, double p, uint64_t seed) {
  Ref r = filled(std::move(shape), 0, 1, seed);
  for (double& v : r.values) v = v < p ? 1 : 0;
  return r;
}

/// A reduction-like API call: x, axis, keepdims.
using ReduceFn = std::function<Tensor(const Tensor&, const Axes&, bool)>;

/// One axis configuration of a reduction row, with cases whose shapes suit it.
struct Variant {
  std::string suffix;
  Axes axis;
  bool keepdims = false;
  std::vector<Case> cases;
};

/// The standard axis configurations; `make(shape, seed)` makes sample data, `special` adds
/// cases with inf/nan (float dtypes only).
std::vector<Variant> reduce_variants(const std::function<Ref(std::vector<int64_t>, uint64_t)>& make,
                                     bool special);

/// Invalid-input cases shared by reductions called through `fn` (op named in messages).
std::vector<BadCase> reduce_invalid(const ReduceFn& fn, const std::string& op, DType good,
                                    DType bad);

}  // namespace tfcc::conformance::reduction
