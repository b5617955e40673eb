// Conformance rows of the conv family: Conv2D (VALID, SAME with strides, dilations, explicit
// padding, grouped), DepthwiseConv2dNative, the backprop ops, conv2d_transpose and conv1d, each
// against the plain-loop float64 references of conv_ref.h, with TensorFlow's error messages for
// invalid calls. Backprop rows take their size argument as a pinned int64 input (as TensorFlow's
// ops do) so that one row covers several shapes.
#include <gtest/gtest.h>

#include "tests/ops/conv_ref.h"

namespace tfcc::conformance {
namespace {

using conv_ref::Params;

Tensor f32(std::vector<int64_t> s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return Tensor::from_vector(std::vector<float>(size_t(n), 1.f), Shape(s));
}

std::vector<int64_t> strides_of(const Params& p) { return {1, p.sh, p.sw, 1}; }
std::vector<int64_t> dilations_of(const Params& p) { return {1, p.dh, p.dw, 1}; }
Padding padding_of(const Params& p) {
  if (p.padding != "EXPLICIT") return Padding(p.padding);
  return Padding({{0, 0}, {p.pads[0], p.pads[1]}, {p.pads[2], p.pads[3]}, {0, 0}});
}
std::vector<int64_t> sizes_from(const Tensor& t) { return t.to_vector<int64_t>(); }
Ref sizes_ref(std::vector<int64_t> s) {
  std::vector<double> v(s.begin(), s.end());
  return vec(v, int64);
}
std::vector<int64_t> sizes_of_ref(const Ref& r) {
  return std::vector<int64_t>(r.values.begin(), r.values.end());
}

Case xf(std::string label, std::vector<int64_t> xs, std::vector<int64_t> fs, uint64_t seed) {
  return {std::move(label), {filled(xs, -2, 2, seed), filled(fs, -2, 2, seed + 1)}, {}};
}

void tolerances(OpRow& row) {
  row.rtol32 = 1e-4;
  row.atol32 = 2e-4;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-10;
}

std::vector<BadCase> conv_invalid() {
  const Padding valid("VALID");
  return {
      {"input rank 3",
       [valid] {
         conv2d(f32({5, 5, 1}), f32({3, 3, 1, 1}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "input must be 4-dimensional[5,5,1] [Op:Conv2D]"},
      {"filter rank 3",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "filter must be 4-dimensional: [3,3,1]"},
      {"mismatched channels",
       [valid] {
         conv2d(f32({1, 5, 5, 3}), f32({3, 3, 2, 4}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "input depth must be evenly divisible by filter depth: 3 vs 2"},
      {"groups do not divide out depth",
       [valid] {
         conv2d(f32({1, 5, 5, 4}), f32({3, 3, 2, 3}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "output depth must be evenly divisible by number of groups"},
      {"kernel larger than the input",
       [valid] {
         conv2d(f32({1, 1, 5, 1}), f32({3, 3, 1, 1}), {1}, valid);
       },
       ErrorCode::kInvalidArgument,
       "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
       "stride: 1]"},
      {"kernel larger than the explicitly padded input",
       [] {
         conv2d(f32({1, 2, 5, 1}), f32({5, 1, 1, 1}), {1}, {{0, 0}, {1, 0}, {0, 0}, {0, 0}});
       },
       ErrorCode::kInvalidArgument, "Computed output size would be negative"},
      {"dilation makes the kernel too large",
       [valid] {
         conv2d(f32({1, 3, 3, 1}), f32({2, 2, 1, 1}), {1}, valid, {4});
       },
       ErrorCode::kInvalidArgument, "effective_filter_size: 5"},
      {"zero stride",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {0}, valid);
       },
       ErrorCode::kInvalidArgument, "Row and column strides should be larger than 0."},
      {"negative stride",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1, -1}, valid);
       },
       ErrorCode::kInvalidArgument, "Row and column strides should be larger than 0."},
      {"batch stride",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {2, 1, 1, 1}, valid);
       },
       ErrorCode::kInvalidArgument,
       "Current implementation does not yet support strides in the batch and depth dimensions."},
      {"strides of length 3",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1, 1, 1}, valid);
       },
       ErrorCode::kInvalidArgument, "strides should be of length 1, 2 or 4 but was 3"},
      {"zero dilation",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1}, valid, {0});
       },
       ErrorCode::kInvalidArgument, "Dilated rates should be larger than 0."},
      {"depth dilation",
       [valid] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1}, valid, {1, 1, 1, 2});
       },
       ErrorCode::kInvalidArgument, "does not yet support dilations in the batch and depth"},
      {"unknown padding",
       [] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1}, "FULL");
       },
       ErrorCode::kInvalidArgument,
       "Value for attr 'padding' of \"FULL\" is not in the list of allowed values"},
      {"negative explicit padding",
       [] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1}, {{0, 0}, {-1, 0}, {0, 0}, {0, 0}});
       },
       ErrorCode::kInvalidArgument, "All elements of explicit_paddings must be nonnegative"},
      {"explicit batch padding",
       [] {
         conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1}, {{1, 0}, {0, 0}, {0, 0}, {0, 0}});
       },
       ErrorCode::kInvalidArgument,
       "Nonzero explicit padding in the batch or depth dimensions is not supported"},
      {"int32",
       [valid] {
         conv2d(Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1}),
                Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "[Op:Conv2D]"},
      {"mixed dtypes",
       [valid] {
         conv2d(f32({1, 3, 3, 1}), Tensor::from_vector<double>({1}, Shape{1, 1, 1, 1}), {1}, valid);
       },
       ErrorCode::kInvalidArgument, "[Op:Conv2D]"},
  };
}

