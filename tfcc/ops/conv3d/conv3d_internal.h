// Between the conv3d family's definitions (conv3d.cc, pool3d.cc) and its kernels: the geometry
// of a 3-D window (convolution or pooling) over an NDHWC tensor, and the kernel lookups.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Every size of one NDHWC convolution or pooling; spatial arrays are (depth, rows, cols).
/// Unknown dims (traced code) are -1. Pooling has `out_c == in_c`, `groups == 1`.
struct Window3D {
  int64_t batch = -1, in_c = -1;
  std::array<int64_t, 3> in{-1, -1, -1};   ///< input spatial dims
  std::array<int64_t, 3> k{1, 1, 1};       ///< filter / window spatial dims
  std::array<int64_t, 3> stride{1, 1, 1};  ///< strides
  std::array<int64_t, 3> dil{1, 1, 1};     ///< dilations (1 for pooling)
  std::array<int64_t, 3> out{-1, -1, -1};  ///< output spatial dims
  std::array<int64_t, 3> pad{0, 0, 0};     ///< padding before each spatial dim (SAME)
  int64_t f_in_c = -1, out_c = -1;         ///< filter in-channels (per group) and out-channels
  int64_t groups = 1;
  std::vector<int64_t> input_dims() const { return {batch, in[0], in[1], in[2], in_c}; }
  std::vector<int64_t> output_dims() const { return {batch, out[0], out[1], out[2], out_c}; }
  std::vector<int64_t> filter_dims() const { return {k[0], k[1], k[2], f_in_c, out_c}; }
};

/// Conv3D's geometry: `input` [N, D, H, W, C], `filter` [KD, KH, KW, C / groups, O] under the
/// op's strides, dilations, padding and data_format, with TensorFlow's checks and messages
/// (InvalidArgumentError naming `op`). Partial shapes give -1 dims.
Window3D conv3d_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input,
                         const PartialShape& filter);

/// MaxPool3D / AvgPool3D geometry under the op's ksize, strides, padding and data_format.
Window3D pool3d_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input);

/// TensorFlow's NDHWC window vector from 1 value (every spatial dim), 3 or 5 (conv3d.cc);
/// InvalidArgumentError naming `name` otherwise.
std::vector<int64_t> conv3d_window_vector(std::vector<int64_t> v, const char* name);

/// "[1,2,3]".
std::string dims3d_string(const std::vector<int64_t>& d);

/// The CPU kernels of the family, by op name and dtype (nullptr: none).
KernelFn conv3d_cpu_kernel(const std::string& op, DType dtype);
KernelFn pool3d_cpu_kernel(const std::string& op, DType dtype);

}  // namespace tfcc
