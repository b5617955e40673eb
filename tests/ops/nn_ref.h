// Helpers shared by the nn-family conformance rows (rows_nn*.cc): float64 reference building
// blocks written as plain loops (transposes, channel statistics), on top of array_ref.h.
#pragma once

#include <cmath>
#include <vector>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance::nn_ref {

using namespace array_ref;

/// r with its dimensions permuted by `perm`.
inline Ref transpose_ref(const Ref& r, const V& perm) {
  V shape;
  for (int64_t p : perm) shape.push_back(r.shape[static_cast<size_t>(p)]);
  return build(r, shape, [&](const V& c) {
    V src(r.shape.size());
    for (size_t i = 0; i < perm.size(); ++i) src[static_cast<size_t>(perm[i])] = c[i];
    return ravel(src, r.shape);
  });
}

/// Per-channel mean and biased variance of channels-last data (two passes).
struct ChannelStats {
  std::vector<double> mean, var;
  int64_t rows = 0;
};
inline ChannelStats channel_stats(const Ref& x) {
  const int64_t c = x.shape.back();
  ChannelStats s;
  s.rows = c == 0 ? 0 : numel(x.shape) / c;
  s.mean.assign(static_cast<size_t>(c), 0.0);
  s.var.assign(static_cast<size_t>(c), 0.0);
  for (int64_t r = 0; r < s.rows; ++r) {
    for (int64_t k = 0; k < c; ++k)
      s.mean[static_cast<size_t>(k)] += x.values[static_cast<size_t>(r * c + k)];
  }
  for (auto& m : s.mean) m /= static_cast<double>(s.rows);
  for (int64_t r = 0; r < s.rows; ++r) {
    for (int64_t k = 0; k < c; ++k) {
      const double d = x.values[static_cast<size_t>(r * c + k)] - s.mean[static_cast<size_t>(k)];
      s.var[static_cast<size_t>(k)] += d * d;
    }
  }
  for (auto& v : s.var) v /= static_cast<double>(s.rows);
  return s;
}

/// Epsilon of the composite batch-norm rows.
inline constexpr double kEpsBn = 0.001;

/// (x - mean) / sqrt(var + eps) * scale + offset, per channel of channels-last data.
inline Ref normalise_ref(const Ref& x, const std::vector<double>& mean,
                         const std::vector<double>& var, const Ref& scale, const Ref& offset,
                         double eps) {
  const int64_t c = x.shape.back();
  Ref y{x.shape, {}, std::nullopt};
  for (size_t i = 0; i < x.values.size(); ++i) {
    const size_t k = static_cast<size_t>(static_cast<int64_t>(i) % c);
    y.values.push_back((x.values[i] - mean[k]) / std::sqrt(var[k] + eps) * scale.values[k] +
                       offset.values[k]);
  }
  return y;
}

}  // namespace tfcc::conformance::nn_ref
