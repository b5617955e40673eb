// Between the conv family's definitions and its kernels: the geometry of a 2-D convolution
// (TensorFlow's attribute rules and output-size formula), the kernel lookup, and cache counters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/ops/linalg/onednn.h"
#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Every size of one NHWC convolution, with depthwise filters seen as grouped ones: a
/// DepthwiseConv2dNative filter [KH, KW, C, M] is, in memory, the grouped filter
/// [KH, KW, 1, C * M] with C groups. Unknown dims (traced code) are -1.
struct ConvGeometry {
  int64_t batch = -1, in_h = -1, in_w = -1, in_c = -1;
  int64_t f_h = -1, f_w = -1, f_in_c = -1, out_c = -1;  ///< grouped view of the filter
  int64_t groups = 1;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t out_h = -1, out_w = -1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  bool fully_known() const;
  std::vector<int64_t> input_dims() const { return {batch, in_h, in_w, in_c}; }
  std::vector<int64_t> output_dims() const { return {batch, out_h, out_w, out_c}; }
};

/// The convolution of `input` [N, H, W, C] by `filter` (Conv2D: [KH, KW, C / groups, O];
/// depthwise: [KH, KW, C, M]) under the op's attributes (strides, dilations, padding,
/// explicit_paddings, data_format). Raises InvalidArgumentError in TensorFlow's words, naming
/// `op`. Accepts partial shapes (-1 dims, unknown ranks give rank-4 unknowns).
ConvGeometry conv_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input,
                           const PartialShape& filter, bool depthwise);

/// TensorFlow's windowed output size with its padding (out, pad_before, pad_after) for one
/// spatial dim; `padding` is "VALID", "SAME" or "EXPLICIT" (then pads come in as given).
/// Unknown `in` gives -1. Fails through `op` when the size would be negative.
void windowed_output_size(const OpDef& op, int64_t in, int64_t k, int64_t dilation, int64_t stride,
                          const std::string& padding, int64_t* out, int64_t* pad_before,
                          int64_t* pad_after);

/// The CPU kernel of conv op `op` for `dtype`, or nullptr.
KernelFn conv_cpu_kernel(const std::string& op, DType dtype);

/// Counters of the oneDNN convolution primitive cache.
onednn::CacheStats conv_cache_stats();

}  // namespace tfcc
