// Conformance rows of the conv3d family's pooling (MaxPool3D, AvgPool3D, MaxPool3DGrad,
// MaxPool3DGradGrad, AvgPool3DGrad) and of LRN / LRNGrad, against float64 references written
// here as plain loops, with TensorFlow's error messages for invalid calls.
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

// ---- pooling ----

struct Pool {
  std::vector<int64_t> k{2, 2, 2};
  P3 p{{2, 2, 2}, {1, 1, 1}, "VALID"};
};

Ref pool_ref(const Ref& x, const Pool& q, bool max) {
  const int64_t C = x.shape[4];
  const std::vector<int64_t> ys = out_shape(x.shape, q.k, q.p, C);
  Ref y{
      ys,
      std::vector<double>(size_t(count(ys)), max ? -std::numeric_limits<double>::infinity() : 0.0),
      {}};
  std::vector<double> n(size_t(count(ys) / std::max<int64_t>(C, 1)), 0.0);
  for_each_tap(x.shape, q.k, q.p, [&](int64_t o, int64_t i, int64_t) {
    n[size_t(o)] += 1;
    for (int64_t c = 0; c < C; ++c) {
      double& v = y.values[size_t(o * C + c)];
      const double in = x.values[size_t(i * C + c)];
      v = max ? std::max(v, in) : v + in;
    }
  });
  if (!max) {
    for (size_t i = 0; i < y.values.size(); ++i) y.values[i] /= n[i / size_t(C)];
  }
  return y;
}

// The input element index of each output element's first maximum.
std::vector<int64_t> argmax_ref(const Ref& x, const Pool& q) {
  const int64_t C = x.shape[4];
  std::vector<int64_t> arg(size_t(count(out_shape(x.shape, q.k, q.p, C))), -1);
  for_each_tap(x.shape, q.k, q.p, [&](int64_t o, int64_t i, int64_t) {
    for (int64_t c = 0; c < C; ++c) {
      int64_t& a = arg[size_t(o * C + c)];
      if (a < 0 || x.values[size_t(i * C + c)] > x.values[size_t(a)]) a = i * C + c;
    }
  });
  return arg;
}

