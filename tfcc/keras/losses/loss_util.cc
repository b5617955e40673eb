#include "tfcc/keras/losses/loss_util.h"

#include "tfcc/keras/losses/loss.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::losses::detail {

Tensor as_pred_dtype(const Tensor& y_true, const Tensor& y_pred) {
  return y_true.dtype() == y_pred.dtype() ? y_true : cast(y_true, y_pred.dtype());
}

Tensor dim_as(const Tensor& t, int64_t axis, DType dtype) {
  PartialShape s = t.partial_shape();
  int r = s.rank();
  int64_t a = axis < 0 ? axis + r : axis;
  TFCC_CHECK_ARG(a >= 0 && a < r, "axis ", axis, " is out of range for a tensor of rank ", r);
  if (s.dim(static_cast<int>(a)) >= 0) return scalar_tensor(double(s.dim(int(a))), dtype);
  return cast(shape(t, int32)(a), dtype);
}

void same_rank_targets(Tensor& y_true, Tensor& y_pred) {
  y_true = as_pred_dtype(y_true, y_pred);
  squeeze_or_expand_dimensions(y_pred, y_true);
}

}  // namespace tfcc::keras::losses::detail
