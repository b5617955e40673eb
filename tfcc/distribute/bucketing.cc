#include "tfcc/distribute/bucketing.h"

namespace tfcc::distribute {

std::vector<Bucket> plan_buckets(std::span<const DType> dtypes, std::span<const int64_t> counts,
                                 size_t bucket_bytes) {
  std::vector<Bucket> buckets;
  size_t open_bytes = 0;
  for (size_t i = 0; i < dtypes.size(); ++i) {
    size_t bytes = static_cast<size_t>(counts[i]) * dtype_size(dtypes[i]);
    bool fits =
        !buckets.empty() && buckets.back().dtype == dtypes[i] && open_bytes + bytes <= bucket_bytes;
    if (!fits) {
      buckets.push_back(Bucket{dtypes[i], {}, 0});
      open_bytes = 0;
    }
    buckets.back().indices.push_back(i);
    buckets.back().num_elements += counts[i];
    open_bytes += bytes;
  }
  return buckets;
}

std::vector<Bucket> plan_buckets(std::span<const Tensor> tensors, size_t bucket_bytes) {
  std::vector<DType> dtypes;
  std::vector<int64_t> counts;
  for (const Tensor& t : tensors) {
    dtypes.push_back(t.dtype());
    counts.push_back(t.num_elements());
  }
  return plan_buckets(dtypes, counts, bucket_bytes);
}

uint64_t fingerprint(std::span<const Tensor> tensors, uint64_t seed) {
  // FNV-1a over (dtype, rank, dims) of every tensor.
  uint64_t h = 1469598103934665603ull ^ seed;
  auto mix = [&h](uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(tensors.size());
  for (const Tensor& t : tensors) {
    mix(static_cast<uint64_t>(t.dtype()));
    mix(static_cast<uint64_t>(t.rank()));
    for (int64_t d : t.shape().dims()) mix(static_cast<uint64_t>(d));
  }
  return h;
}

}  // namespace tfcc::distribute
