// Volumetric (3-D) convolution and pooling on NDHWC tensors with TensorFlow's DHWIO filters, as
// tf.nn: conv3d (strides, dilations, SAME / VALID padding), conv3d_transpose, max_pool3d,
// avg_pool3d (the mean over the window's elements inside the input, never counting padding);
// the gradient ops (what the tape runs: Conv3DBackpropInputV2, Conv3DBackpropFilterV2,
// MaxPool3DGrad, MaxPool3DGradGrad, AvgPool3DGrad) are public as in tf.raw_ops.
// Window arguments take 1 value (every spatial dim), 3 (depth, rows, cols) or 5 (NDHWC, batch
// and channel entries 1).
//
//   auto x = tfcc::random::normal({8, 16, 32, 32, 3});      // (batch, depth, h, w, channels)
//   auto w = tfcc::random::normal({3, 3, 3, 3, 16});        // (kd, kh, kw, in, out)
//   auto y = tfcc::conv3d(x, w, {1}, "SAME");               // (8, 16, 32, 32, 16)
//   auto p = tfcc::max_pool3d(y, {2}, {2}, "VALID");        // (8, 8, 16, 16, 16)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// tf.nn.conv3d: input [N, D, H, W, C], filters [KD, KH, KW, C, O] -> [N, OD, OH, OW, O];
/// padding "SAME" or "VALID".
Tensor conv3d(const Tensor& input, const Tensor& filters, std::vector<int64_t> strides,
              const std::string& padding, std::vector<int64_t> dilations = {1},
              Loc loc = Loc::current());

/// tf.nn.conv3d_transpose: input [N, D, H, W, I], filters [KD, KH, KW, O, I] -> `output_shape`
/// [N, OD, OH, OW, O] (the input gradient of the conv3d mapping output_shape to input's shape).
Tensor conv3d_transpose(const Tensor& input, const Tensor& filters,
                        std::vector<int64_t> output_shape, std::vector<int64_t> strides,
                        const std::string& padding, std::vector<int64_t> dilations = {1},
                        Loc loc = Loc::current());

/// Conv3DBackpropInputV2: the gradient of conv3d's input of shape `input_sizes` (a -1 batch
/// takes out_backprop's) given the output gradient.
Tensor conv3d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                             const Tensor& out_backprop, std::vector<int64_t> strides,
                             const std::string& padding, std::vector<int64_t> dilations = {1},
                             Loc loc = Loc::current());

/// Conv3DBackpropFilterV2: the gradient of conv3d's filter of shape `filter_sizes`.
Tensor conv3d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                              const Tensor& out_backprop, std::vector<int64_t> strides,
                              const std::string& padding, std::vector<int64_t> dilations = {1},
                              Loc loc = Loc::current());

/// tf.nn.max_pool3d: the maximum of each window; padding "SAME" or "VALID".
Tensor max_pool3d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc = Loc::current());

/// tf.nn.avg_pool3d: the mean of each window over its elements inside the input.
Tensor avg_pool3d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc = Loc::current());

/// MaxPool3DGrad: routes each `grad` element to the first maximum of its window in
/// `orig_input` (row-major window order; TensorFlow's CPU kernel gives a tie to every maximum).
Tensor max_pool3d_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                       std::vector<int64_t> ksize, std::vector<int64_t> strides,
                       const std::string& padding, Loc loc = Loc::current());

/// MaxPool3DGradGrad: for each window, the element of `grad` (shaped like orig_input) at the
/// window's first maximum; shaped like orig_output.
Tensor max_pool3d_grad_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                            std::vector<int64_t> ksize, std::vector<int64_t> strides,
                            const std::string& padding, Loc loc = Loc::current());

/// AvgPool3DGrad: spreads each `grad` element evenly over its window's elements inside an input
/// of shape `orig_input_shape` (a -1 batch takes grad's).
Tensor avg_pool3d_grad(std::vector<int64_t> orig_input_shape, const Tensor& grad,
                       std::vector<int64_t> ksize, std::vector<int64_t> strides,
                       const std::string& padding, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
