// Conformance rows of the fused softmax cross-entropies (SparseSoftmaxCrossEntropyWithLogits,
// SoftmaxCrossEntropyWithLogits) through their API and as raw ops (loss and backprop), with
// plain-loop float64 references and second-order gradient checks.
#include <cmath>
#include <limits>

#include "tests/ops/nn_ref.h"

namespace tfcc::conformance {
namespace {

using namespace nn_ref;

// Per-row log-sum-exp of an [n, k] array.
std::vector<double> row_lse(const std::vector<double>& x, int64_t n, int64_t k) {
  std::vector<double> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < k; ++j) m = std::max(m, x[static_cast<size_t>(i * k + j)]);
    double s = 0;
    for (int64_t j = 0; j < k; ++j) s += std::exp(x[static_cast<size_t>(i * k + j)] - m);
    out[static_cast<size_t>(i)] = m + std::log(s);
  }
  return out;
}

// Loss (labels' shape) and backprop for integer labels over the last axis of logits.
std::vector<Ref> sparse_ref(const Ref& logits, const Ref& labels) {
  const int64_t k = logits.shape.back(), n = numel(labels.shape);
  std::vector<double> lse = row_lse(logits.values, n, k);
  Ref loss{labels.shape, {}, std::nullopt}, back{logits.shape, {}, std::nullopt};
  for (int64_t i = 0; i < n; ++i) {
    const int64_t y = static_cast<int64_t>(labels.values[static_cast<size_t>(i)]);
    loss.values.push_back(lse[static_cast<size_t>(i)] -
                          logits.values[static_cast<size_t>(i * k + y)]);
    for (int64_t j = 0; j < k; ++j) {
      const double p =
          std::exp(logits.values[static_cast<size_t>(i * k + j)] - lse[static_cast<size_t>(i)]);
      back.values.push_back(p - (j == y ? 1.0 : 0.0));
    }
  }
  return {loss, back};
}

// Loss and backprop for label distributions; both [n, k] after broadcasting.
std::vector<Ref> dense_ref(Ref logits, Ref labels) {
  // Rank < 2 broadcasts as if padded with leading 1s.
  while (logits.shape.size() < 2) logits.shape.insert(logits.shape.begin(), 1);
  while (labels.shape.size() < 2) labels.shape.insert(labels.shape.begin(), 1);
  const int64_t n = std::max(logits.shape[0], labels.shape[0]);
  const int64_t k = std::max(logits.shape[1], labels.shape[1]);
  auto at = [](const Ref& r, int64_t i, int64_t j) {
    return r.values[static_cast<size_t>((r.shape[0] == 1 ? 0 : i) * r.shape[1] +
                                        (r.shape[1] == 1 ? 0 : j))];
  };
  Ref loss{{n}, {}, std::nullopt}, back{{n, k}, {}, std::nullopt};
  for (int64_t i = 0; i < n; ++i) {
    double m = -std::numeric_limits<double>::infinity(), s = 0;
    for (int64_t j = 0; j < k; ++j) m = std::max(m, at(logits, i, j));
    for (int64_t j = 0; j < k; ++j) s += std::exp(at(logits, i, j) - m);
    const double lse = m + std::log(s);
    double l = 0;
    for (int64_t j = 0; j < k; ++j) {
      l += at(labels, i, j) * (lse - at(logits, i, j));
      back.values.push_back(std::exp(at(logits, i, j) - lse) - at(labels, i, j));
    }
    loss.values.push_back(k == 0 ? 0.0 : l);
  }
  return {loss, back};
}

// Labels made a distribution along `axis` (positive values over their sum): TensorFlow's
// gradient (backprop = softmax - labels) assumes labels sum to 1, so the rows feed such labels
// (also when the gradient check redraws them).
Tensor distribution(const Tensor& z, int64_t axis) { return divide(z, reduce_sum(z, axis, true)); }
Ref distribution_ref(const Ref& z, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(z.shape.size());
  if (axis < 0) axis += rank;
  int64_t outer = 1, n = z.shape[static_cast<size_t>(axis)], inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= z.shape[static_cast<size_t>(i)];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= z.shape[static_cast<size_t>(i)];
  Ref out = z;
  for (int64_t p = 0; p < outer; ++p) {
    for (int64_t q = 0; q < inner; ++q) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += z.values[static_cast<size_t>((p * n + i) * inner + q)];
      for (int64_t i = 0; i < n; ++i) out.values[static_cast<size_t>((p * n + i) * inner + q)] /= s;
    }
  }
  return out;
}

Tensor i64(std::vector<double> v, V shape) { return to_tensor(shaped(shape, std::move(v)), int64); }

