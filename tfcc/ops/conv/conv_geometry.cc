// TensorFlow's convolution geometry: attribute checks (strides, dilations, padding,
// explicit_paddings, data_format), the channel rules of grouped and depthwise filters, and the
// windowed output size (SAME: out = ceil(in / stride), padding split with the extra row at the
// end; VALID: no padding; EXPLICIT: the given pads).
#include <string>

#include "tfcc/ops/conv/conv_internal.h"

namespace tfcc {
namespace {

std::string dims_string(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += internal::str_cat(i ? "," : "", d[i]);
  return s + "]";
}

}  // namespace

bool ConvGeometry::fully_known() const {
  for (int64_t d : input_dims()) {
    if (d < 0) return false;
  }
  for (int64_t d : output_dims()) {
    if (d < 0) return false;
  }
  return f_h >= 0 && f_w >= 0 && f_in_c >= 0;
}

void windowed_output_size(const OpDef& op, int64_t in, int64_t k, int64_t dilation, int64_t stride,
                          const std::string& padding, int64_t* out, int64_t* pad_before,
                          int64_t* pad_after) {
  if (in < 0 || k < 0) {
    *out = -1;
    if (padding != "EXPLICIT") *pad_before = *pad_after = 0;
    return;
  }
  const int64_t eff = checked_mul(k - 1, dilation) + 1;
  if (padding == "VALID") {
    *pad_before = *pad_after = 0;
    *out = (in - eff + stride) / stride;
  } else if (padding == "SAME") {
    *out = (in + stride - 1) / stride;
    const int64_t needed = std::max<int64_t>(0, (*out - 1) * stride + eff - in);
    *pad_before = needed / 2;
    *pad_after = needed - needed / 2;
  } else {  // EXPLICIT
    *out = (in + *pad_before + *pad_after - eff + stride) / stride;
  }
  if (*out < 0) {
    op_error(op, internal::str_cat("Computed output size would be negative: ", *out,
                                   " [input_size: ", in, ", effective_filter_size: ", eff,
                                   ", stride: ", stride, "]"));
  }
}

ConvGeometry conv_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input,
                           const PartialShape& filter, bool depthwise) {
  const std::string& fmt = attrs.get<std::string>("data_format");
  if (fmt != "NHWC") {
    op_error(op, internal::str_cat("The ", op.name(),
                                   " op currently only supports the NHWC tensor format on the "
                                   "CPU. The op was given the format: ",
                                   fmt));
  }
  const auto& strides = attrs.get<std::vector<int64_t>>("strides");
  const auto& dilations = attrs.get<std::vector<int64_t>>("dilations");
  const std::string& padding = attrs.get<std::string>("padding");
  const auto& explicit_pads = attrs.get<std::vector<int64_t>>("explicit_paddings");
  if (strides.size() != 4) op_error(op, "Sliding window strides field must specify 4 dimensions");
  if (dilations.size() != 4) {
    op_error(op, "Sliding window dilations field must specify 4 dimensions");
  }
  if (strides[0] != 1 || strides[3] != 1) {
    op_error(op,
             "Current implementation does not yet support strides in the batch and depth "
             "dimensions.");
  }
  if (dilations[0] != 1 || dilations[3] != 1) {
    op_error(op,
             "Current implementation does not yet support dilations in the batch and depth "
             "dimensions.");
  }
  if (strides[1] <= 0 || strides[2] <= 0) {
    op_error(op, "Row and column strides should be larger than 0.");
  }
  if (dilations[1] <= 0 || dilations[2] <= 0) {
    op_error(op, "Dilated rates should be larger than 0.");
  }
  if (padding != "SAME" && padding != "VALID" && padding != "EXPLICIT") {
    op_error(op, internal::str_cat("Value for attr 'padding' of \"", padding,
                                   "\" is not in the list of allowed values: \"SAME\", "
                                   "\"VALID\", \"EXPLICIT\""));
  }
  ConvGeometry g;
  if (padding == "EXPLICIT") {
    if (explicit_pads.size() != 8) {
      op_error(op, internal::str_cat("explicit_paddings attribute must contain 8 values, but got: ",
                                     explicit_pads.size()));
    }
    for (int64_t p : explicit_pads) {
      if (p < 0) op_error(op, "All elements of explicit_paddings must be nonnegative");
    }
    if (explicit_pads[0] || explicit_pads[1] || explicit_pads[6] || explicit_pads[7]) {
      op_error(op, "Nonzero explicit padding in the batch or depth dimensions is not supported");
    }
    g.pad_top = explicit_pads[2];
    g.pad_bottom = explicit_pads[3];
    g.pad_left = explicit_pads[4];
    g.pad_right = explicit_pads[5];
  } else if (!explicit_pads.empty()) {
    op_error(op,
             "explicit_paddings attribute must be empty if the padding attribute is not "
             "EXPLICIT");
  }
  g.stride_h = strides[1];
  g.stride_w = strides[2];
  g.dil_h = dilations[1];
  g.dil_w = dilations[2];

  std::vector<int64_t> in(4, -1), f(4, -1);
  if (input.rank_known()) {
    if (input.rank() != 4) {
      op_error(op, "input must be 4-dimensional" + dims_string(input.dims()));
    }
    in = input.dims();
  }
  if (filter.rank_known()) {
    if (filter.rank() != 4) {
      op_error(op, "filter must be 4-dimensional: " + dims_string(filter.dims()));
    }
    f = filter.dims();
  }
  g.batch = in[0];
  g.in_h = in[1];
  g.in_w = in[2];
  g.in_c = in[3];
  g.f_h = f[0];
  g.f_w = f[1];
  if (g.f_h == 0 || g.f_w == 0) {
    op_error(op, "filter spatial dimensions must be positive: " + dims_string(f));
  }
  if (depthwise) {
    if (in[3] >= 0 && f[2] >= 0 && in[3] != f[2]) {
      op_error(op, internal::str_cat("input and filter must have the same depth: ", in[3], " vs ",
                                     f[2]));
    }
    const int64_t c = in[3] >= 0 ? in[3] : f[2];
    g.f_in_c = 1;
    g.groups = c;
    g.out_c = (c >= 0 && f[3] >= 0) ? checked_mul(c, f[3]) : -1;
    if (c == 0) g.groups = 1;
  } else {
    g.f_in_c = f[2];
    g.out_c = f[3];
    if (in[3] >= 0 && f[2] >= 0) {
      if (f[2] == 0 ? in[3] != 0 : in[3] % f[2] != 0) {
        op_error(op, internal::str_cat("input depth must be evenly divisible by filter depth: ",
                                       in[3], " vs ", f[2]));
      }
      g.groups = f[2] == 0 ? 1 : in[3] / f[2];
      if (f[3] >= 0 && f[3] % g.groups != 0) {
        op_error(op, internal::str_cat(
                         "output depth must be evenly divisible by number of groups: ", f[3],
                         " vs ", g.groups));
      }
    } else {
      g.groups = -1;
    }
  }
  windowed_output_size(op, g.in_h, g.f_h, g.dil_h, g.stride_h, padding, &g.out_h, &g.pad_top,
                       &g.pad_bottom);
  windowed_output_size(op, g.in_w, g.f_w, g.dil_w, g.stride_w, padding, &g.out_w, &g.pad_left,
                       &g.pad_right);
  if (g.fully_known()) {
    int64_t n = 1;
    for (int64_t d : g.output_dims()) n = checked_mul(n, d);
  }
  return g;
}

}  // namespace tfcc
