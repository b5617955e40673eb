// Neural-network composites: softmax and log_softmax, max-shifted for stability.
#include "tfcc/ops/nn/nn.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/reduction/reduction.h"
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

}  // namespace tfcc
