// Conformance rows of the conv3d family's convolutions (Conv3D, Conv3DBackpropInputV2,
// Conv3DBackpropFilterV2, conv3d_transpose) against float64 references written here as plain
// loops over NDHWC Refs, with TensorFlow's error messages for invalid calls. Size arguments
// travel as pinned int64 inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/ops/conv3d_ref.h"

namespace tfcc::conformance {
namespace {

using conv3d_ref::count;
using conv3d_ref::f32;
using conv3d_ref::for_each_tap;
using conv3d_ref::ints;
using conv3d_ref::out_shape;
using conv3d_ref::P3;
using conv3d_ref::sizes_ref;

std::vector<int64_t> spatial(const std::vector<int64_t>& f) { return {f[0], f[1], f[2]}; }

// y[o, oc] += x[i, ic] * f[tap, ic, oc].
Ref conv_ref3(const Ref& x, const Ref& f, const P3& p) {
  const int64_t C = f.shape[3], O = f.shape[4];
  const std::vector<int64_t> ys = out_shape(x.shape, spatial(f.shape), p, O);
  Ref y{ys, std::vector<double>(size_t(count(ys)), 0.0), {}};
  for_each_tap(x.shape, spatial(f.shape), p, [&](int64_t o, int64_t i, int64_t t) {
    for (int64_t oc = 0; oc < O; ++oc)
      for (int64_t ic = 0; ic < C; ++ic)
        y.values[size_t(o * O + oc)] +=
            x.values[size_t(i * C + ic)] * f.values[size_t((t * C + ic) * O + oc)];
  });
  return y;
}

Ref input_grad_ref(const std::vector<int64_t>& xs, const Ref& f, const Ref& dy, const P3& p) {
  const int64_t C = f.shape[3], O = f.shape[4];
  Ref dx{xs, std::vector<double>(size_t(count(xs)), 0.0), {}};
  for_each_tap(xs, spatial(f.shape), p, [&](int64_t o, int64_t i, int64_t t) {
    for (int64_t oc = 0; oc < O; ++oc)
      for (int64_t ic = 0; ic < C; ++ic)
        dx.values[size_t(i * C + ic)] +=
            dy.values[size_t(o * O + oc)] * f.values[size_t((t * C + ic) * O + oc)];
  });
  return dx;
}

Ref filter_grad_ref(const Ref& x, const std::vector<int64_t>& fs, const Ref& dy, const P3& p) {
  const int64_t C = fs[3], O = fs[4];
  Ref df{fs, std::vector<double>(size_t(count(fs)), 0.0), {}};
  for_each_tap(x.shape, spatial(fs), p, [&](int64_t o, int64_t i, int64_t t) {
    for (int64_t oc = 0; oc < O; ++oc)
      for (int64_t ic = 0; ic < C; ++ic)
        df.values[size_t((t * C + ic) * O + oc)] +=
            x.values[size_t(i * C + ic)] * dy.values[size_t(o * O + oc)];
  });
  return df;
}

void conv_tolerances(OpRow& row) {
  row.rtol32 = 1e-4;
  row.atol32 = 5e-4;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-10;
}

Case xf(std::string label, std::vector<int64_t> xs, std::vector<int64_t> fs, uint64_t seed) {
  return {std::move(label), {filled(xs, -2, 2, seed), filled(fs, -2, 2, seed + 1)}, {}};
}

std::vector<BadCase> conv_invalid() {
  return {
      {"input rank 4",
       [] {
         conv3d(f32({5, 5, 5, 2}), f32({3, 3, 3, 2, 4}), {1}, "VALID");
       },
       ErrorCode::kInvalidArgument,
       "input must be 5-dimensional, got shape (5, 5, 5, 2) [Op:Conv3D]"},
      {"filter rank 4",
       [] {
         conv3d(f32({1, 5, 5, 5, 2}), f32({3, 3, 2, 4}), {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "filter must be 5-dimensional"},
      {"channel mismatch",
       [] {
         conv3d(f32({1, 5, 5, 5, 4}), f32({3, 3, 3, 2, 4}), {1}, "VALID");
       },
       ErrorCode::kInvalidArgument,
       "Number of channels in filter (2) must match last dimension of input (4)"},
      {"kernel larger than the input",
       [] {
         conv3d(f32({1, 2, 5, 5, 1}), f32({4, 3, 3, 1, 1}), {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Computed output size would be negative: -1"},
      {"zero stride",
       [] {
         conv3d(f32({1, 5, 5, 5, 1}), f32({3, 3, 3, 1, 1}), {1, 0, 1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Spatial strides should be larger than 0."},
      {"batch stride",
       [] {
         conv3d(f32({1, 5, 5, 5, 1}), f32({3, 3, 3, 1, 1}), {2, 1, 1, 1, 1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "does not yet support strides in the batch and depth"},
      {"strides of length 2",
       [] {
         conv3d(f32({1, 5, 5, 5, 1}), f32({3, 3, 3, 1, 1}), {1, 1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "strides should be of length 1, 3 or 5 but was 2"},
      {"zero dilation",
       [] {
         conv3d(f32({1, 5, 5, 5, 1}), f32({3, 3, 3, 1, 1}), {1}, "VALID", {0});
       },
       ErrorCode::kInvalidArgument, "Dilated rates should be larger than 0."},
      {"unknown padding",
       [] {
         conv3d(f32({1, 5, 5, 5, 1}), f32({3, 3, 3, 1, 1}), {1}, "FULL");
       },
       ErrorCode::kInvalidArgument,
       "Value for attr 'padding' of \"FULL\" is not in the list of allowed values"},
      {"int32",
       [] {
         conv3d(Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1, 1}),
                Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1, 1}), {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "[Op:Conv3D]"},
  };
}

OpRow conv_row(std::string name, P3 p, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {"Conv3D"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{conv3d(in[0], in[1], p.s, p.padding, p.d)};
  };
  row.reference = [p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(conv_ref3(in[0], in[1], p), dt)};
  };
  conv_tolerances(row);
  row.second_order = true;
  return row;
}

// Backprop cases: (sizes, the other operand, dy).
Case bp_case(std::string label, std::vector<int64_t> sizes, std::vector<int64_t> other,
             std::vector<int64_t> dy, uint64_t seed) {
  return {std::move(label),
          {sizes_ref(sizes), filled(other, -2, 2, seed), filled(dy, -2, 2, seed + 1)},
          {}};
}

OpRow input_grad_row(P3 p, std::vector<Case> cases) {
  OpRow row;
  row.name = "conv3d_backprop_input_same_stride2";
  row.ops = {"Conv3DBackpropInputV2"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        conv3d_backprop_input(in[0].to_vector<int64_t>(), in[1], in[2], p.s, p.padding, p.d)};
  };
  row.reference = [p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(input_grad_ref(ints(in[0]), in[1], in[2], p), dt)};
  };
  conv_tolerances(row);
  row.second_order = true;
  row.invalid = {
      {"negative input_sizes",
       [p] {
         conv3d_backprop_input({1, -5, 5, 5, 2}, f32({3, 3, 3, 2, 4}), f32({1, 3, 3, 3, 4}), p.s,
                               p.padding);
       },
       ErrorCode::kInvalidArgument,
       "Conv3DBackpropInputV2: input_sizes must be non-negative, got [1,-5,5,5,2]"},
      {"input_sizes of 4 values",
       [p] {
         conv3d_backprop_input({5, 5, 5, 2}, f32({3, 3, 3, 2, 4}), f32({1, 3, 3, 3, 4}), p.s,
                               p.padding);
       },
       ErrorCode::kInvalidArgument, "input_sizes must have 5 elements, got 4"},
      {"out_backprop of the wrong size",
       [p] {
         conv3d_backprop_input({1, 5, 5, 5, 2}, f32({3, 3, 3, 2, 4}), f32({1, 4, 3, 3, 4}), p.s,
                               p.padding);
       },
       ErrorCode::kInvalidArgument,
       "Size of out_backprop doesn't match computed: actual = 4, computed = 3 (planes)"},
      {"channel mismatch",
       [p] {
         conv3d_backprop_input({1, 5, 5, 5, 3}, f32({3, 3, 3, 2, 4}), f32({1, 3, 3, 3, 4}), p.s,
                               p.padding);
       },
       ErrorCode::kInvalidArgument, "Number of channels in filter (2)"},
  };
  return row;
}

OpRow filter_grad_row(P3 p, std::vector<Case> cases) {
  OpRow row;
  row.name = "conv3d_backprop_filter_valid_dilated";
  row.ops = {"Conv3DBackpropFilterV2"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        conv3d_backprop_filter(in[1], in[0].to_vector<int64_t>(), in[2], p.s, p.padding, p.d)};
  };
  row.reference = [p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(filter_grad_ref(in[1], ints(in[0]), in[2], p), dt)};
  };
  conv_tolerances(row);
  row.atol32 = 2e-3;  // sums over batch and positions
  row.second_order = true;
  row.invalid = {
      {"out_backprop channels",
       [] {
         conv3d_backprop_filter(f32({1, 5, 5, 5, 2}), {3, 3, 3, 2, 4}, f32({1, 3, 3, 3, 5}), {1},
                                "VALID");
       },
       ErrorCode::kInvalidArgument, "(out_depth)"},
      {"out_backprop rank 4",
       [] {
         conv3d_backprop_filter(f32({1, 5, 5, 5, 2}), {3, 3, 3, 2, 4}, f32({3, 3, 3, 4}), {1},
                                "VALID");
       },
       ErrorCode::kInvalidArgument, "out_backprop must be 5-dimensional"},
      {"negative filter_sizes",
       [] {
         conv3d_backprop_filter(f32({1, 5, 5, 5, 2}), {3, -3, 3, 2, 4}, f32({1, 3, 3, 3, 4}), {1},
                                "VALID");
       },
       ErrorCode::kInvalidArgument, "filter_sizes must be non-negative"},
  };
  return row;
}

void add_conv_rows(std::vector<OpRow>& rows) {
  const P3 valid;
  P3 same2;
  same2.s = {2, 2, 2};
  same2.padding = "SAME";
  P3 mixed;  // SAME, strides (1, 2, 1), dilations (2, 1, 1)
  mixed.s = {1, 2, 1};
  mixed.d = {2, 1, 1};
  mixed.padding = "SAME";
  OpRow v = conv_row("conv3d_valid", valid,
                     {xf("1x3x3x3x2 * 2x2x2x2x2", {1, 3, 3, 3, 2}, {2, 2, 2, 2, 2}, 1),
                      xf("1x1x1 filter", {2, 2, 3, 2, 3}, {1, 1, 1, 3, 2}, 3),
                      xf("empty batch", {0, 4, 4, 4, 2}, {3, 3, 3, 2, 3}, 5),
                      xf("zero input channels", {1, 3, 3, 3, 0}, {2, 2, 2, 0, 2}, 7),
                      xf("large", {2, 10, 12, 11, 4}, {3, 3, 3, 4, 8}, 9)});
  v.invalid = conv_invalid();
  rows.push_back(std::move(v));
  rows.push_back(conv_row("conv3d_same_stride2", same2,
                          {xf("odd sizes 1x3x4x3x1 * 2x3x2", {1, 3, 4, 3, 1}, {2, 3, 2, 1, 2}, 11),
                           xf("large", {2, 9, 10, 11, 3}, {3, 3, 3, 3, 6}, 13)}));
  rows.push_back(conv_row("conv3d_same_dilated", mixed,
                          {xf("1x4x3x3x1 * 2x2x2", {1, 4, 3, 3, 1}, {2, 2, 2, 1, 2}, 15),
                           xf("large", {2, 12, 10, 9, 4}, {3, 3, 3, 4, 4}, 17)}));
  rows.push_back(input_grad_row(
      same2, {bp_case("1x3x4x3x1", {1, 3, 4, 3, 1}, {2, 3, 2, 1, 2}, {1, 2, 2, 2, 2}, 21),
              bp_case("large", {2, 9, 10, 11, 3}, {3, 3, 3, 3, 6}, {2, 5, 5, 6, 6}, 23)}));
  P3 dil;
  dil.d = {1, 2, 1};
  rows.push_back(filter_grad_row(
      dil, {bp_case("1x3x4x3x1", {2, 2, 2, 1, 2}, {1, 3, 4, 3, 1}, {1, 2, 2, 2, 2}, 31),
            bp_case("large", {3, 3, 3, 3, 4}, {2, 9, 10, 9, 3}, {2, 7, 6, 7, 4}, 33)}));
  OpRow t;
  t.name = "conv3d_transpose";
  t.ops = {"Conv3DBackpropInputV2"};
  t.dtypes = kFloat;
  // input [1, 2, 2, 2, 2] (a stride-2 SAME conv's output) -> output_shape [1, 3, 4, 3, 1].
  t.cases = {xf("1x2x2x2x2 -> 1x3x4x3x1", {1, 2, 2, 2, 2}, {2, 3, 2, 1, 2}, 41)};
  t.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{conv3d_transpose(in[0], in[1], {1, 3, 4, 3, 1}, {2}, "SAME")};
  };
  t.reference = [same2](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{
        conv_ref::as_dtype(input_grad_ref({1, 3, 4, 3, 1}, in[1], in[0], same2), dt)};
  };
  conv_tolerances(t);
  rows.push_back(std::move(t));
}

}  // namespace

std::vector<OpRow> conv3d_rows() {
  std::vector<OpRow> rows;
  add_conv_rows(rows);
  share_invalid_cases(rows);
  return rows;
}

}  // namespace tfcc::conformance
