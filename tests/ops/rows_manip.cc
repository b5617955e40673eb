// Conformance rows of the manip family: roll and boolean_mask, against index-arithmetic
// references (data movement is exact).
#include "tests/ops/array_ref.h"
#include "tfcc/ops/manip/manip.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

OpRow roll_row() {
  return make_row(
      "roll", {"Roll"}, kAll,
      {{"vector", {vec({1, 2, 3, 4, 5}), ints({2}), ints({0})}, {}},
       {"negative shift", {vec({1, 2, 3, 4, 5}), ints({-1}), ints({-1})}, {}},
       {"shift past size", {vec({1, 2, 3}), ints({7}), ints({0})}, {}},
       {"two axes", {filled({3, 4}, 0, 99, 1), ints({1, -3}), ints({0, 1})}, {}},
       {"repeated axis", {filled({2, 5}, 0, 99, 2), ints({2, 4}), ints({1, 1})}, {}},
       {"rank 3 middle", {filled({2, 3, 4}, 0, 99, 3), ints({1}), ints({1})}, {}},
       {"no shifts", {filled({2, 2}, 0, 99, 4), ints({}), ints({})}, {}},
       {"empty", {shaped({0, 3}, {}), ints({1}), ints({1})}, {}},
       {"large", {filled({300, 500}, 0, 99, 5), ints({17, -250}), ints({0, 1})}, {}}},
      [](In in) { return single(roll(in[0], iv(in[1]), iv(in[2]))); },
      [](RefIn in, DType) {
        const Ref& x = in[0];
        V shift(x.shape.size(), 0);
        for (size_t i = 0; i < in[1].values.size(); ++i) {
          int64_t a = int64_t(in[2].values[i]);
          if (a < 0) a += int64_t(x.shape.size());
          shift[size_t(a)] += int64_t(in[1].values[i]);
        }
        return one(build(x, x.shape, [&](const V& c) {
          V src = c;
          for (size_t d = 0; d < c.size(); ++d) {
            const int64_t n = x.shape[d];
            src[d] = ((c[d] - shift[d]) % n + n) % n;
          }
          return ravel(src, x.shape);
        }));
      },
      {bad(
           "lengths",
           [] {
             roll(f32(m23()), {1, 2}, {0});
           },
           "shift and axis must have the same size"),
       bad(
           "axis", [] { roll(f32(m23()), {1}, {2}); },
           "axis 2 is out of range for a tensor of rank 2"),
       bad(
           "scalar", [] { roll(f32(scalar(1)), {1}, {0}); }, "input must be 1-D or higher")});
}

OpRow boolean_mask_row() {
  auto b = [](std::vector<double> v, V shape) {
    return shaped(std::move(shape), std::move(v), bool_);
  };
  return make_row(
      "boolean_mask", {}, kAll,
      {{"vector", {vec({1, 2, 3, 4, 5}), b({1, 0, 1, 0, 1}, {5}), int_scalar(0)}, {}},
       {"rows of a matrix", {filled({4, 3}, 0, 99, 1), b({0, 1, 1, 0}, {4}), int_scalar(0)}, {}},
       {"2-d mask",
        {filled({2, 3, 2}, 0, 99, 2), b({1, 0, 0, 1, 1, 0}, {2, 3}), int_scalar(0)},
        {}},
       {"axis 1", {filled({2, 3}, 0, 99, 3), b({1, 0, 1}, {3}), int_scalar(1)}, {}},
       {"all false", {filled({3, 2}, 0, 99, 4), b({0, 0, 0}, {3}), int_scalar(0)}, {}},
       {"empty", {shaped({0, 2}, {}), b({}, {0}), int_scalar(0)}, {}}},
      [](In in) { return single(boolean_mask(in[0], in[1], ii(in[2]))); },
      [](RefIn in, DType) {
        const Ref &x = in[0], &m = in[1];
        const int64_t axis = int64_t(in[2].values[0]), k = int64_t(m.shape.size());
        V kept;  // flat positions of true entries
        for (size_t i = 0; i < m.values.size(); ++i) {
          if (m.values[i] != 0) kept.push_back(int64_t(i));
        }
        V outer(x.shape.begin(), x.shape.begin() + axis);
        V inner(x.shape.begin() + axis + k, x.shape.end());
        V shape = outer;
        shape.push_back(int64_t(kept.size()));
        shape.insert(shape.end(), inner.begin(), inner.end());
        const int64_t in_n = numel(inner), masked = numel(m.shape);
        return one(build(x, shape, [&](const V& c) {
          const int64_t o = ravel(V(c.begin(), c.begin() + axis), outer);
          const int64_t i = ravel(V(c.begin() + axis + 1, c.end()), inner);
          return (o * masked + kept[size_t(c[size_t(axis)])]) * in_n + i;
        }));
      },
      {bad(
           "shape",
           [] {
             boolean_mask(f32(m23()), Tensor::from_vector<bool>({true, false, true}));
           },
           "does not match tensor shape"),
       bad(
           "scalar mask", [] { boolean_mask(f32(m23()), Tensor::scalar<bool>(true)); },
           "mask cannot be scalar"),
       bad(
           "float mask",
           [] {
             boolean_mask(f32(m23()), f32(vec({1, 0})));
           },
           "mask must be a bool tensor")});
}

}  // namespace

std::vector<OpRow> manip_rows() { return {roll_row(), boolean_mask_row()}; }

}  // namespace tfcc::conformance
