// Between the random family's definitions and its kernels: the kernel lookup and the seed state.
#pragma once

#include <cstdint>
#include <string>

#include "tfcc/core/philox.h"
#include "tfcc/ops/op_def.h"

namespace tfcc {

/// The CPU kernel of random op `op` for `dtype`, or nullptr.
KernelFn random_cpu_kernel(const std::string& op, DType dtype);

namespace random_internal {

/// The generator for one call of a stateful op with attributes (seed, seed2). As in TensorFlow,
/// the op keeps state per seed pair: each call advances to a fresh sub-stream, so the same pair
/// gives a new tensor each call, and set_seed() rewinds every pair. Both seeds 0 means "no seed":
/// a nondeterministic key.
Philox stateful_generator(int64_t seed, int64_t seed2);

/// The generator of a stateless op: a function of the seed pair alone.
Philox stateless_generator(int64_t seed0, int64_t seed1);

/// Forgets every pair's call count (set_seed).
void reset_streams();

}  // namespace random_internal
}  // namespace tfcc
