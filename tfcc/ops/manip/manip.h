// Rearranging elements: TensorFlow's tf.roll and tf.boolean_mask.
//
//   auto x = tfcc::constant({1, 2, 3, 4, 5});
//   tfcc::roll(x, {2}, {0});                                   // [4 5 1 2 3]
//   tfcc::boolean_mask(x, tfcc::constant({true, false, true, false, true}));   // [1 3 5]
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// Shifts the elements of `input` by shift[i] positions along axis[i] (elements leaving one end
/// come back at the other; negative shifts go the other way; an axis may repeat, its shifts
/// add up). `shift` and `axis` have the same length.
Tensor roll(const Tensor& input, std::vector<int64_t> shift, std::vector<int64_t> axis,
            Loc loc = Loc::current());

/// The elements (or slices) of `tensor` where the bool `mask` is true: mask's shape must equal
/// tensor.shape[axis : axis + mask.rank]; those dims become one of the number of true entries
/// (known when the op runs: unknown inside a traced function whose mask is not a constant).
/// Composite of where and gather, so it is differentiable with respect to `tensor` (inside a
/// traced function only for a constant mask: gather's gradient needs the count at trace time).
Tensor boolean_mask(const Tensor& tensor, const Tensor& mask, int64_t axis = 0,
                    Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
