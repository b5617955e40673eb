// Fusion of many small tensors into few collectives (Horovod's "tensor fusion").
//
//   auto buckets = tfcc::distribute::plan_buckets(grads, 4 << 20);
//   // buckets[i].indices: consecutive tensors of one dtype whose bytes fit in 4 MiB together
//   // (a tensor larger than the threshold gets a bucket of its own).
//
// The plan depends only on the dtypes and sizes, in order, so every replica makes the same plan
// and issues the same collectives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::distribute {

/// Tensors reduced together in one collective.
struct Bucket {
  DType dtype = float32;
  std::vector<size_t> indices;  // into the planned tensor list, ascending
  int64_t num_elements = 0;     // sum over the bucket's tensors
};

/// Groups consecutive tensors of the same dtype into buckets of at most `bucket_bytes` bytes.
std::vector<Bucket> plan_buckets(std::span<const Tensor> tensors, size_t bucket_bytes);

/// The same plan for tensors known by dtype and element count only (before they exist: the
/// gradients of variables, planned before the backward pass produces them).
std::vector<Bucket> plan_buckets(std::span<const DType> dtypes, std::span<const int64_t> counts,
                                 size_t bucket_bytes);

/// A 64-bit fingerprint of a list of tensors' dtypes and shapes (used to detect replicas that
/// call a collective with different arguments).
uint64_t fingerprint(std::span<const Tensor> tensors, uint64_t seed);

}  // namespace tfcc::distribute
