// Conformance rows of the nn family: BiasAdd / BiasAddGrad, the loss composites (l2_loss,
// sigmoid_cross_entropy_with_logits), moments, batch_normalization, layer_normalization,
// embedding_lookup and dropout; the batch-norm and cross-entropy rows live in
// rows_nn_batch_norm.cc and rows_nn_xent.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tests/ops/nn_ref.h"

namespace tfcc::conformance {

std::vector<OpRow> nn_batch_norm_rows();
std::vector<OpRow> nn_xent_rows();

namespace {

using namespace nn_ref;

Tensor f32(V s, double lo = -1, double hi = 1) { return to_tensor(filled(s, lo, hi), float32); }

// Channel index of flat element i in `shape` for BiasAdd's data format.
int64_t channel_of(int64_t i, const V& shape, bool nchw) {
  const size_t rank = shape.size();
  if (!nchw || rank < 3) return i % shape.back();
  int64_t inner = 1;
  for (size_t d = 2; d < rank; ++d) inner *= shape[d];
  return (i / inner) % shape[1];
}

OpRow bias_add_row(bool nchw) {
  OpRow row;
  row.name = nchw ? "bias_add NCHW" : "bias_add";
  row.ops = {"BiasAdd"};
  row.dtypes = kNumeric;
  row.cases = {
      {"matrix", {filled({3, 4}, -5, 5, 1), filled({4}, -2, 2, 2)}, {}},
      {"rank 4", {filled({2, 3, 2, 3}, -5, 5, 3), filled({nchw ? 3 : 3}, -2, 2, 4)}, {}},
      {"rank 3", {filled({2, 2, 5}, -5, 5, 5), filled({nchw ? 2 : 5}, -2, 2, 6)}, {}},
      {"empty", {shaped({0, 3}, {}), filled({3}, -2, 2, 7)}, {}},
      {"large", {filled({64, 26, 26, 32}, -5, 5, 8), filled({nchw ? 26 : 32}, -2, 2, 9)}, {}},
  };
  const std::string format = nchw ? "NCHW" : "NHWC";
  row.fn = [format](In in) { return single(nn::bias_add(in[0], in[1], format)); };
  row.reference = [nchw](RefIn in, DType) {
    Ref out{in[0].shape, {}, std::nullopt};
    for (size_t i = 0; i < in[0].values.size(); ++i) {
      out.values.push_back(in[0].values[i] + in[1].values[static_cast<size_t>(channel_of(
                                                 static_cast<int64_t>(i), in[0].shape, nchw))]);
    }
    return one(out);
  };
  row.invalid = {
      bad(
          "bias size",
          [] {
            nn::bias_add(f32({2, 4}), f32({3}));
          },
          "Must provide as many biases as the last dimension of the input tensor: [3] vs. [2,4]"),
      bad(
          "rank 1 input", [] { nn::bias_add(f32({4}), f32({4})); },
          "Input tensor must be at least 2D: [4]"),
      bad(
          "2-d bias",
          [] {
            nn::bias_add(f32({2, 4}), f32({1, 4}));
          },
          "Biases must be 1D: [1,4]"),
      bad(
          "NCHW channels",
          [] {
            nn::bias_add(f32({2, 3, 4, 4}), f32({4}), "NCHW");
          },
          "Must provide as many biases as the last dimension of the input tensor: [4] vs. "
          "[2,3,4,4]"),
      bad(
          "format",
          [] {
            nn::bias_add(f32({2, 4}), f32({4}), "NWHC");
          },
          "Invalid data format"),
      bad(
          "dtype mismatch",
          [] {
            nn::bias_add(f32({2, 4}), to_tensor(vec({1, 2, 3, 4}), int32));
          },
          "[Op:BiasAdd]"),
  };
  row.second_order = true;
  return row;
}

OpRow bias_add_grad_row() {
  OpRow row;
  row.name = "BiasAddGrad";
  row.ops = {"BiasAddGrad"};
  row.dtypes = kNumeric;
  row.cases = {
      {"matrix", {filled({3, 4}, -5, 5, 1)}, {}},
      {"rank 4", {filled({2, 3, 2, 3}, -5, 5, 2)}, {}},
      {"empty", {shaped({0, 3}, {})}, {}},
      {"large", {filled({64, 26, 26, 32}, -5, 5, 3)}, {}},
  };
  row.fn = [](In in) {
    Tensor args[] = {in[0]};
    return single(dispatch1(op_def("BiasAddGrad"), args, {}));
  };
  row.reference = [](RefIn in, DType) {
    const int64_t c = in[0].shape.back();
    Ref out{{c}, std::vector<double>(static_cast<size_t>(c), 0.0), std::nullopt};
    for (size_t i = 0; i < in[0].values.size(); ++i) {
      out.values[i % static_cast<size_t>(c)] += in[0].values[i];
    }
    return one(out);
  };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-4;
  row.invalid = {bad(
      "rank 1",
      [] {
        Tensor a[] = {f32({4})};
        dispatch1(op_def("BiasAddGrad"), a, {});
      },
      "Input tensor must be at least 2D: [4]")};
  row.second_order = true;
  return row;
}

OpRow l2_loss_row() {
  OpRow row;
  row.name = "l2_loss";
  row.dtypes = kFloat;
  row.cases = {{"matrix", {filled({3, 4}, -3, 3, 1)}, {}},
               {"scalar", {scalar(1.5)}, {}},
               {"empty", {shaped({0, 2}, {})}, {}},
               {"large", {filled({300, 300}, -1, 1, 2)}, {}}};
  row.fn = [](In in) { return single(nn::l2_loss(in[0])); };
  row.reference = [](RefIn in, DType) {
    double s = 0;
    for (double v : in[0].values) s += v * v;
    return one(scalar(s / 2));
  };
  row.rtol32 = 1e-5;
  row.invalid = {bad(
      "int",
      [] {
        nn::l2_loss(to_tensor(vec({1, 2}), int32));
      },
      "floating-point")};
  row.second_order = true;
  return row;
}

OpRow sigmoid_xent_row() {
  OpRow row;
  row.name = "sigmoid_cross_entropy_with_logits";
  row.dtypes = kFloat;
  row.cases = {
      {"matrix", {filled({3, 4}, 0, 1, 1), filled({3, 4}, -4, 4, 2)}, {}},
      {"extremes", {vec({0, 1, 0.5, 1, 0}), vec({-1000, 1000, 0, -50, 50})}, {}},
      {"empty", {shaped({0}, {}), shaped({0}, {})}, {}},
      {"large", {filled({200, 200}, 0, 1, 3), filled({200, 200}, -10, 10, 4)}, {}},
  };
  row.fn = [](In in) { return single(nn::sigmoid_cross_entropy_with_logits(in[0], in[1])); };
  row.reference = [](RefIn in, DType) {
    Ref out{in[0].shape, {}, std::nullopt};
    for (size_t i = 0; i < in[0].values.size(); ++i) {
      const double z = in[0].values[i], x = in[1].values[i];
      // -z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x)), in its overflow-free spelling.
      const double log_sig = x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
      const double log_one_minus =
          x >= 0 ? -x - std::log1p(std::exp(-x)) : -std::log1p(std::exp(x));
      out.values.push_back(-z * log_sig - (1 - z) * log_one_minus);
    }
    return one(out);
  };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-5;
  row.rtol64 = row.atol64 = 1e-11;
  row.invalid = {bad(
      "shapes",
      [] {
        nn::sigmoid_cross_entropy_with_logits(f32({2, 3}), f32({3}));
      },
      "logits and labels must have the same shape ((3,) vs (2, 3))")};
  row.second_order = true;
  return row;
}

OpRow moments_row(bool keepdims) {
  OpRow row;
  row.name = keepdims ? "moments keepdims" : "moments";
  row.dtypes = kFloat;
  row.cases = {{"rank 4", {filled({2, 3, 2, 4}, -3, 3, 1)}, {}},
               {"matrix", {filled({5, 3}, -3, 3, 2)}, {}},
               {"large", {filled({64, 8, 8, 32}, -3, 3, 3)}, {}}};
  row.fn = [keepdims](In in) {
    std::vector<int64_t> axes;
    for (int64_t i = 0; i + 1 < in[0].rank(); ++i) axes.push_back(i);
    nn::Moments m = nn::moments(in[0], axes, keepdims);
    return std::vector<Tensor>{m.mean, m.variance};
  };
  row.reference = [keepdims](RefIn in, DType) {
    ChannelStats s = channel_stats(in[0]);
    const int64_t c = in[0].shape.back();
    V shape = keepdims ? V(in[0].shape.size(), 1) : V{};
    if (keepdims)
      shape.back() = c;
    else
      shape = {c};
    return std::vector<Ref>{Ref{shape, s.mean, std::nullopt}, Ref{shape, s.var, std::nullopt}};
  };
  row.rtol32 = row.atol32 = 1e-5;
  row.rtol64 = row.atol64 = 1e-11;
  row.invalid = {bad(
      "axis",
      [] {
        nn::moments(f32({2, 3}), {2});
      },
      "")};
  return row;
}

OpRow batch_normalization_row() {
  OpRow row;
  row.name = "batch_normalization";
  row.dtypes = kFloat;
  row.cases = {{"channels",
                {filled({4, 3}, -2, 2, 1), filled({3}, -1, 1, 2), filled({3}, 0.5, 2, 3),
                 filled({3}, -1, 1, 4), filled({3}, 0.5, 2, 5)},
                {}},
               {"large",
                {filled({300, 64}, -2, 2, 6), filled({64}, -1, 1, 7), filled({64}, 0.5, 2, 8),
                 filled({64}, -1, 1, 9), filled({64}, 0.5, 2, 10)},
                {}}};
  row.fn = [](In in) {
    return single(nn::batch_normalization(in[0], in[1], in[2], in[3], in[4], kEpsBn));
  };
  row.reference = [](RefIn in, DType) {
    return one(normalise_ref(in[0], in[1].values, in[2].values, in[4], in[3], kEpsBn));
  };
  row.rtol32 = row.atol32 = 1e-5;
  row.rtol64 = row.atol64 = 1e-11;
  row.grad_domain = {0.5, 2.0};
  row.invalid = {bad(
      "shapes",
      [] {
        nn::batch_normalization(f32({4, 3}), f32({2}), f32({3}), f32({3}), f32({3}), 0.1);
      },
      "Incompatible shapes")};
  return row;
}

OpRow layer_normalization_row() {
  OpRow row;
  row.name = "layer_normalization";
  row.dtypes = kFloat;
  row.cases = {
      {"rows", {filled({3, 5}, -2, 2, 1), filled({5}, 0.5, 2, 2), filled({5}, -1, 1, 3)}, {}},
      {"large",
       {filled({256, 128}, -2, 2, 4), filled({128}, 0.5, 2, 5), filled({128}, -1, 1, 6)},
       {}}};
  row.fn = [](In in) { return single(nn::layer_normalization(in[0], in[1], in[2], {-1}, kEpsBn)); };
  row.reference = [](RefIn in, DType) {
    const Ref& x = in[0];
    const int64_t k = x.shape.back(), n = numel(x.shape) / k;
    Ref out{x.shape, {}, std::nullopt};
    for (int64_t r = 0; r < n; ++r) {
      double m = 0, v = 0;
      for (int64_t j = 0; j < k; ++j) m += x.values[static_cast<size_t>(r * k + j)];
      m /= double(k);
      for (int64_t j = 0; j < k; ++j)
        v += std::pow(x.values[static_cast<size_t>(r * k + j)] - m, 2);
      v /= double(k);
      for (int64_t j = 0; j < k; ++j) {
        out.values.push_back((x.values[static_cast<size_t>(r * k + j)] - m) /
                                 std::sqrt(v + kEpsBn) * in[1].values[static_cast<size_t>(j)] +
                             in[2].values[static_cast<size_t>(j)]);
      }
    }
    return one(out);
  };
  row.rtol32 = row.atol32 = 2e-5;
  row.rtol64 = row.atol64 = 1e-10;
  row.invalid = {bad(
      "gamma size",
      [] {
        nn::layer_normalization(f32({3, 5}), f32({4}));
      },
      "Incompatible shapes")};
  return row;
}

OpRow embedding_row() {
  OpRow row;
  row.name = "embedding_lookup";
  row.ops = {"GatherV2"};
  row.dtypes = kFloat;
  row.cases = {
      {"ids vector", {filled({6, 3}, -1, 1, 1), vec({5, 0, 5, 2}, int64)}, {}},
      {"ids matrix", {filled({4, 2}, -1, 1, 2), mat({{3, 1}, {1, 1}}, int32)}, {}},
      {"rank 3 params", {filled({3, 2, 2}, -1, 1, 3), vec({2, 0}, int64)}, {}},
      {"large", {filled({1000, 64}, -1, 1, 4), filled({4096}, 0, 1000, 5, int64)}, {}},
  };
  row.fn = [](In in) { return single(nn::embedding_lookup(in[0], in[1])); };
  row.reference = [](RefIn in, DType) {
    const Ref &p = in[0], &ids = in[1];
    const int64_t row_size = numel(p.shape) / p.shape[0];
    V shape = ids.shape;
    shape.insert(shape.end(), p.shape.begin() + 1, p.shape.end());
    Ref out{shape, {}, std::nullopt};
    for (double id : ids.values) {
      for (int64_t j = 0; j < row_size; ++j) {
        out.values.push_back(
            p.values[static_cast<size_t>(static_cast<int64_t>(id) * row_size + j)]);
      }
    }
    return one(out);
  };
  row.rtol32 = row.atol32 = row.rtol64 = row.atol64 = 0;
  row.invalid = {bad(
                     "id out of range",
                     [] {
                       nn::embedding_lookup(f32({5, 2}), to_tensor(vec({1, 5}), int64));
                     },
                     "indices[1] = 5 is not in [0, 5)"),
                 bad(
                     "float ids",
                     [] {
                       nn::embedding_lookup(f32({5, 2}), f32({2}));
                     },
                     "[Op:GatherV2]")};
  row.second_order = true;
  return row;
}

// Random masks: checked by properties. The gradient check is done here, on the same mask
// (each call draws a new one, like TensorFlow's seeded eager ops, so central differences
// across calls would not see one function).
// A boolean mask with every third element false.
Ref every_third_dropped(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(i % 3 == 0 ? 0.0 : 1.0);
  return shaped(std::move(shape), std::move(v), bool_);
}

// The fused dropout's gradient: deterministic given the mask.
OpRow fused_dropout_grad_row() {
  OpRow row;
  row.name = "fused_dropout_grad";
  row.ops = {"FusedDropoutGrad"};
  row.dtypes = kFloat;
  row.cases = {{"mixed", {vec({1, -2, 3, 0.5}), vec({1, 0, 1, 1}, bool_)}, {}},
               {"matrix", {mat({{1, 2}, {3, 4}}), mat({{0, 1}, {1, 0}}, bool_)}, {}},
               {"empty", {shaped({0, 2}, {}), shaped({0, 2}, {}, bool_)}, {}},
               {"large", {filled({300, 257}, -2, 2, 5), every_third_dropped({300, 257})}, {}}};
  row.fn = [](In in) { return single(random::fused_dropout_grad(in[0], in[1], 0.25)); };
  row.reference = [](const std::vector<Ref>& in, DType) {
    Ref out{in[0].shape, {}, {}};
    for (size_t i = 0; i < in[0].values.size(); ++i) {
      out.values.push_back(in[1].values[i] != 0 ? in[0].values[i] / 0.75 : 0.0);
    }
    return std::vector<Ref>{out};
  };
  row.second_order = true;
  row.invalid = {bad(
                     "shapes differ",
                     [] {
                       random::fused_dropout_grad(f32({1, 2}), constant({true}), 0.5);
                     },
                     "same shape"),
                 bad(
                     "rate 1", [] { random::fused_dropout_grad(f32({1}), constant({true}), 1.0); },
                     "rate must be in [0, 1)")};
  return row;
}

OpRow dropout_row() {
  OpRow row;
  row.name = "dropout";
  row.ops = {"FusedDropout"};
  row.dtypes = kFloat;
  row.property_checks_gradient = true;
  row.property_check = [](DType dt) {
    Tensor x = to_tensor(filled({200, 50}, 1, 2, 3), dt);
    // rate 0 is the identity (the same tensor).
    EXPECT_EQ(nn::dropout(x, 0.0).id(), x.id());
    // Kept elements are x / (1 - rate); about `rate` of them are dropped.
    const double rate = 0.3;
    Tensor y = nn::dropout(x, rate, 5);
    Ref xr = from_tensor(x), yr = from_tensor(y);
    int64_t dropped = 0;
    for (size_t i = 0; i < xr.values.size(); ++i) {
      if (yr.values[i] == 0) {
        ++dropped;
      } else {
        EXPECT_NEAR(yr.values[i], xr.values[i] / (1 - rate), 1e-6 * std::fabs(yr.values[i]));
      }
    }
    const double frac = double(dropped) / double(xr.values.size());
    EXPECT_NEAR(frac, rate, 0.03);
    // Reproducible: the same global and op seeds give the same sequence of masks.
    random::set_seed(11);
    Ref a = from_tensor(nn::dropout(x, 0.5, 3));
    random::set_seed(11);
    Ref b = from_tensor(nn::dropout(x, 0.5, 3));
    EXPECT_EQ(a.values, b.values);
    // The fused op draws the composite's mask: where(uniform >= rate, x / (1 - rate), 0) with
    // the same seeds gives the same bits.
    random::set_seed(12);
    Ref fused = from_tensor(nn::dropout(x, 0.4, 8));
    random::set_seed(12);
    Tensor u = random::uniform({200, 50}, 0, 1, dt, 8);
    Ref composite = from_tensor(where(greater_equal(u, 0.4), multiply(x, 1.0 / 0.6), 0.0));
    EXPECT_EQ(fused.values, composite.values);
    // noise_shape [200, 1]: whole rows are kept or dropped.
    Ref rows = from_tensor(nn::dropout(x, 0.5, 9, {-1, 1}));
    std::set<int> row_kinds;
    for (int64_t r = 0; r < 200; ++r) {
      int zeros = 0;
      for (int64_t j = 0; j < 50; ++j) zeros += rows.values[static_cast<size_t>(r * 50 + j)] == 0;
      EXPECT_TRUE(zeros == 0 || zeros == 50) << "row " << r;
      row_kinds.insert(zeros);
    }
    EXPECT_EQ(row_kinds.size(), 2u);
    // Gradient: the mask times 1 / (1 - rate), for the mask of the same call.
    Tensor v = to_tensor(filled({4, 6}, 1, 2, 4), dt);
    GradientTape tape;
    tape.watch(v);
    Tensor out = nn::dropout(v, 0.25, 2);
    Ref g = from_tensor(tape.gradient(reduce_sum(out), v));
    Ref o = from_tensor(out);
    for (size_t i = 0; i < o.values.size(); ++i) {
      EXPECT_NEAR(g.values[i], o.values[i] == 0 ? 0.0 : 1 / 0.75, 1e-6);
    }
  };
  row.fn = [](In in) { return single(nn::dropout(in[0], 0.5)); };
  row.invalid = {
      bad(
          "rate 1", [] { nn::dropout(f32({3}), 1.0); },
          "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1"),
      bad(
          "negative rate", [] { nn::dropout(f32({3}), -0.1); }, "in the range [0, 1)"),
      bad(
          "int x",
          [] {
            nn::dropout(to_tensor(vec({1, 2}), int32), 0.5);
          },
          "`x.dtype` must be a floating point tensor"),
      bad(
          "noise shape",
          [] {
            nn::dropout(f32({2, 3}), 0.5, 1, {2, 2});
          },
          "must broadcast to the shape of x"),
      bad(
          "noise rank",
          [] {
            nn::dropout(f32({2, 3}), 0.5, 1, {2});
          },
          "must have the rank of x"),
  };
  return row;
}

}  // namespace

std::vector<OpRow> nn_rows() {
  std::vector<OpRow> rows = {
      bias_add_row(false),       bias_add_row(true), bias_add_grad_row(), l2_loss_row(),
      sigmoid_xent_row(),        moments_row(false), moments_row(true),   batch_normalization_row(),
      layer_normalization_row(), embedding_row(),    dropout_row(),       fused_dropout_grad_row()};
  for (auto family : {nn_batch_norm_rows, nn_xent_rows}) {
    for (auto& r : family()) rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace tfcc::conformance