OpRow conv_row(std::string name, Params p, std::vector<Case> cases, bool with_invalid = false,
               bool second_order = true) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {"Conv2D"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{conv2d(in[0], in[1], strides_of(p), padding_of(p), dilations_of(p))};
  };
  row.reference = [p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(conv_ref::conv(in[0], in[1], p, false), dt)};
  };
  tolerances(row);
  if (with_invalid) row.invalid = conv_invalid();
  row.second_order = second_order;
  return row;
}

OpRow depthwise_row(std::string name, Params p, std::vector<Case> cases, bool with_invalid) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {"DepthwiseConv2dNative"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        depthwise_conv2d(in[0], in[1], strides_of(p), padding_of(p), dilations_of(p))};
  };
  row.reference = [p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(conv_ref::conv(in[0], in[1], p, true), dt)};
  };
  tolerances(row);
  if (with_invalid) {
    const Padding valid("VALID");
    row.invalid = {
        {"channels differ",
         [valid] {
           depthwise_conv2d(f32({1, 5, 5, 3}), f32({3, 3, 2, 1}), {1}, valid);
         },
         ErrorCode::kInvalidArgument,
         "input and filter must have the same depth: 3 vs 2 [Op:DepthwiseConv2dNative]"},
        {"input rank 2",
         [valid] {
           depthwise_conv2d(f32({5, 5}), f32({3, 3, 5, 1}), {1}, valid);
         },
         ErrorCode::kInvalidArgument, "input must be 4-dimensional[5,5]"},
        {"kernel larger than the input",
         [valid] {
           depthwise_conv2d(f32({1, 2, 2, 1}), f32({4, 1, 1, 1}), {1}, valid);
         },
         ErrorCode::kInvalidArgument, "Computed output size would be negative"},
        {"zero stride",
         [valid] {
           depthwise_conv2d(f32({1, 5, 5, 1}), f32({3, 3, 1, 1}), {1, 0}, valid);
         },
         ErrorCode::kInvalidArgument, "strides should be larger than 0"},
    };
  }
  row.second_order = true;
  return row;
}

