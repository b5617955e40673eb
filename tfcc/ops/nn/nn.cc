// The nn family's registration, and its composites: softmax, log_softmax (max-shifted),
// dropout (inverted scaling, TensorFlow's seed rules) and embedding_lookup (a gather whose
// gradient is the scatter-add of GatherV2's rule).
#include "tfcc/ops/nn/nn.h"

#include <cmath>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

void check_logits(const Tensor& logits, const char* fn) {
  if (!is_floating(logits.dtype())) {
    throw InvalidArgumentError(
        internal::str_cat(fn, " needs floating-point logits, got ", dtype_name(logits.dtype())));
  }
  PartialShape s = logits.partial_shape();
  if (s.rank_known() && s.rank() == 0) {
    throw InvalidArgumentError(
        internal::str_cat(fn, ": logits must have >= 1 dimension, got ", s.to_string()));
  }
}

}  // namespace

void register_nn_ops(OpRegistry& r) {
  register_bias_add_ops(r);
  register_batch_norm_ops(r);
  register_cross_entropy_ops(r);
  register_lrn_ops(r);
}

Tensor softmax(const Tensor& logits, int64_t axis, Loc loc) {
  check_logits(logits, "softmax");
  Tensor e = exp(subtract(logits, reduce_max(logits, axis, true, loc), loc), loc);
  return divide(e, reduce_sum(e, axis, true, loc), loc);
}

Tensor log_softmax(const Tensor& logits, int64_t axis, Loc loc) {
  check_logits(logits, "log_softmax");
  Tensor shifted = subtract(logits, reduce_max(logits, axis, true, loc), loc);
  return subtract(shifted, log(reduce_sum(exp(shifted, loc), axis, true, loc), loc), loc);
}

namespace nn {

Tensor dropout(const Tensor& x, double rate, std::optional<int64_t> seed,
               const std::vector<int64_t>& noise_shape, Loc loc) {
  if (!(rate >= 0 && rate < 1)) {
    throw InvalidArgumentError(internal::str_cat(
        "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=", rate));
  }
  if (!is_floating(x.dtype())) {
    throw InvalidArgumentError(internal::str_cat(
        "`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=",
        dtype_name(x.dtype())));
  }
  if (rate == 0) return x;
  PartialShape xs = x.partial_shape();
  if (!xs.rank_known()) {
    throw UnimplementedError("dropout needs an input of known rank");
  }
  std::vector<int64_t> shape = xs.dims();
  if (!noise_shape.empty()) {
    if (static_cast<int>(noise_shape.size()) != xs.rank()) {
      throw InvalidArgumentError(internal::str_cat("noise_shape ",
                                                   PartialShape(noise_shape).to_string(),
                                                   " must have the rank of x, ", xs.to_string()));
    }
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t n = noise_shape[i];
      if (n == -1) continue;
      if (n != 1 && n != shape[i]) {
        throw InvalidArgumentError("noise_shape " + PartialShape(noise_shape).to_string() +
                                   " must broadcast to the shape of x, " + xs.to_string());
      }
      shape[i] = n;
    }
  }
  for (int64_t d : shape) {
    if (d < 0) {
      throw UnimplementedError("dropout needs the noise shape fully known, got " +
                               PartialShape(shape).to_string());
    }
  }
  // Keep where uniform >= rate (probability 1 - rate), scaled by 1 / (1 - rate): one fused pass
  // when the noise covers x, else the composite with the noise broadcast.
  if ((x.dtype() == float32 || x.dtype() == float64) && xs.is_fully_defined() &&
      shape == xs.dims()) {
    return random::fused_dropout(x, rate, seed, loc)[0];
  }
  Tensor u = random::uniform(shape, 0, 1, x.dtype(), seed, loc);
  return where(greater_equal(u, rate, loc), multiply(x, 1.0 / (1.0 - rate), loc), 0.0, loc);
}

Tensor embedding_lookup(const Tensor& params, const Tensor& ids, Loc loc) {
  return gather(params, ids, 0, 0, loc);
}

}  // namespace nn
}  // namespace tfcc
