// Conformance rows of batch normalisation: FusedBatchNormV3 in training and inference (through
// nn::fused_batch_norm), its statistics outputs (TensorFlow's biased/unbiased convention and the
// exponential_avg_factor blend), and FusedBatchNormGradV3 as a raw op, all against plain loops.
#include <limits>

#include "tests/ops/nn_ref.h"
#include "tfcc/ops/nn/nn_internal.h"

namespace tfcc::conformance {
namespace {

using namespace nn_ref;

constexpr double kEps = 0.001;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor f32(V s, double lo = -1, double hi = 1) { return to_tensor(filled(s, lo, hi), float32); }

std::vector<BadCase> bn_invalid() {
  nn::FusedBatchNormOptions infer{.is_training = false};
  nn::FusedBatchNormOptions blend{.exponential_avg_factor = 0.5};
  nn::FusedBatchNormOptions nchw{.data_format = "NCHW"};
  return {
      bad(
          "rank 1", [] { nn::fused_batch_norm(f32({3}), f32({3}), f32({3})); },
          "x must have rank 2 to 5"),
      bad(
          "raw op rank 2",
          [] {
            nn_internal::fused_batch_norm_v3(f32({2, 3}), f32({3}), f32({3}), f32({0}), f32({0}),
                                             kEps, 1.0, "NHWC", true, Loc::current());
          },
          "input must be 4 or 5-dimensional[2,3]"),
      bad(
          "scale size",
          [] {
            nn::fused_batch_norm(f32({2, 2, 2, 3}), f32({2}), f32({3}));
          },
          "scale must have the same number of elements as the channels of x, got 2 and 3"),
      bad(
          "offset rank",
          [] {
            nn::fused_batch_norm(f32({2, 2, 2, 3}), f32({3}), f32({1, 3}));
          },
          "offset must be 1-dimensional[1,3]"),
      bad(
          "inference without mean",
          [=] {
            nn::fused_batch_norm(f32({2, 2, 2, 3}), f32({3}), f32({3}), {}, f32({3}), infer);
          },
          "When is_training=false, mean must have the same number of elements as the channels "
          "of x, got 0 and 3"),
      bad(
          "blend without variance",
          [=] {
            nn::fused_batch_norm(f32({2, 2, 2, 3}), f32({3}), f32({3}), f32({3}), {}, blend);
          },
          "When exponential_avg_factor != 1, variance must have the same number of elements"),
      bad(
          "NCHW",
          [=] {
            nn::fused_batch_norm(f32({2, 3, 2, 2}), f32({3}), f32({3}), {}, {}, nchw);
          },
          "channels-last"),
      bad(
          "int input",
          [] {
            nn::fused_batch_norm(to_tensor(filled({2, 1, 1, 3}, 0, 5), int32),
                                 to_tensor(vec({1, 1, 1}), int32),
                                 to_tensor(vec({0, 0, 0}), int32));
          },
          "[Op:FusedBatchNormV3]"),
  };
}

std::vector<Case> training_cases() {
  return {
      {"rank 4",
       {filled({2, 2, 2, 3}, -2, 2, 1), filled({3}, 0.5, 2, 2), filled({3}, -1, 1, 3)},
       {}},
      {"rank 2", {filled({6, 4}, -2, 2, 4), filled({4}, 0.5, 2, 5), filled({4}, -1, 1, 6)}, {}},
      {"rank 3", {filled({3, 2, 5}, -2, 2, 7), filled({5}, 0.5, 2, 8), filled({5}, -1, 1, 9)}, {}},
      {"rank 5",
       {filled({2, 2, 1, 2, 3}, -2, 2, 10), filled({3}, 0.5, 2, 11), filled({3}, -1, 1, 12)},
       {}},
      {"offset mean",
       {filled({8, 3}, 99, 101, 13), filled({3}, 0.5, 2, 14), filled({3}, -1, 1, 15)},
       {}},
      {"seed shape",
       {filled({64, 64}, -3, 3, 16), filled({64}, 0.5, 2, 17), filled({64}, -1, 1, 18)},
       {}},
      {"large",
       {filled({64, 8, 8, 16}, -3, 3, 19), filled({16}, 0.5, 2, 20), filled({16}, -1, 1, 21)},
       {}},
  };
}

OpRow training_row() {
  OpRow row;
  row.name = "fused_batch_norm training";
  // The second-order column differentiates FusedBatchNormGradV3 (the first-order gradient).
  row.ops = {"FusedBatchNormV3", "FusedBatchNormGradV3"};
  row.dtypes = kFloat;
  row.cases = training_cases();
  row.fn = [](In in) { return single(nn::fused_batch_norm(in[0], in[1], in[2]).y); };
  row.reference = [](RefIn in, DType) {
    ChannelStats s = channel_stats(in[0]);
    return one(normalise_ref(in[0], s.mean, s.var, in[1], in[2], kEps));
  };
  row.rtol32 = row.atol32 = 2e-5;
  row.rtol64 = row.atol64 = 1e-10;
  row.invalid = bn_invalid();
  row.second_order = true;  // through FusedBatchNormGradV3's gradient
  return row;
}

// Statistics outputs: TensorFlow's gradient flows through y only, so this row has no gradient
// check (its outputs' derivatives are not what the rule computes, by design).
OpRow statistics_row(double factor) {
  OpRow row;
  row.name = factor == 1.0 ? "fused_batch_norm statistics" : "fused_batch_norm statistics blended";
  row.ops = {"FusedBatchNormV3"};
  row.dtypes = kFloat;
  row.cases = {
      {"rank 4",
       {filled({2, 2, 2, 3}, -2, 2, 1), filled({3}, 0.5, 2, 2), filled({3}, -1, 1, 3),
        filled({3}, -1, 1, 4), filled({3}, 0.5, 2, 5)},
       {}},
      {"one row",
       {filled({1, 3}, -2, 2, 6), filled({3}, 0.5, 2, 7), filled({3}, -1, 1, 8),
        filled({3}, -1, 1, 9), filled({3}, 0.5, 2, 10)},
       {}},
      {"empty",
       {shaped({0, 1, 1, 3}, {}), filled({3}, 0.5, 2, 11), filled({3}, -1, 1, 12),
        filled({3}, -1, 1, 13), filled({3}, 0.5, 2, 14)},
       {}},
      {"large",
       {filled({64, 8, 8, 16}, -3, 3, 15), filled({16}, 0.5, 2, 16), filled({16}, -1, 1, 17),
        filled({16}, -1, 1, 18), filled({16}, 0.5, 2, 19)},
       {}},
  };
  row.fn = [factor](In in) {
    nn::FusedBatchNormResult r =
        nn::fused_batch_norm(in[0], in[1], in[2], in[3], in[4], {.exponential_avg_factor = factor});
    return std::vector<Tensor>{r.y, r.batch_mean, r.batch_variance};
  };
  row.reference = [factor](RefIn in, DType) {
    ChannelStats s = channel_stats(in[0]);
    const int64_t c = in[0].shape.back();
    Ref y = normalise_ref(in[0], s.mean, s.var, in[1], in[2], kEps);
    Ref mean{{c}, {}, std::nullopt}, var{{c}, {}, std::nullopt};
    const double adjust = s.rows > 1 ? double(s.rows) / double(s.rows - 1) : 1.0;
    for (size_t k = 0; k < static_cast<size_t>(c); ++k) {
      const double m = s.rows ? s.mean[k] : kNaN, v = s.rows ? s.var[k] * adjust : kNaN;
      mean.values.push_back((1 - factor) * in[3].values[k] + factor * m);
      var.values.push_back((1 - factor) * in[4].values[k] + factor * v);
    }
    return std::vector<Ref>{y, mean, var};
  };
  row.rtol32 = row.atol32 = 2e-5;
  row.rtol64 = row.atol64 = 1e-10;
  row.grad_check = false;
  row.invalid = bn_invalid();
  return row;
}

// Inference: the population mean and variance are constants of the row (TensorFlow's rule
// gives them no gradient), x, scale and offset are its inputs.
OpRow inference_row() {
  OpRow row;
  row.name = "fused_batch_norm inference";
  row.ops = {"FusedBatchNormV3"};
  row.dtypes = kFloat;
  row.cases = {
      {"rank 4",
       {filled({2, 2, 2, 3}, -2, 2, 1), filled({3}, 0.5, 2, 2), filled({3}, -1, 1, 3)},
       {}},
      {"rank 2", {filled({5, 3}, -2, 2, 6), filled({3}, 0.5, 2, 7), filled({3}, -1, 1, 8)}, {}},
      {"large",
       {filled({64, 8, 8, 3}, -3, 3, 11), filled({3}, 0.5, 2, 12), filled({3}, -1, 1, 13)},
       {}},
  };
  static const Ref mean = vec({0.5, -0.25, 1.5}), var = vec({0.8, 1.7, 0.3});
  row.fn = [](In in) {
    nn::FusedBatchNormResult r =
        nn::fused_batch_norm(in[0], in[1], in[2], to_tensor(mean, in[0].dtype()),
                             to_tensor(var, in[0].dtype()), {.is_training = false});
    return std::vector<Tensor>{r.y, r.batch_mean, r.batch_variance};
  };
  row.reference = [](RefIn in, DType dt) {
    Ref m = from_tensor(to_tensor(mean, dt)), v = from_tensor(to_tensor(var, dt));
    return std::vector<Ref>{normalise_ref(in[0], m.values, v.values, in[1], in[2], kEps), m, v};
  };
  row.rtol32 = row.atol32 = 2e-5;
  row.rtol64 = row.atol64 = 1e-10;
  row.invalid = bn_invalid();
  row.second_order = true;
  return row;
}

// FusedBatchNormGradV3 called directly: inputs dy, x, scale, saved mean, saved variance.
OpRow grad_row(bool training) {
  OpRow row;
  row.name = training ? "FusedBatchNormGradV3 training" : "FusedBatchNormGradV3 inference";
  row.ops = {"FusedBatchNormGradV3"};
  row.dtypes = kFloat;
  auto c5 = [](V xs, int64_t c, uint64_t s) {
    return std::vector<Ref>{filled(xs, -1, 1, s), filled(xs, -2, 2, s + 1),
                            filled({c}, 0.5, 2, s + 2), filled({c}, -0.5, 0.5, s + 3),
                            filled({c}, 0.5, 2, s + 4)};
  };
  row.cases = {{"rank 4", c5({2, 2, 2, 3}, 3, 1), {}},
               {"rank 5", c5({2, 1, 2, 2, 4}, 4, 10), {}},
               {"large", c5({64, 8, 8, 16}, 16, 20), {}}};
  row.fn = [training](In in) {
    Tensor r3 = Tensor::empty(in[0].dtype(), Shape{0});
    Tensor args[] = {in[0], in[1], in[2], in[3], in[4], r3};
    std::vector<Tensor> r = dispatch(op_def("FusedBatchNormGradV3"), args,
                                     {{"epsilon", kEps}, {"is_training", training}});
    return std::vector<Tensor>{r[0], r[1], r[2]};
  };
  row.reference = [training](RefIn in, DType) {
    const Ref &dy = in[0], &x = in[1], &scale = in[2], &mean = in[3], &var = in[4];
    const int64_t c = x.shape.back(), m = numel(x.shape) / c;
    std::vector<double> sdy(static_cast<size_t>(c)), sdyx(static_cast<size_t>(c)),
        inv(static_cast<size_t>(c));
    for (int64_t k = 0; k < c; ++k) inv[k] = 1 / std::sqrt(var.values[k] + kEps);
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t k = 0; k < c; ++k) {
        const double g = dy.values[r * c + k], xh = (x.values[r * c + k] - mean.values[k]) * inv[k];
        sdy[k] += g;
        sdyx[k] += g * xh;
      }
    }
    Ref dx{x.shape, {}, std::nullopt}, ds{{c}, {}, std::nullopt}, db{{c}, {}, std::nullopt};
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t k = 0; k < c; ++k) {
        const double g = dy.values[r * c + k], xh = (x.values[r * c + k] - mean.values[k]) * inv[k];
        const double v = training ? g - sdy[k] / double(m) - xh * sdyx[k] / double(m) : g;
        dx.values.push_back(scale.values[k] * inv[k] * v);
      }
    }
    for (int64_t k = 0; k < c; ++k) {
      ds.values.push_back(sdyx[k]);
      db.values.push_back(sdy[k]);
    }
    return std::vector<Ref>{dx, ds, db};
  };
  row.rtol32 = row.atol32 = 5e-5;
  row.rtol64 = row.atol64 = 1e-10;
  // No gradient check on the raw op: its rule differentiates the normalisation as a whole (the
  // saved statistics are recomputed from x in training, and get no gradient, as TensorFlow's),
  // so it is checked through the second-order column of the fused_batch_norm rows instead.
  row.grad_check = false;
  auto call = [](Tensor dy, Tensor x, Tensor r1) {
    Tensor args[] = {dy, x, f32({3}), r1, f32({3}), f32({0})};
    dispatch(op_def("FusedBatchNormGradV3"), args, {});
  };
  row.invalid = {
      bad(
          "x and dy differ",
          [=] {
            call(f32({2, 2, 2, 3}), f32({2, 2, 1, 3}), f32({3}));
          },
          "x and y_backprop must have same shape, but x has shape [2,2,1,3] and y_backprop has "
          "shape [2,2,2,3]"),
      bad(
          "saved mean size",
          [=] {
            call(f32({2, 2, 2, 3}), f32({2, 2, 2, 3}), f32({2}));
          },
          "reserve_space_1 must have the same number of elements as the channels of x, got 2 "
          "and 3"),
      bad(
          "rank 2",
          [=] {
            call(f32({2, 3}), f32({2, 3}), f32({3}));
          },
          "input must be 4 or 5-dimensional[2,3]"),
  };
  return row;
}

}  // namespace

std::vector<OpRow> nn_batch_norm_rows() {
  return {training_row(),  statistics_row(1.0), statistics_row(0.3),
          inference_row(), grad_row(true),      grad_row(false)};
}

}  // namespace tfcc::conformance