// Backprop rows: inputs (sizes as pinned int64, the other operand, out_backprop).
OpRow input_grad_row(std::string name, Params p, bool dw, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {dw ? "DepthwiseConv2dNativeBackpropInput" : "Conv2DBackpropInput"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p, dw](const std::vector<Tensor>& in) {
    auto f = dw ? depthwise_conv2d_backprop_input : conv2d_backprop_input;
    return std::vector<Tensor>{f(sizes_from(in[0]), in[1], in[2], strides_of(p), padding_of(p),
                                 dilations_of(p), Loc::current())};
  };
  row.reference = [p, dw](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(
        conv_ref::conv_input_grad(sizes_of_ref(in[0]), in[1], in[2], p, dw), dt)};
  };
  tolerances(row);
  row.second_order = true;
  return row;
}

OpRow filter_grad_row(std::string name, Params p, bool dw, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {dw ? "DepthwiseConv2dNativeBackpropFilter" : "Conv2DBackpropFilter"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p, dw](const std::vector<Tensor>& in) {
    auto f = dw ? depthwise_conv2d_backprop_filter : conv2d_backprop_filter;
    return std::vector<Tensor>{f(in[1], sizes_from(in[0]), in[2], strides_of(p), padding_of(p),
                                 dilations_of(p), Loc::current())};
  };
  row.reference = [p, dw](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(
        conv_ref::conv_filter_grad(in[1], sizes_of_ref(in[0]), in[2], p, dw), dt)};
  };
  tolerances(row);
  row.rtol32 = 2e-4;
  row.atol32 = 2e-3;  // sums over batch and positions
  // Second order of the filter gradient runs the same rules as the input-gradient rows'; skipped
  // here to keep the table quick.
  row.second_order = false;
  return row;
}

// A backprop case: sizes, the other operand, and dy of the forward output's shape.
Case bp_case(std::string label, std::vector<int64_t> sizes, std::vector<int64_t> other,
             std::vector<int64_t> dy, uint64_t seed) {
  return {std::move(label),
          {sizes_ref(std::move(sizes)), filled(other, -2, 2, seed), filled(dy, -2, 2, seed + 1)},
          {}};
}

}  // namespace

