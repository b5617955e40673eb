// The Loss base and Keras' weighting/reduction rules (keras/utils/losses_utils.py).
#include "tfcc/keras/losses/loss.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras::losses {
namespace {

// Static rank, or -1 when unknown (inside a trace with an unknown-rank input).
int static_rank(const Tensor& t) {
  PartialShape s = t.partial_shape();
  return s.rank_known() ? s.rank() : -1;
}

// The last static dimension (-1 if unknown).
int64_t last_dim(const Tensor& t) {
  PartialShape s = t.partial_shape();
  return s.rank_known() && s.rank() > 0 ? s.dim(s.rank() - 1) : -1;
}

}  // namespace

std::string reduction_name(Reduction r) {
  switch (r) {
    case Reduction::kAuto:
      return "auto";
    case Reduction::kNone:
      return "none";
    case Reduction::kSum:
      return "sum";
    case Reduction::kSumOverBatchSize:
      return "sum_over_batch_size";
  }
  return "auto";
}

Tensor divide_no_nan(const Tensor& x, const Tensor& y) {
  Tensor zero = equal(y, 0);
  return where(zero, 0, divide(x, where(zero, 1, y)));
}

void squeeze_or_expand_dimensions(Tensor& y_pred, Tensor& y_true) {
  if (!y_pred.defined() || !y_true.defined()) return;
  int rp = static_rank(y_pred), rt = static_rank(y_true);
  if (rp < 0 || rt < 0) return;
  if (rp - rt == 1 && last_dim(y_pred) == 1) {
    y_pred = squeeze(y_pred, {-1});
  } else if (rt - rp == 1 && last_dim(y_true) == 1) {
    y_true = squeeze(y_true, {-1});
  }
}

Tensor match_weight_rank(const Tensor& values, const Tensor& sample_weight) {
  int rv = static_rank(values), rw = static_rank(sample_weight);
  if (rw <= 0 || rv < 0) return sample_weight;
  if (rw - rv == 1 && last_dim(sample_weight) == 1) return squeeze(sample_weight, {-1});
  if (rv - rw == 1) return expand_dims(sample_weight, -1);
  return sample_weight;
}

Tensor compute_weighted_loss(const Tensor& losses, const Tensor& sample_weight,
                             Reduction reduction) {
  Tensor l = losses;
  DType input_dtype = l.dtype();
  // Keras computes integer or bool losses in float32 and casts the result back.
  if (!is_floating(input_dtype)) l = cast(l, float32);
  Tensor weighted = l;
  if (sample_weight.defined()) {
    Tensor w = sample_weight.dtype() == l.dtype() ? sample_weight : cast(sample_weight, l.dtype());
    weighted = multiply(l, match_weight_rank(l, w));
  }
  Tensor out;
  switch (reduction) {
    case Reduction::kNone:
      out = weighted;
      break;
    case Reduction::kSum:
      out = reduce_sum(weighted);
      break;
    case Reduction::kAuto:
    case Reduction::kSumOverBatchSize:
      out = divide_no_nan(reduce_sum(weighted), cast(size(weighted), weighted.dtype()));
      break;
  }
  return out.dtype() == input_dtype ? out : cast(out, input_dtype);
}

Tensor apply_mask(const Tensor& sample_weight, const Tensor& mask, DType dtype,
                  Reduction reduction) {
  if (!mask.defined()) return sample_weight;
  Tensor m = cast(mask, dtype);
  if (reduction == Reduction::kAuto || reduction == Reduction::kSumOverBatchSize) {
    // mean(loss * m * total / valid) = sum(loss * m) / valid; no valid entry: weight 0.
    m = multiply(m, divide_no_nan(cast(size(m), dtype), reduce_sum(m)));
  }
  if (!sample_weight.defined()) return m;
  Tensor w = cast(sample_weight, dtype);
  const int rm = static_rank(m);
  int rw = static_rank(w);
  if (rm >= 0 && rw > 0 && rw < rm) {
    while (rw++ < rm) w = expand_dims(w, -1);
  } else {
    w = match_weight_rank(m, w);
  }
  return multiply(m, w);
}

Loss::Loss(std::string name, Reduction reduction) : name_(std::move(name)), reduction_(reduction) {}

Tensor Loss::valid_mask(const Tensor&, const Tensor&) const { return {}; }

Tensor Loss::operator()(const Tensor& y_true, const Tensor& y_pred,
                        const Tensor& sample_weight) const {
  TFCC_CHECK_ARG(y_true.defined() && y_pred.defined(), "Loss '", name_,
                 "' needs both y_true and y_pred");
  Tensor losses = call(y_true, y_pred);
  Tensor weight = sample_weight;
  Tensor mask = valid_mask(y_true, y_pred);
  if (mask.defined()) {
    // keras.utils.losses_utils.apply_valid_mask: for mean reductions, valid entries weigh
    // total / valid so that the mean runs over the valid ones only.
    Tensor m = cast(mask, losses.dtype());
    if (reduction_ == Reduction::kAuto || reduction_ == Reduction::kSumOverBatchSize) {
      m = multiply(m, divide(cast(size(m), m.dtype()), reduce_sum(m)));
    }
    if (weight.defined()) {
      Tensor w = cast(weight, losses.dtype());
      weight = multiply(m, match_weight_rank(m, w));
    } else {
      weight = m;
    }
  }
  return compute_weighted_loss(losses, weight, reduction_);
}

LossFunctionWrapper::LossFunctionWrapper(LossFn fn, LossFunctionWrapperOptions options)
    : Loss(std::move(options.name), options.reduction), fn_(std::move(fn)) {
  TFCC_CHECK_ARG(fn_ != nullptr, "LossFunctionWrapper needs a function");
}

Tensor LossFunctionWrapper::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return fn_(t, p);
}

}  // namespace tfcc::keras::losses
