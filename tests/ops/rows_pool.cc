// Conformance rows of the pool family: MaxPool, AvgPool (VALID and SAME; average over the
// elements inside the input), MaxPoolGrad, MaxPoolGradGrad, _MaxPoolGradReluGrad, AvgPoolGrad,
// and the global pooling composites, against plain-loop float64 references written here.
#include <gtest/gtest.h>

#include <limits>

#include "tests/ops/conv_ref.h"
#include "tfcc/ops/pool/pool_fused.h"

namespace tfcc::conformance {
namespace {

struct PoolParams {
  int64_t k = 2, s = 2;
  std::string padding = "VALID";
};

// Calls fn(out_index, in_index) for every (output element, window element inside the input),
// in row-major window order.
template <typename F>
void for_each_window(const std::vector<int64_t>& xs, const PoolParams& p, F&& fn) {
  const int64_t N = xs[0], H = xs[1], W = xs[2], C = xs[3];
  const conv_ref::Dim r = conv_ref::window(H, p.k, 1, p.s, p.padding);
  const conv_ref::Dim c = conv_ref::window(W, p.k, 1, p.s, p.padding);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < r.out; ++oh)
      for (int64_t ow = 0; ow < c.out; ++ow)
        for (int64_t ch = 0; ch < C; ++ch)
          for (int64_t kh = 0; kh < p.k; ++kh)
            for (int64_t kw = 0; kw < p.k; ++kw) {
              const int64_t ih = oh * p.s - r.pad + kh, iw = ow * p.s - c.pad + kw;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              fn(((n * r.out + oh) * c.out + ow) * C + ch, ((n * H + ih) * W + iw) * C + ch);
            }
}

std::vector<int64_t> out_shape(const std::vector<int64_t>& xs, const PoolParams& p) {
  return {xs[0], conv_ref::window(xs[1], p.k, 1, p.s, p.padding).out,
          conv_ref::window(xs[2], p.k, 1, p.s, p.padding).out, xs[3]};
}

int64_t count(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

Ref pool_ref(const Ref& x, const PoolParams& p, bool max) {
  const std::vector<int64_t> os = out_shape(x.shape, p);
  const double init = max ? -std::numeric_limits<double>::infinity() : 0.0;
  Ref y{os, std::vector<double>(size_t(count(os)), init), {}};
  std::vector<double> n(y.values.size(), 0.0);
  for_each_window(x.shape, p, [&](int64_t o, int64_t i) {
    if (max) {
      y.values[size_t(o)] = std::max(y.values[size_t(o)], x.values[size_t(i)]);
    } else {
      y.values[size_t(o)] += x.values[size_t(i)];
    }
    n[size_t(o)] += 1;
  });
  if (!max) {
    for (size_t i = 0; i < n.size(); ++i) y.values[i] /= n[i];
  }
  return y;
}

// The index of each window's first maximum.
std::vector<int64_t> argmax_ref(const Ref& x, const PoolParams& p) {
  const std::vector<int64_t> os = out_shape(x.shape, p);
  std::vector<int64_t> arg(size_t(count(os)), -1);
  for_each_window(x.shape, p, [&](int64_t o, int64_t i) {
    if (arg[size_t(o)] < 0 || x.values[size_t(i)] > x.values[size_t(arg[size_t(o)])]) {
      arg[size_t(o)] = i;
    }
  });
  return arg;
}

Tensor f32(std::vector<int64_t> s) {
  return Tensor::from_vector(std::vector<float>(size_t(count(s)), 1.f), Shape(s));
}

std::vector<BadCase> pool_invalid(bool max) {
  auto pool = [max](const Tensor& x, std::vector<int64_t> k, std::vector<int64_t> s,
                    const std::string& pad) {
    return max ? max_pool2d(x, k, s, pad) : avg_pool2d(x, k, s, pad);
  };
  const std::string op = max ? "[Op:MaxPool]" : "[Op:AvgPool]";
  return {
      {"input rank 3",
       [pool] {
         pool(f32({4, 4, 1}), {2}, {2}, "VALID");
       },
       ErrorCode::kInvalidArgument, "input must be 4-dimensional[4,4,1] " + op},
      {"window larger than the input",
       [pool] {
         pool(f32({1, 2, 5, 1}), {4}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Computed output size would be negative: -1"},
      {"zero ksize",
       [pool] {
         pool(f32({1, 4, 4, 1}), {0}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Sliding window ksize for dimension 1 was 0"},
      {"negative stride",
       [pool] {
         pool(f32({1, 4, 4, 1}), {2}, {1, -1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Sliding window stride for dimension 2 was -1"},
      {"batch pooling",
       [pool] {
         pool(f32({2, 4, 4, 1}), {2, 2, 2, 1}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Pooling is not yet supported on the batch dimension."},
      {"depth pooling",
       [pool] {
         pool(f32({1, 4, 4, 2}), {1, 2, 2, 2}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Pooling is not yet supported on the depth dimension."},
      {"ksize of 3 values",
       [pool] {
         pool(f32({1, 4, 4, 1}), {1, 2, 2}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "ksize should be of length 1, 2 or 4 but was 3"},
      {"explicit padding",
       [pool] {
         pool(f32({1, 4, 4, 1}), {2}, {1}, "EXPLICIT");
       },
       ErrorCode::kInvalidArgument, "Value for attr 'padding' of \"EXPLICIT\""},
      {"int32",
       [pool] {
         pool(Tensor::from_vector<int32_t>({1, 2, 3, 4}, Shape{1, 2, 2, 1}), {2}, {2}, "VALID");
       },
       ErrorCode::kInvalidArgument, op},
  };
}

Case x_case(std::string label, std::vector<int64_t> s, uint64_t seed) {
  return {std::move(label), {filled(s, -3, 3, seed)}, {}};
}

OpRow pool_row(std::string name, PoolParams p, bool max, std::vector<Case> cases, bool invalid) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {max ? "MaxPool" : "AvgPool"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p, max](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{max ? max_pool2d(in[0], {p.k}, {p.s}, p.padding)
                                   : avg_pool2d(in[0], {p.k}, {p.s}, p.padding)};
  };
  row.reference = [p, max](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(pool_ref(in[0], p, max), dt)};
  };
  row.rtol32 = 1e-6;
  row.atol32 = 1e-6;
  if (invalid) row.invalid = pool_invalid(max);
  row.second_order = true;
  return row;
}

// Inputs: orig_input, orig_output (any values of its shape), grad.
Case grad_case(std::string label, std::vector<int64_t> xs, const PoolParams& p, bool gradgrad,
               uint64_t seed) {
  const std::vector<int64_t> os = out_shape(xs, p);
  return {std::move(label),
          {filled(xs, -3, 3, seed), filled(os, -3, 3, seed + 1),
           filled(gradgrad ? xs : os, -3, 3, seed + 2)},
          {}};
}

// relu: _MaxPoolGradReluGrad, MaxPoolGrad then zero where orig_input is not > 0.
OpRow max_grad_row(std::string name, PoolParams p, bool gradgrad, std::vector<Case> cases,
                   bool relu = false) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {relu ? "_MaxPoolGradReluGrad" : (gradgrad ? "MaxPoolGradGrad" : "MaxPoolGrad")};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [p, gradgrad, relu](const std::vector<Tensor>& in) {
    if (relu) {
      return std::vector<Tensor>{
          max_pool_grad_relu_grad(in[0], in[1], in[2], {p.k}, {p.s}, p.padding)};
    }
    return std::vector<Tensor>{
        gradgrad ? max_pool_grad_grad(in[0], in[1], in[2], {p.k}, {p.s}, p.padding)
                 : max_pool_grad(in[0], in[1], in[2], {p.k}, {p.s}, p.padding)};
  };
  row.reference = [p, gradgrad, relu](const std::vector<Ref>& in, DType dt) {
    const std::vector<int64_t> arg = argmax_ref(in[0], p);
    Ref out{gradgrad ? in[1].shape : in[0].shape, {}, {}};
    out.values.assign(size_t(count(out.shape)), 0.0);
    for (size_t o = 0; o < arg.size(); ++o) {
      if (arg[o] < 0) continue;
      if (gradgrad) {
        out.values[o] = in[2].values[size_t(arg[o])];
      } else {
        out.values[size_t(arg[o])] += in[2].values[o];
      }
    }
    if (relu) {
      for (size_t i = 0; i < out.values.size(); ++i) {
        if (!(in[0].values[i] > 0)) out.values[i] = 0;
      }
    }
    return std::vector<Ref>{conv_ref::as_dtype(out, dt)};
  };
  row.rtol32 = 1e-6;
  row.atol32 = 1e-5;
  row.second_order = true;
  return row;
}

}  // namespace

std::vector<OpRow> pool_rows() {
  std::vector<OpRow> rows;
  const PoolParams seed;  // 2x2, stride 2, VALID: the seed CNN's pooling
  PoolParams same3;
  same3.k = 3;
  same3.s = 2;
  same3.padding = "SAME";
  PoolParams overlap;
  overlap.k = 3;
  overlap.s = 1;
  for (bool max : {true, false}) {
    const std::string kind = max ? "max_pool2d" : "avg_pool2d";
    rows.push_back(pool_row(
        kind + "_2x2_valid", seed, max,
        {x_case("1x4x4x2", {1, 4, 4, 2}, 1), x_case("odd sizes drop the last row", {2, 5, 3, 3}, 3),
         x_case("empty batch", {0, 4, 4, 2}, 5), x_case("window = input", {1, 2, 2, 3}, 7),
         x_case("large (seed CNN)", {8, 26, 26, 32}, 9)},
        true));
    rows.push_back(pool_row(
        kind + "_3x3_same_stride2", same3, max,
        {x_case("1x5x6x2", {1, 5, 6, 2}, 11), x_case("window larger than input", {1, 2, 1, 2}, 13),
         x_case("large", {4, 31, 30, 16}, 15)},
        false));
    rows.push_back(pool_row(
        kind + "_3x3_valid_overlapping", overlap, max,
        {x_case("1x5x4x3", {1, 5, 4, 3}, 17), x_case("large", {4, 30, 30, 8}, 19)}, false));
  }
  rows.push_back(max_grad_row("max_pool_grad_2x2_valid", seed, false,
                              {grad_case("1x4x5x2", {1, 4, 5, 2}, seed, false, 21),
                               grad_case("large", {8, 26, 26, 32}, seed, false, 23)}));
  // Non-overlapping windows (the select path): clipped SAME windows with fewer taps, and gaps
  // between windows (stride > window) that must stay zero.
  const PoolParams same2{2, 2, "SAME"}, gaps{2, 3, "VALID"};
  rows.push_back(max_grad_row("max_pool_grad_2x2_same_odd_sizes", same2, false,
                              {grad_case("1x3x5x2", {1, 3, 5, 2}, same2, false, 41),
                               grad_case("2x5x7x3", {2, 5, 7, 3}, same2, false, 37)}));
  rows.push_back(max_grad_row("max_pool_grad_2x2_stride3_gaps", gaps, false,
                              {grad_case("1x5x4x2", {1, 5, 4, 2}, gaps, false, 43),
                               grad_case("2x8x7x5", {2, 8, 7, 5}, gaps, false, 39)}));
  rows.push_back(
      max_grad_row("max_pool_grad_3x3_same_stride2", same3, false,
                   {grad_case("1x5x6x2 (overlapping windows)", {1, 5, 6, 2}, same3, false, 25),
                    grad_case("large", {4, 31, 30, 16}, same3, false, 27)}));
  {
    OpRow row = max_grad_row("max_pool_grad_grad_3x3_same_stride2", same3, true,
                             {grad_case("1x4x5x2", {1, 4, 5, 2}, same3, true, 31),
                              grad_case("large", {4, 31, 30, 16}, same3, true, 33)});
    row.invalid = {
        {"grad shaped like the output",
         [] {
           max_pool_grad_grad(f32({1, 4, 4, 1}), f32({1, 2, 2, 1}), f32({1, 2, 2, 1}), {2}, {2},
                              "VALID");
         },
         ErrorCode::kInvalidArgument,
         "grad must have shape [1,4,4,1], got [1,2,2,1] [Op:MaxPoolGradGrad]"},
        {"window larger than the input",
         [] {
           max_pool_grad_grad(f32({1, 1, 4, 1}), f32({1, 1, 2, 1}), f32({1, 1, 4, 1}), {3}, {1},
                              "VALID");
         },
         ErrorCode::kInvalidArgument, "Computed output size would be negative"},
    };
    rows.push_back(std::move(row));
  }
  // The fused gradient of ReLU + max pool (graph pass max_pool_grad_relu_fusion): the select
  // path (2x2 / stride 2) and the overlapping one.
  rows.push_back(max_grad_row("max_pool_grad_relu_grad_2x2_valid", seed, false,
                              {grad_case("1x4x5x2", {1, 4, 5, 2}, seed, false, 51),
                               grad_case("large (seed CNN)", {8, 26, 26, 32}, seed, false, 53)},
                              true));
  {
    OpRow row =
        max_grad_row("max_pool_grad_relu_grad_3x3_same_stride2", same3, false,
                     {grad_case("1x5x6x2 (overlapping windows)", {1, 5, 6, 2}, same3, false, 55),
                      grad_case("large", {4, 31, 30, 16}, same3, false, 57)},
                     true);
    row.invalid = {
        {"grad of the wrong shape",
         [] {
           max_pool_grad_relu_grad(f32({1, 4, 4, 1}), f32({1, 2, 2, 1}), f32({1, 2, 2, 2}), {2},
                                   {2}, "VALID");
         },
         ErrorCode::kInvalidArgument, "grad must have shape [1,2,2,1]"},
        {"window larger than the input",
         [] {
           max_pool_grad_relu_grad(f32({1, 1, 4, 1}), f32({1, 1, 2, 1}), f32({1, 1, 2, 1}), {3},
                                   {1}, "VALID");
         },
         ErrorCode::kInvalidArgument, "Computed output size would be negative"},
    };
    rows.push_back(std::move(row));
  }
  {
    OpRow row = max_grad_row("max_pool_grad_invalid", seed, false,
                             {grad_case("1x2x2x1", {1, 2, 2, 1}, seed, false, 35)});
    row.invalid = {
        {"orig_output of the wrong shape",
         [] {
           max_pool_grad(f32({1, 4, 4, 1}), f32({1, 3, 2, 1}), f32({1, 2, 2, 1}), {2}, {2},
                         "VALID");
         },
         ErrorCode::kInvalidArgument, "orig_output must have shape [1,2,2,1], got [1,3,2,1]"},
        {"grad of the wrong shape",
         [] {
           max_pool_grad(f32({1, 4, 4, 1}), f32({1, 2, 2, 1}), f32({1, 2, 2, 2}), {2}, {2},
                         "VALID");
         },
         ErrorCode::kInvalidArgument, "grad must have shape [1,2,2,1]"},
    };
    rows.push_back(std::move(row));
  }
  for (const PoolParams& p : {seed, same3}) {
    OpRow row;
    row.name = p.padding == "SAME" ? "avg_pool_grad_3x3_same_stride2" : "avg_pool_grad_2x2_valid";
    row.ops = {"AvgPoolGrad"};
    row.dtypes = kFloat;
    auto c = [p](std::string label, std::vector<int64_t> xs, uint64_t seed_) {
      std::vector<double> sv(xs.begin(), xs.end());
      return Case{std::move(label), {vec(sv, int64), filled(out_shape(xs, p), -3, 3, seed_)}, {}};
    };
    row.cases = {c("1x5x6x2", {1, 5, 6, 2}, 41), c("large", {4, 31, 30, 16}, 43)};
    row.fn = [p](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{
          avg_pool_grad(in[0].to_vector<int64_t>(), in[1], {p.k}, {p.s}, p.padding)};
    };
    row.reference = [p](const std::vector<Ref>& in, DType dt) {
      const std::vector<int64_t> xs(in[0].values.begin(), in[0].values.end());
      Ref dx{xs, std::vector<double>(size_t(count(xs)), 0.0), {}};
      std::vector<double> n(size_t(count(out_shape(xs, p))), 0.0);
      for_each_window(xs, p, [&](int64_t o, int64_t) { n[size_t(o)] += 1; });
      for_each_window(xs, p, [&](int64_t o, int64_t i) {
        dx.values[size_t(i)] += in[1].values[size_t(o)] / n[size_t(o)];
      });
      return std::vector<Ref>{conv_ref::as_dtype(dx, dt)};
    };
    row.rtol32 = 1e-5;
    row.atol32 = 1e-5;
    row.second_order = true;
    if (p.padding == "VALID") {
      row.invalid = {
          {"negative orig_input_shape",
           [] {
             avg_pool_grad({1, -4, 4, 1}, f32({1, 2, 2, 1}), {2}, {2}, "VALID");
           },
           ErrorCode::kInvalidArgument, "orig_input_shape must be non-negative"},
          {"grad of the wrong shape",
           [] {
             avg_pool_grad({1, 4, 4, 1}, f32({1, 3, 2, 1}), {2}, {2}, "VALID");
           },
           ErrorCode::kInvalidArgument, "grad must have shape [1,2,2,1]"},
      };
    }
    rows.push_back(std::move(row));
  }
  for (bool max : {true, false}) {
    OpRow row;
    row.name = max ? "global_max_pool2d" : "global_avg_pool2d";
    row.dtypes = kFloat;
    row.cases = {x_case("2x3x4x5", {2, 3, 4, 5}, 51), x_case("large", {16, 13, 13, 64}, 53)};
    row.fn = [max](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{max ? global_max_pool2d(in[0]) : global_avg_pool2d(in[0])};
    };
    row.reference = [max](const std::vector<Ref>& in, DType dt) {
      const auto& s = in[0].shape;
      Ref y{{s[0], s[3]},
            std::vector<double>(size_t(s[0] * s[3]),
                                max ? -std::numeric_limits<double>::infinity() : 0.0),
            {}};
      for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t i = 0; i < s[1] * s[2]; ++i)
          for (int64_t c = 0; c < s[3]; ++c) {
            const double v = in[0].values[size_t((n * s[1] * s[2] + i) * s[3] + c)];
            double& o = y.values[size_t(n * s[3] + c)];
            o = max ? std::max(o, v) : o + v / double(s[1] * s[2]);
          }
      return std::vector<Ref>{conv_ref::as_dtype(y, dt)};
    };
    row.rtol32 = 1e-5;
    row.atol32 = 1e-5;
    row.invalid = {{"rank 3",
                    [max] {
                      max ? global_max_pool2d(f32({2, 3, 4})) : global_avg_pool2d(f32({2, 3, 4}));
                    },
                    ErrorCode::kInvalidArgument, "expects a 4-D NHWC input, got shape"}};
    rows.push_back(std::move(row));
  }
  share_invalid_cases(rows);
  return rows;
}

}  // namespace tfcc::conformance
