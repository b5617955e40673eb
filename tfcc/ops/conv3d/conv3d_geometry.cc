// TensorFlow's 3-D window geometry: the attribute checks of Conv3D (strides, dilations, padding,
// data_format: NDHWC only) and of MaxPool3D / AvgPool3D (ksize, strides), the channel rule of
// Conv3D's filter (no groups, as TensorFlow's CPU kernel), and the windowed output size of each
// spatial dim (conv_geometry.cc's SAME / VALID formula).
#include <string>

#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/ops/conv3d/conv3d_internal.h"

namespace tfcc {
namespace {

void check_format(const OpDef& op, const Attrs& attrs) {
  const std::string& fmt = attrs.get<std::string>("data_format");
  if (fmt != "NDHWC") {
    op_error(op, internal::str_cat("The ", op.name(),
                                   " op currently only supports the NDHWC tensor format on the "
                                   "CPU. The op was given the format: ",
                                   fmt));
  }
}

const std::string& check_padding(const OpDef& op, const Attrs& attrs) {
  const std::string& padding = attrs.get<std::string>("padding");
  if (padding != "SAME" && padding != "VALID") {
    op_error(op, internal::str_cat("Value for attr 'padding' of \"", padding,
                                   "\" is not in the list of allowed values: \"SAME\", \"VALID\""));
  }
  return padding;
}

// A 5-D NDHWC shape (or five -1s when the rank is unknown).
std::vector<int64_t> dims5(const OpDef& op, const PartialShape& s, const char* what) {
  if (!s.rank_known()) return std::vector<int64_t>(5, -1);
  if (s.rank() != 5) {
    op_error(op, internal::str_cat(what, " must be 5-dimensional, got shape ", s.to_string()));
  }
  return s.dims();
}

void output_sizes(const OpDef& op, const std::string& padding, Window3D& g) {
  for (size_t i = 0; i < 3; ++i) {
    int64_t after = 0;
    windowed_output_size(op, g.in[i], g.k[i], g.dil[i], g.stride[i], padding, &g.out[i], &g.pad[i],
                         &after);
  }
}

}  // namespace

std::string dims3d_string(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += internal::str_cat(i ? "," : "", d[i]);
  return s + "]";
}

Window3D conv3d_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input,
                         const PartialShape& filter) {
  check_format(op, attrs);
  const auto& strides = attrs.get<std::vector<int64_t>>("strides");
  const auto& dilations = attrs.get<std::vector<int64_t>>("dilations");
  if (strides.size() != 5) {
    op_error(op, internal::str_cat("strides must have 5 elements (NDHWC), got ", strides.size()));
  }
  if (dilations.size() != 5) {
    op_error(op,
             internal::str_cat("dilations must have 5 elements (NDHWC), got ", dilations.size()));
  }
  if (strides[0] != 1 || strides[4] != 1) {
    op_error(op,
             "Current implementation does not yet support strides in the batch and depth "
             "dimensions.");
  }
  if (dilations[0] != 1 || dilations[4] != 1) {
    op_error(op,
             "Current implementation does not yet support dilation rates in the batch and depth "
             "dimensions.");
  }
  for (size_t i = 1; i < 4; ++i) {
    if (strides[i] <= 0) op_error(op, "Spatial strides should be larger than 0.");
    if (dilations[i] <= 0) op_error(op, "Dilated rates should be larger than 0.");
  }
  const std::string& padding = check_padding(op, attrs);
  const std::vector<int64_t> in = dims5(op, input, "input");
  const std::vector<int64_t> f = dims5(op, filter, "filter");
  Window3D g;
  g.batch = in[0];
  g.in_c = in[4];
  for (size_t i = 0; i < 3; ++i) {
    g.in[i] = in[i + 1];
    g.k[i] = f[i];
    g.stride[i] = strides[i + 1];
    g.dil[i] = dilations[i + 1];
    if (f[i] == 0) {
      op_error(op, "filter spatial dimensions must be positive: " + dims3d_string(f));
    }
  }
  g.f_in_c = f[3];
  g.out_c = f[4];
  if (in[4] >= 0 && f[3] >= 0 && in[4] != f[3]) {
    op_error(op, internal::str_cat("Number of channels in filter (", f[3],
                                   ") must match last dimension of input (", in[4], ")"));
  }
  output_sizes(op, padding, g);
  int64_t n = 1;
  for (int64_t d : g.output_dims()) n = checked_mul(n, std::max<int64_t>(d, 1));
  return g;
}

Window3D pool3d_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input) {
  check_format(op, attrs);
  const auto& ksize = attrs.get<std::vector<int64_t>>("ksize");
  const auto& strides = attrs.get<std::vector<int64_t>>("strides");
  if (ksize.size() != 5) {
    op_error(op, internal::str_cat("ksize must have 5 elements (NDHWC), got ", ksize.size()));
  }
  if (strides.size() != 5) {
    op_error(op, internal::str_cat("strides must have 5 elements (NDHWC), got ", strides.size()));
  }
  for (size_t i = 0; i < 5; ++i) {
    if (ksize[i] <= 0) {
      op_error(op, internal::str_cat("Sliding window ksize for dimension ", i, " was ", ksize[i],
                                     "; it must be positive."));
    }
    if (strides[i] <= 0) {
      op_error(op, internal::str_cat("Stride must be > 0, but got ", strides[i]));
    }
  }
  if (ksize[0] != 1 || strides[0] != 1) {
    op_error(op, "Pooling is not yet supported on the batch dimension.");
  }
  if (ksize[4] != 1 || strides[4] != 1) {
    op_error(op, "Pooling is not yet supported on the depth dimension.");
  }
  const std::string& padding = check_padding(op, attrs);
  const std::vector<int64_t> in = dims5(op, input, "input");
  Window3D g;
  g.batch = in[0];
  g.in_c = g.f_in_c = g.out_c = in[4];
  for (size_t i = 0; i < 3; ++i) {
    g.in[i] = in[i + 1];
    g.k[i] = ksize[i + 1];
    g.stride[i] = strides[i + 1];
  }
  output_sizes(op, padding, g);
  return g;
}

}  // namespace tfcc
