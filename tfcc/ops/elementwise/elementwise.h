// Element-wise ops that are neither unary math nor binary arithmetic: casts, selection, n-ary sums,
// clipping.
//
//   tfcc::cast(tfcc::constant({1.7f, -1.7f}), tfcc::int32);   // [ 1 -1] (truncates, as TF)
//   tfcc::where(tfcc::greater(x, 0), x, 0);                   // select with broadcasting
//   tfcc::where(mask);                                        // int64 coordinates of true values
//   tfcc::add_n({a, b, c});
//   tfcc::clip_by_value(x, -1, 1);
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <vector>

#include "tfcc/ops/operand.h"

namespace tfcc {

using Loc = std::source_location;

/// Converts to `dtype`. Float to integer truncates toward zero; to bool is x != 0.
Tensor cast(const Tensor& x, DType dtype, Loc loc = Loc::current());
/// Picks x where cond is true and y elsewhere, broadcasting all three.
Tensor where(const Tensor& cond, const Operand& x, const Operand& y, Loc loc = Loc::current());
/// The coordinates of the true (non-zero) elements, int64 [num_true, rank].
Tensor where(const Tensor& cond, Loc loc = Loc::current());
/// Sum of tensors of one shape and dtype.
Tensor add_n(const std::vector<Tensor>& inputs, Loc loc = Loc::current());
/// min(max(x, lo), hi).
Tensor clip_by_value(const Tensor& x, const Operand& clip_value_min, const Operand& clip_value_max,
                     Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
