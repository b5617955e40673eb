// Random ops: reproducible, and independent of the thread count (counter-based Philox).
//
//   tfcc::random::set_seed(42);                 // like tf.random.set_seed
//   auto u = tfcc::random::uniform({2, 3});     // float32 in [0, 1)
//   auto n = tfcc::random::normal({4}, 0, 1, float32, /*seed=*/7);
//   auto s = tfcc::random::stateless_uniform({3}, {1, 2});   // same seed, same numbers
//
// Seeds follow TensorFlow: with a global seed and no op seed, each call draws the next op seed
// from a counter, so a program's sequence of random tensors repeats from run to run; with both
// seeds, the pair fixes the numbers (still advancing per call, like TF's eager mode).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <optional>
#include <source_location>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::random {

using Loc = std::source_location;

/// Sets the global seed (tf.random.set_seed) and resets the per-op counter.
void set_seed(uint64_t seed);

/// The process-wide seed state (global seed, op-seed counter, calls made per seed pair) as a
/// 1-D int64 tensor, so a checkpoint can resume a run's random sequence exactly
/// (keras::callbacks::BackupAndRestore saves it).
Tensor get_global_state();
/// Restores a state from get_global_state(); InvalidArgumentError if it is malformed.
void set_global_state(const Tensor& state);

/// Uniform in [minval, maxval).
Tensor uniform(std::vector<int64_t> shape, double minval = 0, double maxval = 1,
               DType dtype = float32, std::optional<int64_t> seed = {}, Loc loc = Loc::current());
/// Normal with mean and stddev.
Tensor normal(std::vector<int64_t> shape, double mean = 0, double stddev = 1, DType dtype = float32,
              std::optional<int64_t> seed = {}, Loc loc = Loc::current());
/// Normal truncated to within two standard deviations (resampled, as TF).
Tensor truncated_normal(std::vector<int64_t> shape, double mean = 0, double stddev = 1,
                        DType dtype = float32, std::optional<int64_t> seed = {},
                        Loc loc = Loc::current());
/// Samples `num_samples` class indices per row of unnormalised log-probabilities `logits`
/// [batch, classes]; int64 output [batch, num_samples].
Tensor categorical(const Tensor& logits, int64_t num_samples, std::optional<int64_t> seed = {},
                   Loc loc = Loc::current());
/// Shuffles along the first dimension.
Tensor shuffle(const Tensor& x, std::optional<int64_t> seed = {}, Loc loc = Loc::current());

/// Inverted dropout in one pass (what nn::dropout runs when the noise covers all of `x`):
/// returns {y, keep}, with keep = uniform >= rate drawn exactly as random::uniform would draw it
/// with the same seeds, and y = keep ? x / (1 - rate) : 0. Differentiable in `x`.
std::vector<Tensor> fused_dropout(const Tensor& x, double rate, std::optional<int64_t> seed = {},
                                  Loc loc = Loc::current());
/// The gradient of fused_dropout: keep ? dy / (1 - rate) : 0, in one pass.
Tensor fused_dropout_grad(const Tensor& dy, const Tensor& keep, double rate,
                          Loc loc = Loc::current());

/// Stateless variants: the same (shape, seed) always gives the same numbers.
Tensor stateless_uniform(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double minval = 0,
                         double maxval = 1, DType dtype = float32, Loc loc = Loc::current());
Tensor stateless_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double mean = 0,
                        double stddev = 1, DType dtype = float32, Loc loc = Loc::current());
Tensor stateless_truncated_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed,
                                  double mean = 0, double stddev = 1, DType dtype = float32,
                                  Loc loc = Loc::current());

}  // namespace tfcc::random
#pragma GCC visibility pop
