// 2-D pooling on NHWC tensors, as tf.nn: max_pool2d and avg_pool2d with TensorFlow's VALID /
// SAME rules (average pooling divides by the number of window elements inside the input, never
// counting padding), their gradient ops, and global pooling composites. float32 runs on oneDNN,
// float64 on reference loops.
//
//   auto x = tfcc::random::normal({64, 26, 26, 32});
//   auto y = tfcc::max_pool2d(x, {2}, {2}, "VALID");       // (64, 13, 13, 32)
//   auto a = tfcc::avg_pool2d(x, {3}, {2}, "SAME");        // (64, 13, 13, 32)
//   auto g = tfcc::global_avg_pool2d(x);                   // (64, 32)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// tf.nn.max_pool2d: the maximum of each window. `ksize` and `strides` have 1, 2 or 4 values
/// (1: both spatial dims; 4: NHWC with batch and channel entries 1); padding "SAME" or "VALID".
Tensor max_pool2d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc = Loc::current());

/// tf.nn.avg_pool2d: the mean of each window over the elements inside the input.
Tensor avg_pool2d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc = Loc::current());

/// MaxPoolGrad: routes each `grad` element to the first maximum of its window in `orig_input`.
Tensor max_pool_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                     std::vector<int64_t> ksize, std::vector<int64_t> strides,
                     const std::string& padding, Loc loc = Loc::current());

/// MaxPoolGradGrad: picks, for each window, the element of `grad` (shaped like orig_input) at the
/// window's first maximum; shaped like orig_output.
Tensor max_pool_grad_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                          std::vector<int64_t> ksize, std::vector<int64_t> strides,
                          const std::string& padding, Loc loc = Loc::current());

/// AvgPoolGrad: spreads each `grad` element evenly over its window's elements inside an input
/// of shape `orig_input_shape` (a -1 batch takes grad's).
Tensor avg_pool_grad(std::vector<int64_t> orig_input_shape, const Tensor& grad,
                     std::vector<int64_t> ksize, std::vector<int64_t> strides,
                     const std::string& padding, Loc loc = Loc::current());

/// Mean over the spatial dims of an NHWC tensor: [N, C] (or [N, 1, 1, C] with keepdims).
Tensor global_avg_pool2d(const Tensor& input, bool keepdims = false, Loc loc = Loc::current());

/// Maximum over the spatial dims of an NHWC tensor: [N, C] (or [N, 1, 1, C] with keepdims).
Tensor global_max_pool2d(const Tensor& input, bool keepdims = false, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