std::vector<BadCase> sparse_invalid() {
  auto f = [](V s) { return to_tensor(filled(s, -1, 1), float32); };
  return {
      bad(
          "label too large",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(i64({1, 7}, {2}), f({2, 4}));
          },
          "Received a label value of 7 which is outside the valid range of [0, 4).  Label "
          "values: 1 7"),
      bad(
          "negative label",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(i64({-1, 0}, {2}), f({2, 4}));
          },
          "Received a label value of -1 which is outside the valid range of [0, 4)"),
      bad(
          "rank mismatch",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(i64({0, 0}, {1, 2}), f({2, 4}));
          },
          "Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1 "
          "(received 2)."),
      bad(
          "shape mismatch",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(i64({0, 0, 0}, {3}), f({2, 4}));
          },
          "Shape mismatch: The shape of labels (received (3,)) should equal the shape of logits "
          "except for the last dimension (received (2, 4))."),
      bad(
          "scalar logits",
          [=] { nn::sparse_softmax_cross_entropy_with_logits(i64({0}, {1}), f({})); },
          "Logits cannot be scalars"),
      bad(
          "float labels",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(f({2}), f({2, 4}));
          },
          "[Op:SparseSoftmaxCrossEntropyWithLogits]"),
      bad(
          "int logits",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits(i64({0}, {1}),
                                                         to_tensor(mat({{1, 2}}), int32));
          },
          "[Op:SparseSoftmaxCrossEntropyWithLogits]"),
      bad(
          "raw op, 3-d logits",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits_op(f({2, 3, 4}), i64({0, 0}, {2}));
          },
          "logits must be 2-D, but got shape [2,3,4]"),
      bad(
          "raw op, 2-d labels",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits_op(f({2, 3}), i64({0, 0}, {2, 1}));
          },
          "labels must be 1-D, but got shape [2,1]"),
      bad(
          "raw op, batch mismatch",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits_op(f({2, 3}), i64({0}, {1}));
          },
          "logits and labels must have the same first dimension, got logits shape [2,3] and "
          "labels shape [1]"),
      bad(
          "raw op, no classes",
          [=] {
            nn::sparse_softmax_cross_entropy_with_logits_op(f({2, 0}), i64({0, 0}, {2}));
          },
          "Must have at least one class, but got logits shape [2,0]"),
  };
}

std::vector<Case> sparse_cases() {
  return {
      {"matrix", {filled({3, 4}, -3, 3, 1), vec({0, 3, 2}, int64)}, {}},
      {"int32 labels", {filled({2, 5}, -3, 3, 2), vec({4, 1}, int32)}, {}},
      {"one class", {filled({3, 1}, -3, 3, 3), vec({0, 0, 0}, int64)}, {}},
      {"big logits", {mat({{1000, 1001, 1002}, {-1000, -1001, -1002}}), vec({1, 2}, int64)}, {}},
      {"empty batch", {shaped({0, 3}, {}), shaped({0}, {}, int64)}, {}},
      {"large", {filled({512, 100}, -5, 5, 4), filled({512}, 0, 100, 5, int64)}, {}},
  };
}

OpRow sparse_row() {
  OpRow row;
  row.name = "sparse_softmax_cross_entropy_with_logits";
  row.ops = {"SparseSoftmaxCrossEntropyWithLogits"};
  row.dtypes = kFloat;
  row.cases = sparse_cases();
  row.cases.push_back(
      {"rank 3", {filled({2, 3, 4}, -3, 3, 6), mat({{0, 1, 2}, {3, 3, 0}}, int64)}, {}});
  row.cases.push_back({"rank 1", {filled({5}, -3, 3, 7), scalar(2, int32)}, {}});
  row.fn = [](In in) { return single(nn::sparse_softmax_cross_entropy_with_logits(in[1], in[0])); };
  row.reference = [](RefIn in, DType) { return std::vector<Ref>{sparse_ref(in[0], in[1])[0]}; };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-5;
  row.invalid = sparse_invalid();
  row.second_order = true;
  return row;
}

OpRow sparse_op_row() {
  OpRow row = sparse_row();
  row.name = "SparseSoftmaxCrossEntropyWithLogits (loss, backprop)";
  row.cases = sparse_cases();
  row.fn = [](In in) { return nn::sparse_softmax_cross_entropy_with_logits_op(in[0], in[1]); };
  row.reference = [](RefIn in, DType) { return sparse_ref(in[0], in[1]); };
  return row;
}