std::vector<BadCase> pool_invalid(bool max) {
  auto pool = [max](const Tensor& x, std::vector<int64_t> k, std::vector<int64_t> s,
                    const std::string& pad) {
    return max ? max_pool3d(x, k, s, pad) : avg_pool3d(x, k, s, pad);
  };
  const std::string op = max ? "[Op:MaxPool3D]" : "[Op:AvgPool3D]";
  return {
      {"input rank 4",
       [pool] {
         pool(f32({4, 4, 4, 1}), {2}, {2}, "VALID");
       },
       ErrorCode::kInvalidArgument, "input must be 5-dimensional, got shape (4, 4, 4, 1) " + op},
      {"window larger than the input",
       [pool] {
         pool(f32({1, 2, 5, 5, 1}), {4}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Computed output size would be negative: -1"},
      {"zero ksize",
       [pool] {
         pool(f32({1, 4, 4, 4, 1}), {0}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Sliding window ksize for dimension 1 was 0"},
      {"zero stride",
       [pool] {
         pool(f32({1, 4, 4, 4, 1}), {2}, {1, 0, 1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Stride must be > 0, but got 0"},
      {"batch pooling",
       [pool] {
         pool(f32({2, 4, 4, 4, 1}), {2, 2, 2, 2, 1}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Pooling is not yet supported on the batch dimension."},
      {"depth pooling",
       [pool] {
         pool(f32({1, 4, 4, 4, 2}), {1, 2, 2, 2, 2}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "Pooling is not yet supported on the depth dimension."},
      {"ksize of 4 values",
       [pool] {
         pool(f32({1, 4, 4, 4, 1}), {1, 2, 2, 1}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, "ksize should be of length 1, 3 or 5 but was 4"},
      {"explicit padding",
       [pool] {
         pool(f32({1, 4, 4, 4, 1}), {2}, {1}, "EXPLICIT");
       },
       ErrorCode::kInvalidArgument, "Value for attr 'padding' of \"EXPLICIT\""},
      {"int32",
       [pool] {
         pool(Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1, 1}), {1}, {1}, "VALID");
       },
       ErrorCode::kInvalidArgument, op},
  };
}

Case x_case(std::string label, std::vector<int64_t> s, uint64_t seed) {
  return {std::move(label), {filled(s, -3, 3, seed)}, {}};
}

OpRow pool_row(std::string name, Pool q, bool max, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {max ? "MaxPool3D" : "AvgPool3D"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [q, max](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{max ? max_pool3d(in[0], q.k, q.p.s, q.p.padding)
                                   : avg_pool3d(in[0], q.k, q.p.s, q.p.padding)};
  };
  row.reference = [q, max](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(pool_ref(in[0], q, max), dt)};
  };
  row.rtol32 = 1e-6;
  row.atol32 = 1e-6;
  row.second_order = true;
  return row;
}

// Inputs: orig_input, orig_output (any values of its shape), grad.
Case grad_case(std::string label, std::vector<int64_t> xs, const Pool& q, bool gradgrad,
               uint64_t seed) {
  const std::vector<int64_t> os = out_shape(xs, q.k, q.p, xs[4]);
  return {std::move(label),
          {filled(xs, -3, 3, seed), filled(os, -3, 3, seed + 1),
           filled(gradgrad ? xs : os, -3, 3, seed + 2)},
          {}};
}

OpRow max_grad_row(std::string name, Pool q, bool gradgrad, std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {gradgrad ? "MaxPool3DGradGrad" : "MaxPool3DGrad"};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [q, gradgrad](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        gradgrad ? max_pool3d_grad_grad(in[0], in[1], in[2], q.k, q.p.s, q.p.padding)
                 : max_pool3d_grad(in[0], in[1], in[2], q.k, q.p.s, q.p.padding)};
  };
  row.reference = [q, gradgrad](const std::vector<Ref>& in, DType dt) {
    const std::vector<int64_t> arg = argmax_ref(in[0], q);
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
    return std::vector<Ref>{conv_ref::as_dtype(out, dt)};
  };
  row.rtol32 = 1e-6;
  row.atol32 = 1e-5;
  row.second_order = true;
  return row;
}

void add_pool_rows(std::vector<OpRow>& rows) {
  const Pool valid;  // 2x2x2, stride 2
  Pool same;         // 3x3x3, stride 2, SAME
  same.k = {3, 3, 3};
  same.p.padding = "SAME";
  Pool overlap;  // 2x3x2, strides (1, 2, 1), VALID
  overlap.k = {2, 3, 2};
  overlap.p.s = {1, 2, 1};
  for (bool max : {true, false}) {
    const std::string kind = max ? "max_pool3d" : "avg_pool3d";
    OpRow a = pool_row(
        kind + "_2x2x2_valid", valid, max,
        {x_case("1x4x4x4x1", {1, 4, 4, 4, 1}, 51),
         x_case("odd sizes drop the last plane", {1, 3, 5, 3, 2}, 53),
         x_case("empty batch", {0, 4, 4, 4, 2}, 55), x_case("large", {4, 16, 16, 16, 8}, 57)});
    a.invalid = pool_invalid(max);
    rows.push_back(std::move(a));
    rows.push_back(pool_row(kind + "_3x3x3_same_stride2", same, max,
                            {x_case("1x3x4x5x1", {1, 3, 4, 5, 1}, 61),
                             x_case("window larger than input", {1, 2, 1, 2, 2}, 63),
                             x_case("large", {2, 15, 17, 16, 8}, 65)}));
    rows.push_back(pool_row(
        kind + "_overlapping", overlap, max,
        {x_case("1x3x5x3x2", {1, 3, 5, 3, 2}, 67), x_case("large", {2, 16, 17, 15, 8}, 69)}));
  }
  OpRow g = max_grad_row("max_pool3d_grad_3x3x3_same_stride2", same, false,
                         {grad_case("1x3x4x5x1 (overlapping)", {1, 3, 4, 5, 1}, same, false, 71),
                          grad_case("large", {2, 15, 17, 16, 8}, same, false, 73)});
  g.invalid = {
      {"orig_output of the wrong shape",
       [] {
         max_pool3d_grad(f32({1, 4, 4, 4, 1}), f32({1, 3, 2, 2, 1}), f32({1, 2, 2, 2, 1}), {2}, {2},
                         "VALID");
       },
       ErrorCode::kInvalidArgument, "orig_output must have shape [1,2,2,2,1], got (1, 3, 2, 2, 1)"},
      {"grad of the wrong shape",
       [] {
         max_pool3d_grad(f32({1, 4, 4, 4, 1}), f32({1, 2, 2, 2, 1}), f32({1, 2, 2, 2, 2}), {2}, {2},
                         "VALID");
       },
       ErrorCode::kInvalidArgument, "grad must have shape [1,2,2,2,1]"},
  };
  rows.push_back(std::move(g));
  rows.push_back(max_grad_row("max_pool3d_grad_2x2x2_valid", valid, false,
                              {grad_case("1x4x4x2x2", {1, 4, 4, 2, 2}, valid, false, 75)}));
  OpRow gg = max_grad_row("max_pool3d_grad_grad_overlapping", overlap, true,
                          {grad_case("1x3x3x2x2", {1, 3, 3, 2, 2}, overlap, true, 77),
                           grad_case("large", {2, 16, 17, 15, 8}, overlap, true, 79)});
  gg.invalid = {{"grad shaped like the output",
                 [] {
                   max_pool3d_grad_grad(f32({1, 4, 4, 4, 1}), f32({1, 2, 2, 2, 1}),
                                        f32({1, 2, 2, 2, 1}), {2}, {2}, "VALID");
                 },
                 ErrorCode::kInvalidArgument,
                 "grad must have shape [1,4,4,4,1], got (1, 2, 2, 2, 1) [Op:MaxPool3DGradGrad]"}};
  rows.push_back(std::move(gg));
  for (const Pool& q : {valid, same}) {
    OpRow row;
    row.name = q.p.padding == "SAME" ? "avg_pool3d_grad_3x3x3_same_stride2"
                                     : "avg_pool3d_grad_2x2x2_valid";
    row.ops = {"AvgPool3DGrad"};
    row.dtypes = kFloat;
    auto c = [q](std::string label, std::vector<int64_t> xs, uint64_t seed) {
      return Case{std::move(label),
                  {sizes_ref(xs), filled(out_shape(xs, q.k, q.p, xs[4]), -3, 3, seed)},
                  {}};
    };
    row.cases = {c("1x3x4x5x2", {1, 3, 4, 5, 2}, 81), c("large", {2, 15, 17, 16, 8}, 83)};
    row.fn = [q](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{
          avg_pool3d_grad(in[0].to_vector<int64_t>(), in[1], q.k, q.p.s, q.p.padding)};
    };
    row.reference = [q](const std::vector<Ref>& in, DType dt) {
      const std::vector<int64_t> xs = ints(in[0]);
      const int64_t C = xs[4];
      Ref dx{xs, std::vector<double>(size_t(count(xs)), 0.0), {}};
      std::vector<double> n(size_t(count(out_shape(xs, q.k, q.p, 1))), 0.0);
      for_each_tap(xs, q.k, q.p, [&](int64_t o, int64_t, int64_t) { n[size_t(o)] += 1; });
      for_each_tap(xs, q.k, q.p, [&](int64_t o, int64_t i, int64_t) {
        for (int64_t ch = 0; ch < C; ++ch) {
          dx.values[size_t(i * C + ch)] += in[1].values[size_t(o * C + ch)] / n[size_t(o)];
        }
      });
      return std::vector<Ref>{conv_ref::as_dtype(dx, dt)};
    };
    row.rtol32 = 1e-5;
    row.atol32 = 1e-5;
    row.second_order = true;
    if (q.p.padding == "VALID") {
      row.invalid = {
          {"negative orig_input_shape",
           [] {
             avg_pool3d_grad({1, -4, 4, 4, 1}, f32({1, 2, 2, 2, 1}), {2}, {2}, "VALID");
           },
           ErrorCode::kInvalidArgument, "orig_input_shape must be non-negative"},
          {"grad of the wrong shape",
           [] {
             avg_pool3d_grad({1, 4, 4, 4, 1}, f32({1, 3, 2, 2, 1}), {2}, {2}, "VALID");
           },
           ErrorCode::kInvalidArgument, "grad must have shape [1,2,2,2,1]"},
          {"orig_input_shape of 4 values",
           [] {
             avg_pool3d_grad({4, 4, 4, 1}, f32({1, 2, 2, 2, 1}), {2}, {2}, "VALID");
           },
           ErrorCode::kInvalidArgument, "orig_input_shape must have 5 elements, got 4"},
      };
    }
    rows.push_back(std::move(row));
  }
}

// ---- local response normalization ----

struct Lrn {
  int64_t r = 2;
  double bias = 1.5, alpha = 0.3, beta = 0.75;
};

// norm of element (pixel, c) of x [.., C].
double lrn_norm(const Ref& x, int64_t px, int64_t c, const Lrn& l) {
  const int64_t C = x.shape.back();
  double s = 0;
  for (int64_t j = std::max<int64_t>(0, c - l.r); j <= std::min(C - 1, c + l.r); ++j) {
    const double v = x.values[size_t(px * C + j)];
    s += v * v;
  }
  return l.bias + l.alpha * s;
}

Ref lrn_ref(const Ref& x, const Lrn& l) {
  Ref y = x;
  const int64_t C = x.shape.back();
  for (size_t i = 0; i < y.values.size(); ++i) {
    const int64_t px = int64_t(i) / C, c = int64_t(i) % C;
    y.values[i] = x.values[i] / std::pow(lrn_norm(x, px, c, l), l.beta);
  }
  return y;
}

// d/dx_k of sum_c dy_c x_c norm_c^-beta, differentiated by hand.
Ref lrn_grad_ref(const Ref& dy, const Ref& x, const Lrn& l) {
  Ref dx = x;
  const int64_t C = x.shape.back();
  for (size_t i = 0; i < dx.values.size(); ++i) {
    const int64_t px = int64_t(i) / C, k = int64_t(i) % C;
    double g = 0;
    for (int64_t c = std::max<int64_t>(0, k - l.r); c <= std::min(C - 1, k + l.r); ++c) {
      const double n = lrn_norm(x, px, c, l), xc = x.values[size_t(px * C + c)];
      g += dy.values[size_t(px * C + c)] *
           ((c == k ? std::pow(n, -l.beta) : 0.0) -
            2 * l.alpha * l.beta * xc * x.values[i] * std::pow(n, -l.beta - 1));
    }
    dx.values[i] = g;
  }
  return dx;
}

void add_lrn_rows(std::vector<OpRow>& rows) {
  const Lrn l;
  OpRow row;
  row.name = "local_response_normalization";
  row.ops = {"LRN"};
  row.dtypes = kFloat;
  row.cases = {x_case("1x2x2x7 (radius 2)", {1, 2, 2, 7}, 91),
               x_case("fewer channels than the window", {2, 1, 3, 2}, 93),
               x_case("empty", {0, 2, 2, 3}, 95), x_case("large", {8, 16, 16, 32}, 97)};
  row.fn = [l](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        nn::local_response_normalization(in[0], l.r, l.bias, l.alpha, l.beta)};
  };
  row.reference = [l](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(lrn_ref(in[0], l), dt)};
  };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-6;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-13;
  row.invalid = {
      {"rank 3",
       [] {
         nn::local_response_normalization(f32({2, 3, 4}));
       },
       ErrorCode::kInvalidArgument, "in must be 4-dimensional, got shape (2, 3, 4) [Op:LRN]"},
      {"negative depth_radius",
       [] {
         nn::local_response_normalization(f32({1, 2, 2, 3}), -1);
       },
       ErrorCode::kInvalidArgument, "depth_radius = -1 must be in [0, 2^31 - 1]"},
      {"int32",
       [] {
         nn::local_response_normalization(Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1}));
       },
       ErrorCode::kInvalidArgument, "[Op:LRN]"},
  };
  rows.push_back(std::move(row));
  // TensorFlow's documented example values: tf.nn.local_response_normalization of
  // arange(8).reshape(1, 1, 2, 4), depth_radius 1, bias 2, alpha 0.5, beta 0.75 (TF 2.21).
  OpRow tf;
  tf.name = "local_response_normalization_tf_values";
  tf.ops = {"LRN"};
  tf.dtypes = {float32};
  tf.cases = {{"arange(8)", {shaped({1, 1, 2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})}, {}}};
  tf.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{nn::local_response_normalization(in[0], 1, 2.0, 0.5, 0.75)};
  };
  tf.reference = [](const std::vector<Ref>&, DType) {
    return std::vector<Ref>{
        shaped({1, 1, 2, 4},
               {0.0, 0.3236611783504486, 0.38490018248558044, 0.6026387810707092, 0.387189120054245,
                0.3114430606365204, 0.28923115134239197, 0.4062824845314026})};
  };
  tf.rtol32 = 2e-6;
  tf.atol32 = 1e-7;
  tf.grad_check = false;  // float32 only: the rows above check the gradient
  rows.push_back(std::move(tf));

  OpRow g;
  g.name = "lrn_grad";
  g.ops = {"LRNGrad"};
  g.dtypes = kFloat;
  // Inputs: dy, x, and LRN(x) (computed by the row: LRNGrad reads the forward output).
  g.cases = {{"1x2x2x7", {filled({1, 2, 2, 7}, -2, 2, 101), filled({1, 2, 2, 7}, -2, 2, 102)}, {}},
             {"large", {filled({4, 8, 8, 32}, -2, 2, 103), filled({4, 8, 8, 32}, -2, 2, 104)}, {}}};
  g.fn = [l](const std::vector<Tensor>& in) {
    const Tensor y = nn::local_response_normalization(in[1], l.r, l.bias, l.alpha, l.beta);
    return std::vector<Tensor>{nn::lrn_grad(in[0], in[1], y, l.r, l.bias, l.alpha, l.beta)};
  };
  g.reference = [l](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{conv_ref::as_dtype(lrn_grad_ref(in[0], in[1], l), dt)};
  };
  g.rtol32 = 1e-4;
  g.atol32 = 1e-5;
  g.rtol64 = 1e-11;
  g.atol64 = 1e-12;
  g.invalid = {{"shapes differ",
                [] {
                  nn::lrn_grad(f32({1, 2, 2, 3}), f32({1, 2, 2, 4}), f32({1, 2, 2, 3}));
                },
                ErrorCode::kInvalidArgument,
                "input_grads, input_image, and out_image should have the same shape"},
               {"rank 3",
                [] {
                  nn::lrn_grad(f32({2, 2, 3}), f32({2, 2, 3}), f32({2, 2, 3}));
                },
                ErrorCode::kInvalidArgument, "inputs must be 4-dimensional"}};
  rows.push_back(std::move(g));
}

}  // namespace

std::vector<OpRow> pool3d_rows() {
  std::vector<OpRow> rows;
  add_pool_rows(rows);
  add_lrn_rows(rows);
  share_invalid_cases(rows);
  return rows;
}

}  // namespace tfcc::conformance
