// The fused pooling gradient the graph passes substitute (max_pool_grad_relu_fusion): a
// traced training step's ReluGrad(MaxPoolGrad(x, y, g), x), where x is the output of a ReLU
// (or of a conv fused with one) that a max pool reads, as one pass over memory.
//
//   Tensor dx = max_pool_grad_relu_grad(relu_out, pooled, dpooled, {2}, {2}, "VALID");
//   // == relu_grad(max_pool_grad(relu_out, pooled, dpooled, {2}, {2}, "VALID"), relu_out)
#pragma once

#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

/// _MaxPoolGradReluGrad: MaxPoolGrad (each `grad` element routed to the first maximum of its
/// window in `orig_input`) with every element where orig_input <= 0 (or NaN) set to zero, as
/// ReluGrad with features orig_input would. Bitwise equal to the two ops in sequence.
Tensor max_pool_grad_relu_grad(const Tensor& orig_input, const Tensor& orig_output,
                               const Tensor& grad, std::vector<int64_t> ksize,
                               std::vector<int64_t> strides, const std::string& padding,
                               std::source_location loc = std::source_location::current());

}  // namespace tfcc
