// Convolutions on NHWC tensors with TensorFlow's HWIO filters, as tf.nn: conv2d (strides,
// dilations, SAME / VALID / explicit padding, grouped when the input has a multiple of the
// filter's in-channels), depthwise_conv2d, conv2d_transpose, conv1d; the backprop ops (what the
// gradients run, public as in tf.compat.v1.nn); and a fused conv + bias + activation used by
// graph passes. float32 runs on oneDNN, float64 on reference loops.
//
//   auto x = tfcc::random::normal({64, 28, 28, 1});
//   auto w = tfcc::random::normal({3, 3, 1, 32});
//   auto y = tfcc::conv2d(x, w, {1}, "VALID");              // (64, 26, 26, 32)
//   auto z = tfcc::conv2d(x, w, {2}, "SAME");               // (64, 14, 14, 32)
//   auto e = tfcc::conv2d(x, w, {1}, {{0, 0}, {1, 1}, {2, 2}, {0, 0}});   // explicit padding
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <initializer_list>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

/// A padding argument: "SAME", "VALID", or explicit (before, after) pairs for the 4 NHWC dims
/// (batch and channel pairs must be zero), as tf.nn.conv2d's list form.
struct Padding {
  /// "SAME" or "VALID".
  Padding(const char* m) : mode(m) {}  // NOLINT(runtime/explicit): mirrors TF's string argument
  /// "SAME" or "VALID".
  Padding(std::string m) : mode(std::move(m)) {}  // NOLINT(runtime/explicit)
  /// Explicit pairs [[0, 0], [top, bottom], [left, right], [0, 0]].
  Padding(std::initializer_list<std::pair<int64_t, int64_t>> pairs);
  std::string mode;                    ///< "SAME", "VALID" or "EXPLICIT"
  std::vector<int64_t> explicit_pads;  ///< 8 values when EXPLICIT, else empty
};

/// tf.nn.conv2d: input [N, H, W, C], filters [KH, KW, C / groups, O] -> [N, OH, OW, O].
/// `strides` and `dilations` have 1, 2 or 4 values (1: both spatial dims; 4: NHWC, batch and
/// channel entries 1).
Tensor conv2d(const Tensor& input, const Tensor& filters, std::vector<int64_t> strides,
              const Padding& padding, std::vector<int64_t> dilations = {1},
              Loc loc = Loc::current());

/// tf.nn.conv1d: input [N, W, C], filters [KW, C, O] -> [N, OW, O] (a conv2d with H = 1).
Tensor conv1d(const Tensor& input, const Tensor& filters, int64_t stride, const Padding& padding,
              int64_t dilation = 1, Loc loc = Loc::current());

/// tf.nn.depthwise_conv2d: input [N, H, W, C], filter [KH, KW, C, M] -> [N, OH, OW, C * M].
Tensor depthwise_conv2d(const Tensor& input, const Tensor& filter, std::vector<int64_t> strides,
                        const Padding& padding, std::vector<int64_t> dilations = {1},
                        Loc loc = Loc::current());

/// tf.nn.conv2d_transpose: input [N, H, W, I], filters [KH, KW, O, I] -> `output_shape`
/// [N, OH, OW, O] (the input gradient of the conv2d that maps output_shape to input's shape).
Tensor conv2d_transpose(const Tensor& input, const Tensor& filters,
                        std::vector<int64_t> output_shape, std::vector<int64_t> strides,
                        const Padding& padding, std::vector<int64_t> dilations = {1},
                        Loc loc = Loc::current());

/// Conv2DBackpropInput: the gradient of conv2d's input of shape `input_sizes` (a -1 batch takes
/// out_backprop's) given the output gradient.
Tensor conv2d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                             const Tensor& out_backprop, std::vector<int64_t> strides,
                             const Padding& padding, std::vector<int64_t> dilations = {1},
                             Loc loc = Loc::current());

/// Conv2DBackpropFilter: the gradient of conv2d's filter of shape `filter_sizes`.
Tensor conv2d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                              const Tensor& out_backprop, std::vector<int64_t> strides,
                              const Padding& padding, std::vector<int64_t> dilations = {1},
                              Loc loc = Loc::current());

/// DepthwiseConv2dNativeBackpropInput.
Tensor depthwise_conv2d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                                       const Tensor& out_backprop, std::vector<int64_t> strides,
                                       const Padding& padding, std::vector<int64_t> dilations = {1},
                                       Loc loc = Loc::current());

/// DepthwiseConv2dNativeBackpropFilter.
Tensor depthwise_conv2d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                                        const Tensor& out_backprop, std::vector<int64_t> strides,
                                        const Padding& padding,
                                        std::vector<int64_t> dilations = {1},
                                        Loc loc = Loc::current());

/// _FusedConv2D: act(conv2d(input, filter) + bias) in one oneDNN primitive (post-op).
/// `activation`: "" (bias only), "Relu", "Relu6", "LeakyRelu", "Elu", "Tanh", "Sigmoid",
/// "GeluExact", "GeluApproximate".
Tensor fused_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                    std::vector<int64_t> strides, const Padding& padding,
                    const std::string& activation, std::vector<int64_t> dilations = {1},
                    double leakyrelu_alpha = 0.2, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