std::vector<OpRow> conv_rows() {
  std::vector<OpRow> rows;
  Params valid;
  Params same2;
  same2.padding = "SAME";
  same2.sh = same2.sw = 2;
  Params dilated;
  dilated.padding = "SAME";
  dilated.dh = 2;
  dilated.dw = 3;
  Params expl;
  expl.padding = "EXPLICIT";
  expl.pads = {1, 2, 0, 3};
  expl.sh = 2;
  rows.push_back(conv_row("conv2d_valid", valid,
                          {xf("1x5x5x2 * 3x3x2x3", {1, 5, 5, 2}, {3, 3, 2, 3}, 1),
                           xf("2x4x6x1 * 2x3x1x2", {2, 4, 6, 1}, {2, 3, 1, 2}, 3),
                           xf("1x1 filter", {2, 3, 3, 2}, {1, 1, 2, 3}, 5),
                           xf("kernel = input: 1x1 output", {1, 3, 3, 2}, {3, 3, 2, 2}, 7),
                           xf("empty batch", {0, 5, 5, 2}, {3, 3, 2, 3}, 9),
                           xf("zero input channels", {1, 4, 4, 0}, {3, 3, 0, 2}, 11),
                           xf("large (seed CNN layer)", {4, 28, 28, 1}, {3, 3, 1, 32}, 13),
                           xf("large, many channels", {2, 12, 12, 16}, {3, 3, 16, 24}, 15)},
                          true, /*second_order=*/false));  // the other conv rows check it
  rows.push_back(
      conv_row("conv2d_same_stride2", same2,
               {xf("odd input 1x7x6x3 * 3x3", {1, 7, 6, 3}, {3, 3, 3, 2}, 21),
                xf("even kernel 1x4x5x1 * 2x2", {1, 4, 5, 1}, {2, 2, 1, 2}, 23),
                xf("kernel larger than input (SAME pads)", {1, 2, 2, 1}, {3, 3, 1, 1}, 25),
                xf("large", {3, 20, 17, 4}, {5, 5, 4, 8}, 27)}));
  rows.push_back(conv_row("conv2d_dilated", dilated,
                          {xf("1x7x8x2 * 3x2 dil 2x3", {1, 7, 8, 2}, {3, 2, 2, 2}, 31),
                           xf("small 1x5x6x1 * 2x2", {1, 5, 6, 1}, {2, 2, 1, 2}, 35),
                           xf("large", {2, 16, 16, 3}, {3, 3, 3, 8}, 33)}));
  rows.push_back(conv_row("conv2d_explicit", expl,
                          {xf("1x5x4x2 * 3x3 pads 1,2,0,3", {1, 5, 4, 2}, {3, 3, 2, 2}, 41),
                           xf("large", {2, 15, 15, 4}, {3, 3, 4, 8}, 43)}));
  rows.push_back(conv_row("conv2d_grouped", valid,
                          {xf("2 groups 1x4x4x4 * 3x3x2x4", {1, 4, 4, 4}, {3, 3, 2, 4}, 51),
                           xf("3 groups 1x3x5x6 * 2x2x2x3", {1, 3, 5, 6}, {2, 2, 2, 3}, 53),
                           xf("large, 4 groups", {2, 14, 14, 16}, {3, 3, 4, 16}, 55)}));

  rows.push_back(depthwise_row("depthwise_conv2d_valid", valid,
                               {xf("1x5x5x3 * 3x3x3x2", {1, 5, 5, 3}, {3, 3, 3, 2}, 61),
                                xf("multiplier 1", {2, 4, 4, 2}, {2, 2, 2, 1}, 63),
                                xf("large", {4, 20, 20, 8}, {3, 3, 8, 2}, 65)},
                               true));
  rows.push_back(depthwise_row("depthwise_conv2d_same_stride2", same2,
                               {xf("1x7x6x2 * 3x3x2x2", {1, 7, 6, 2}, {3, 3, 2, 2}, 71),
                                xf("large", {2, 21, 20, 8}, {3, 3, 8, 3}, 73)},
                               false));

  // Backprop rows (the forward shapes of the rows above).
  {
    OpRow r = input_grad_row("conv2d_backprop_input_same_stride2", same2, false,
                             {bp_case("1x7x6x3", {1, 7, 6, 3}, {3, 3, 3, 2}, {1, 4, 3, 2}, 81),
                              bp_case("large", {3, 20, 17, 4}, {5, 5, 4, 8}, {3, 10, 9, 8}, 83)});
    const Padding same("SAME");
    r.invalid = {
        {"negative input_sizes",
         [same] {
           conv2d_backprop_input({1, -7, 6, 3}, f32({3, 3, 3, 2}), f32({1, 4, 3, 2}), {2}, same);
         },
         ErrorCode::kInvalidArgument,
         "Conv2DBackpropInput: input_sizes must be non-negative, got [1,-7,6,3]"},
        {"input_sizes of 3 values",
         [same] {
           conv2d_backprop_input({7, 6, 3}, f32({3, 3, 3, 2}), f32({1, 4, 3, 2}), {2}, same);
         },
         ErrorCode::kInvalidArgument, "input_sizes must have 4 elements, got 3"},
        {"out_backprop of the wrong size",
         [same] {
           conv2d_backprop_input({1, 7, 6, 3}, f32({3, 3, 3, 2}), f32({1, 5, 3, 2}), {2}, same);
         },
         ErrorCode::kInvalidArgument,
         "Size of out_backprop doesn't match computed: actual = 5, computed = 4"},
        {"out_backprop depth",
         [same] {
           conv2d_backprop_input({1, 7, 6, 3}, f32({3, 3, 3, 2}), f32({1, 4, 3, 3}), {2}, same);
         },
         ErrorCode::kInvalidArgument, "(out_depth)"},
        {"mismatched channels",
         [same] {
           conv2d_backprop_input({1, 7, 6, 4}, f32({3, 3, 3, 2}), f32({1, 4, 3, 2}), {2}, same);
         },
         ErrorCode::kInvalidArgument, "input depth must be evenly divisible by filter depth"},
    };
    rows.push_back(std::move(r));
  }
  rows.push_back(
      input_grad_row("conv2d_backprop_input_grouped_dilated", dilated, false,
                     {bp_case("groups 2", {1, 7, 8, 4}, {3, 2, 2, 4}, {1, 7, 8, 4}, 85),
                      bp_case("small, groups 2", {1, 4, 5, 2}, {2, 2, 1, 2}, {1, 4, 5, 2}, 87)}));
  {
    OpRow r = filter_grad_row("conv2d_backprop_filter_explicit", expl, false,
                              {bp_case("1x5x4x2", {3, 3, 2, 2}, {1, 5, 4, 2}, {1, 3, 5, 2}, 91),
                               bp_case("large", {3, 3, 4, 8}, {2, 15, 15, 4}, {2, 8, 16, 8}, 93)});
    const Padding valid_p("VALID");
    r.invalid = {
        {"negative filter_sizes",
         [valid_p] {
           conv2d_backprop_filter(f32({1, 5, 5, 1}), {3, -3, 1, 1}, f32({1, 3, 3, 1}), {1},
                                  valid_p);
         },
         ErrorCode::kInvalidArgument, "filter_sizes must be non-negative"},
        {"out_backprop rank 3",
         [valid_p] {
           conv2d_backprop_filter(f32({1, 5, 5, 1}), {3, 3, 1, 1}, f32({3, 3, 1}), {1}, valid_p);
         },
         ErrorCode::kInvalidArgument, "out_backprop must be 4-dimensional"},
        {"batch differs",
         [valid_p] {
           conv2d_backprop_filter(f32({2, 5, 5, 1}), {3, 3, 1, 1}, f32({1, 3, 3, 1}), {1}, valid_p);
         },
         ErrorCode::kInvalidArgument, "(batch)"},
    };
    rows.push_back(std::move(r));
  }
  rows.push_back(filter_grad_row(
      "conv2d_backprop_filter_valid", valid, false,
      {bp_case("1x5x5x2", {3, 3, 2, 3}, {1, 5, 5, 2}, {1, 3, 3, 3}, 95),
       bp_case("seed CNN layer", {3, 3, 1, 32}, {8, 28, 28, 1}, {8, 26, 26, 32}, 97)}));
  {
    const Padding same("SAME");
    OpRow r = input_grad_row("depthwise_backprop_input_invalid", same2, true,
                             {bp_case("1x3x3x1", {1, 3, 3, 1}, {2, 2, 1, 1}, {1, 2, 2, 1}, 109)});
    r.invalid = {
        {"channels differ",
         [same] {
           depthwise_conv2d_backprop_input({1, 7, 6, 3}, f32({3, 3, 2, 2}), f32({1, 4, 3, 4}), {2},
                                           same);
         },
         ErrorCode::kInvalidArgument, "input and filter must have the same depth: 3 vs 2"},
        {"out_backprop depth",
         [same] {
           depthwise_conv2d_backprop_input({1, 7, 6, 2}, f32({3, 3, 2, 2}), f32({1, 4, 3, 2}), {2},
                                           same);
         },
         ErrorCode::kInvalidArgument, "(out_depth)"},
    };
    rows.push_back(std::move(r));
    OpRow f = filter_grad_row("depthwise_backprop_filter_invalid", same2, true,
                              {bp_case("1x3x3x1", {2, 2, 1, 1}, {1, 3, 3, 1}, {1, 2, 2, 1}, 119)});
    f.invalid = {
        {"filter_sizes of 5 values",
         [same] {
           depthwise_conv2d_backprop_filter(f32({1, 7, 6, 2}), {3, 3, 2, 2, 1}, f32({1, 4, 3, 4}),
                                            {2}, same);
         },
         ErrorCode::kInvalidArgument, "filter_sizes must have 4 elements, got 5"},
        {"input rank 3",
         [same] {
           depthwise_conv2d_backprop_filter(f32({7, 6, 2}), {3, 3, 2, 2}, f32({1, 4, 3, 4}), {2},
                                            same);
         },
         ErrorCode::kInvalidArgument, "input must be 4-dimensional"},
    };
    rows.push_back(std::move(f));
  }
  rows.push_back(
      input_grad_row("depthwise_backprop_input_same_stride2", same2, true,
                     {bp_case("1x7x6x2", {1, 7, 6, 2}, {3, 3, 2, 2}, {1, 4, 3, 4}, 101),
                      bp_case("large", {2, 21, 20, 8}, {3, 3, 8, 3}, {2, 11, 10, 24}, 103)}));
  rows.push_back(
      filter_grad_row("depthwise_backprop_filter_valid", valid, true,
                      {bp_case("1x4x5x3", {3, 3, 3, 2}, {1, 4, 5, 3}, {1, 2, 3, 6}, 105),
                       bp_case("large", {3, 3, 8, 2}, {4, 20, 20, 8}, {4, 18, 18, 16}, 107)}));

  // Composites.
  {
    OpRow row;
    row.name = "conv2d_transpose";
    row.ops = {"Conv2DBackpropInput"};
    row.dtypes = kFloat;
    // input [1, 3, 3, 2] (a stride-2 SAME conv's output) -> output_shape [1, 6, 5, 3].
    row.cases = {xf("1x3x3x2 -> 1x6x5x3", {1, 3, 3, 2}, {3, 3, 3, 2}, 111)};
    row.fn = [](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{conv2d_transpose(in[0], in[1], {1, 6, 5, 3}, {2}, "SAME")};
    };
    row.reference = [same2](const std::vector<Ref>& in, DType dt) {
      return std::vector<Ref>{conv_ref::as_dtype(
          conv_ref::conv_input_grad({1, 6, 5, 3}, in[1], in[0], same2, false), dt)};
    };
    tolerances(row);
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "conv1d";
    row.ops = {"Conv2D"};
    row.dtypes = kFloat;
    row.cases = {xf("2x9x3 * 3x3x2, stride 2", {2, 9, 3}, {3, 3, 2}, 121),
                 xf("large", {8, 100, 4}, {5, 4, 8}, 123)};
    Params p;
    p.padding = "SAME";
    p.sw = 2;
    row.fn = [](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{conv1d(in[0], in[1], 2, "SAME")};
    };
    row.reference = [p](const std::vector<Ref>& in, DType dt) {
      Ref x = in[0], f = in[1];
      x.shape.insert(x.shape.begin() + 1, 1);
      f.shape.insert(f.shape.begin(), 1);
      Ref y = conv_ref::conv(x, f, p, false);
      y.shape.erase(y.shape.begin() + 1);
      return std::vector<Ref>{conv_ref::as_dtype(y, dt)};
    };
    tolerances(row);
    row.invalid = {{"explicit padding",
                    [] {
                      conv1d(f32({1, 5, 1}), f32({3, 1, 1}), 1, {{0, 0}, {0, 0}, {1, 1}, {0, 0}});
                    },
                    ErrorCode::kInvalidArgument, "conv1d takes padding"}};
    rows.push_back(std::move(row));
  }
  share_invalid_cases(rows);
  return rows;
}

}  // namespace tfcc::conformance
