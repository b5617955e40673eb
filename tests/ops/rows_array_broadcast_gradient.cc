// Conformance rows of BroadcastGradientArgs and _SumToShape (the run-time reduction of broadcast
// gradients), with plain-loop references. BroadcastGradientArgs' cases are TensorFlow's own
// (bcast_ops_test.py).
#include <algorithm>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

Ref shape_vec(V v) { return vec(std::vector<double>(v.begin(), v.end())); }

// The broadcast axes of `s` against `o`: where `s`, padded with leading 1s, has size 1.
Ref broadcast_axes_ref(const V& s, const V& o) {
  const size_t rank = std::max(s.size(), o.size());
  Ref r{{0}, {}, std::nullopt};
  for (size_t i = 0; i < rank; ++i) {
    const size_t pad = rank - s.size();
    if (i < pad || s[i - pad] == 1) r.values.push_back(static_cast<double>(i));
  }
  r.shape = {static_cast<int64_t>(r.values.size())};
  return r;
}

OpRow broadcast_gradient_args_row() {
  auto c = [](std::string label, V a, V b) {
    return Case{std::move(label), {shape_vec(std::move(a)), shape_vec(std::move(b))}, {}};
  };
  OpRow row = make_row(
      "broadcast_gradient_args", {"BroadcastGradientArgs"}, {int32, int64},
      {c("vector vs 1", {2, 3, 5}, {1}), c("1 vs rank 3", {1}, {2, 3, 5}),
       c("trailing", {2, 3, 5}, {3, 5}), c("inner 1", {2, 3, 5}, {3, 1}),
       c("both broadcast", {2, 1, 5}, {3, 1}), c("zero dims", {2, 0, 3, 0, 5}, {3, 1, 5}),
       c("zero vs zero", {2, 0, 3, 0, 5}, {3, 0, 5}), c("all ones", {1, 1}, {1}),
       c("equal", {4, 3}, {4, 3}), c("scalars", {}, {}), c("scalar vs vector", {}, {7})},
      [](In in) {
        auto [r0, r1] = broadcast_gradient_args(in[0], in[1]);
        return std::vector<Tensor>{r0, r1};
      },
      [](RefIn in, DType) {
        V a = rv(in[0]), b = rv(in[1]);
        return std::vector<Ref>{broadcast_axes_ref(a, b), broadcast_axes_ref(b, a)};
      },
      {bad(
           "incompatible",
           [] {
             broadcast_gradient_args(constant({2, 3}), constant({4}));
           },
           "Incompatible shapes: [2,3] vs. [4]"),
       bad(
           "incompatible int64",
           [] {
             broadcast_gradient_args(constant(std::vector<int64_t>{5, 2, 3}),
                                     constant(std::vector<int64_t>{2, 1}));
           },
           "Incompatible shapes: [5,2,3] vs. [2,1]"),
       bad(
           "not a vector",
           [] {
             broadcast_gradient_args(constant({{2, 3}}), constant({3}));
           },
           "s0 must be a vector"),
       bad(
           "negative",
           [] {
             broadcast_gradient_args(constant({-1, 3}), constant({3}));
           },
           "non-negative"),
       bad(
           "dtypes differ",
           [] {
             broadcast_gradient_args(constant({2, 3}), constant(std::vector<int64_t>{3}));
           },
           ""),
       bad(
           "float shapes",
           [] {
             broadcast_gradient_args(constant({2.f, 3.f}), constant({3.f}));
           },
           "")});
  return row;
}

OpRow sum_to_shape_row() {
  OpRow row = make_row(
      "sum_to_shape", {"_SumToShape"}, kNumeric,
      {{"leading axis", {filled({2, 3}, 0, 9, 1), ints({0}), ints({3})}, {}},
       {"keep the axis", {filled({2, 3}, 0, 9, 2), ints({0}), ints({1, 3})}, {}},
       {"two axes", {filled({2, 3, 4}, 0, 9, 3), ints({0, 2}), ints({3, 1})}, {}},
       {"negative axis", {filled({2, 3}, 0, 9, 4), ints({-1}), ints({2, 1})}, {}},
       {"no axes", {filled({2, 3}, 0, 9, 5), ints({}), ints({2, 3})}, {}},
       {"all to scalar", {filled({2, 3}, 0, 9, 6), ints({0, 1}), ints({})}, {}},
       {"rank 0", {scalar(4), ints({}), ints({})}, {}},
       {"empty", {shaped({0, 3}, {}), ints({0}), ints({3})}, {}},
       {"large", {filled({300, 300}, 0, 9, 7), ints({0}), ints({300})}, {}}},
      [](In in) { return single(sum_to_shape(in[0], in[1], in[2])); },
      [](RefIn in, DType) {
        const V& s = in[0].shape;
        V axes = rv(in[1]);
        for (int64_t& a : axes) a = a < 0 ? a + static_cast<int64_t>(s.size()) : a;
        V kept = s;
        for (int64_t a : axes) kept[static_cast<size_t>(a)] = 1;
        Ref out{rv(in[2]), std::vector<double>(static_cast<size_t>(numel(kept)), 0.0),
                std::nullopt};
        for (int64_t f = 0; f < numel(s); ++f) {
          V idx = unravel(f, s);
          for (int64_t a : axes) idx[static_cast<size_t>(a)] = 0;
          out.values[static_cast<size_t>(ravel(idx, kept))] += in[0].values[static_cast<size_t>(f)];
        }
        return one(out);
      },
      {bad(
           "axis out of range",
           [] {
             sum_to_shape(f32(m23()), constant(std::vector<int64_t>{2}), constant({2, 3}));
           },
           "Invalid reduction dimension 2 for input with 2 dimensions"),
       bad(
           "duplicate axis",
           [] {
             sum_to_shape(f32(m23()), constant({0, -2}), constant({3}));
           },
           "Duplicate reduction axis 0"),
       bad(
           "wrong target", [] { sum_to_shape(f32(m23()), constant({0}), constant({2})); },
           "Cannot reshape the sum of a tensor of shape [2,3] over axes [0] (shape [1,3] with "
           "keepdims) to [2]"),
       bad(
           "drops a summed axis of size 3",
           [] { sum_to_shape(f32(m23()), constant({1}), constant({1})); }, "Cannot reshape"),
       bad(
           "shape not a vector", [] { sum_to_shape(f32(m23()), constant({0}), constant({{3}})); },
           "shape must be a vector"),
       bad(
           "negative shape", [] { sum_to_shape(f32(m23()), constant({0}), constant({-3})); },
           "non-negative"),
       bad(
           "axes and shape dtypes differ",
           [] { sum_to_shape(f32(m23()), constant({0}), constant(std::vector<int64_t>{3})); },
           "")});
  // Sums: float32 accumulates in float64 (as Sum does), so the tolerances are Sum's.
  row.rtol32 = 2e-6;
  row.atol32 = 1e-5;
  row.rtol64 = row.atol64 = 1e-12;
  return row;
}

}  // namespace

std::vector<OpRow> array_broadcast_gradient_rows() {
  std::vector<OpRow> rows;
  rows.push_back(broadcast_gradient_args_row());
  rows.push_back(sum_to_shape_row());
  return rows;
}

}  // namespace tfcc::conformance