OpRow dense_row(int64_t axis) {
  OpRow row;
  row.name =
      axis == -1 ? "softmax_cross_entropy_with_logits" : "softmax_cross_entropy_with_logits axis 0";
  row.ops = {"SoftmaxCrossEntropyWithLogits"};
  row.dtypes = kFloat;
  row.cases = {
      {"matrix", {filled({3, 4}, -3, 3, 1), filled({3, 4}, 0, 1, 2)}, {}},
      {"rank 3", {filled({2, 3, 4}, -3, 3, 3), filled({2, 3, 4}, 0, 1, 4)}, {}},
      {"big logits", {mat({{1000, 1001}, {-1000, -1002}}), mat({{0.25, 0.75}, {1, 0.5}})}, {}},
      {"large", {filled({400, 50}, -5, 5, 5), filled({400, 50}, 0, 1, 6)}, {}},
  };
  if (axis == -1)
    row.cases.push_back({"rank 1", {filled({5}, -3, 3, 7), filled({5}, 0, 1, 8)}, {}});
  row.fn = [axis](In in) {
    return single(nn::softmax_cross_entropy_with_logits(distribution(in[1], axis), in[0], axis));
  };
  row.reference = [axis](RefIn in, DType) {
    // Move `axis` last, flatten to [n, k], and shape the loss like the other axes.
    Ref x = in[0];
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    const int64_t a = axis < 0 ? axis + rank : axis;
    Ref z = distribution_ref(in[1], a);
    auto move_last = [&](const Ref& r) {
      V perm;
      for (int64_t i = 0; i < rank; ++i) {
        if (i != a) perm.push_back(i);
      }
      perm.push_back(a);
      return transpose_ref(r, perm);
    };
    if (a != rank - 1) {
      x = move_last(x);
      z = move_last(z);
    }
    V outer(x.shape.begin(), x.shape.end() - 1);
    const int64_t k = x.shape.back();
    Ref x2{{numel(outer), k}, x.values, std::nullopt},
        z2{{numel(outer), k}, z.values, std::nullopt};
    Ref loss = dense_ref(x2, z2)[0];
    loss.shape = outer;
    return std::vector<Ref>{loss};
  };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-5;
  auto f = [](V s) { return to_tensor(filled(s, -1, 1), float32); };
  row.invalid = {
      bad(
          "shape mismatch",
          [=] {
            nn::softmax_cross_entropy_with_logits(f({2, 4}), f({2, 3}));
          },
          "logits and labels must be broadcastable: logits_size=[2,3] labels_size=[2,4]"),
      bad(
          "rank 3 mismatch",
          [=] {
            nn::softmax_cross_entropy_with_logits(f({2, 2, 4}), f({2, 2, 3}));
          },
          "logits and labels must be broadcastable"),
      bad(
          "scalar", [=] { nn::softmax_cross_entropy_with_logits(f({}), f({})); },
          "Logits cannot be scalars"),
      bad(
          "axis",
          [=] {
            nn::softmax_cross_entropy_with_logits(f({2, 3}), f({2, 3}), 2);
          },
          "axis 2 is out of range"),
      bad(
          "dtype mismatch",
          [=] {
            nn::softmax_cross_entropy_with_logits(to_tensor(filled({2, 3}, 0, 1), float64),
                                                  f({2, 3}));
          },
          "[Op:SoftmaxCrossEntropyWithLogits]"),
      bad(
          "raw op, rank 3",
          [=] {
            nn::softmax_cross_entropy_with_logits_op(f({2, 2, 3}), f({2, 2, 3}));
          },
          "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional"),
  };
  row.grad_domain = {0.5, 2.0};  // positive labels, normalised by the row
  row.second_order = true;
  return row;
}

// The raw op broadcasts labels/logits along size-1 dimensions.
OpRow dense_op_row() {
  OpRow row = dense_row(-1);
  row.name = "SoftmaxCrossEntropyWithLogits (loss, backprop)";
  row.cases = {
      {"matrix", {filled({3, 4}, -3, 3, 1), filled({3, 4}, 0, 1, 2)}, {}},
      {"labels broadcast", {filled({3, 4}, -3, 3, 3), filled({1, 4}, 0, 1, 4)}, {}},
      {"logits broadcast", {filled({1, 4}, -3, 3, 5), filled({3, 4}, 0, 1, 6)}, {}},
      {"rank-1 labels", {filled({3, 4}, -3, 3, 11), filled({4}, 0, 1, 12)}, {}},
      {"column logits", {filled({3, 1}, -3, 3, 7), filled({3, 4}, 0, 1, 8)}, {}},
      {"empty batch", {shaped({0, 3}, {}), shaped({0, 3}, {})}, {}},
      {"large", {filled({300, 64}, -5, 5, 9), filled({300, 64}, 0, 1, 10)}, {}},
  };
  row.fn = [](In in) {
    return nn::softmax_cross_entropy_with_logits_op(in[0], distribution(in[1], -1));
  };
  row.reference = [](RefIn in, DType) { return dense_ref(in[0], distribution_ref(in[1], -1)); };
  return row;
}

}  // namespace

std::vector<OpRow> nn_xent_rows() {
  return {sparse_row(), sparse_op_row(), dense_row(-1), dense_row(0), dense_op_row()};
}

}  // namespace tfcc::conformance
