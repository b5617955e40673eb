// Helpers shared by the data tests.
#pragma once

#include <cstdint>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::data::testing {

/// Component `c` of every element, as int64 scalars.
inline std::vector<int64_t> ints(const Dataset& d, size_t c = 0) {
  std::vector<int64_t> out;
  for (const Element& e : d) out.push_back(e[c].item<int64_t>());
  return out;
}

/// Every element's component `c` flattened to int64 values.
inline std::vector<std::vector<int64_t>> rows(const Dataset& d, size_t c = 0) {
  std::vector<std::vector<int64_t>> out;
  for (const Element& e : d) out.push_back(e[c].to_vector<int64_t>());
  return out;
}

/// x * k for an int64 scalar, without ops (so the pipeline tests need no kernels).
inline Tensor times(const Tensor& x, int64_t k) {
  return Tensor::scalar<int64_t>(x.item<int64_t>() * k);
}

inline std::vector<int64_t> iota(int64_t n, int64_t start = 0) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + i);
  return v;
}

}  // namespace tfcc::data::testing
