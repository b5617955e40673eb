// Conformance rows of the array family's padding and tiling ops: Pad, MirrorPad, MirrorPadGrad,
// Tile, BroadcastTo, ReverseV2, with plain-loop references.
#include <cmath>
#include <numeric>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

std::vector<std::vector<int64_t>> pairs(const V& flat) {
  std::vector<std::vector<int64_t>> p;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) p.push_back({flat[i], flat[i + 1]});
  return p;
}

OpRow pad_row() {
  return make_row(
      "pad", {"Pad"}, kAll,
      {{"2d", {m23(), ints({1, 0, 2, 1}), scalar(0, float64)}, {}},
       {"value", {m23(), ints({0, 2, 1, 1}), scalar(5, float64)}, {}},
       {"rank 0", {scalar(3), ints({}), scalar(1, float64)}, {}},
       {"empty input", {shaped({0, 2}, {}), ints({1, 1, 0, 0}), scalar(2, float64)}, {}},
       {"large", {filled({300, 300}, 0, 99, 1), ints({2, 3, 4, 5}), scalar(1, float64)}, {}}},
      [](In in) { return single(pad(in[0], pairs(iv(in[1])), "CONSTANT", in[2].item<double>())); },
      [](RefIn in, DType dtype) {
        V p = rv(in[1]), os;
        for (size_t d = 0; d < in[0].shape.size(); ++d)
          os.push_back(in[0].shape[d] + p[2 * d] + p[2 * d + 1]);
        double fill = to_tensor(in[2], dtype).item<double>();
        return one(build(
            in[0], os,
            [&](const V& c) -> int64_t {
              V src(c.size());
              for (size_t d = 0; d < c.size(); ++d) {
                src[d] = c[d] - p[2 * d];
                if (src[d] < 0 || src[d] >= in[0].shape[d]) return -1;
              }
              return ravel(src, in[0].shape);
            },
            fill));
      },
      {bad(
           "negative",
           [] {
             pad(f32(m23()), {{-1, 0}, {0, 0}});
           },
           "Paddings must be non-negative"),
       bad(
           "count",
           [] {
             pad(f32(m23()), {{1, 1}});
           },
           "paddings must have shape [2, 2]"),
       bad(
           "pair",
           [] {
             pad(f32(m23()), {{1, 1, 1}, {0, 0}});
           },
           "[before, after] pair"),
       bad(
           "mode",
           [] {
             pad(f32(m23()), {{1, 1}, {0, 0}}, "WRAP");
           },
           "pad mode"),
       bad(
           "overflow",
           [] {
             pad(f32(m23()), {{INT64_MAX, 1}, {0, 0}});
           },
           "overflow")});
}

int64_t mirror(int64_t i, int64_t n, bool reflect) {
  if (i < 0) return reflect ? -i : -i - 1;
  if (i >= n) return reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
  return i;
}

OpRow mirror_pad_row() {
  return make_row(
      "pad (mirror)", {"MirrorPad"}, kAll,
      {{"reflect", {m23(), ints({1, 1, 2, 2}), int_scalar(1)}, {}},
       {"symmetric", {m23(), ints({2, 0, 3, 1}), int_scalar(0)}, {}},
       {"3d reflect", {filled({3, 4, 2}, 0, 99, 1), ints({2, 1, 0, 3, 1, 1}), int_scalar(1)}, {}},
       {"rank 0", {scalar(3), ints({}), int_scalar(0)}, {}},
       {"large", {filled({300, 300}, 0, 99, 2), ints({5, 6, 7, 8}), int_scalar(0)}, {}}},
      [](In in) {
        return single(pad(in[0], pairs(iv(in[1])), ii(in[2]) ? "REFLECT" : "SYMMETRIC"));
      },
      [](RefIn in, DType) {
        V p = rv(in[1]), os;
        bool reflect = in[2].values[0] != 0;
        for (size_t d = 0; d < in[0].shape.size(); ++d)
          os.push_back(in[0].shape[d] + p[2 * d] + p[2 * d + 1]);
        return one(build(in[0], os, [&](const V& c) {
          V src(c.size());
          for (size_t d = 0; d < c.size(); ++d)
            src[d] = mirror(c[d] - p[2 * d], in[0].shape[d], reflect);
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "reflect too big",
           [] {
             pad(f32(m23()), {{2, 0}, {0, 0}}, "REFLECT");
           },
           "paddings must be less than the dimension size: 2, 0 not less than 2"),
       bad(
           "symmetric too big",
           [] {
             pad(f32(m23()), {{0, 0}, {0, 4}}, "SYMMETRIC");
           },
           "no greater than the dimension size: 0, 4 greater than 3"),
       bad(
           "negative",
           [] {
             pad(f32(m23()), {{0, -1}, {0, 0}}, "REFLECT");
           },
           "non-negative")});
}

OpRow mirror_pad_grad_row() {
  auto call = [](const Tensor& dy, V p, bool reflect) {
    Tensor in[] = {dy};
    return dispatch1(
        op_def("MirrorPadGrad"), in,
        {{"paddings", std::move(p)}, {"mode", std::string(reflect ? "REFLECT" : "SYMMETRIC")}});
  };
  OpRow row = make_row(
      "MirrorPadGrad", {"MirrorPadGrad"}, kNumeric,
      {{"reflect", {filled({4, 7}, 0, 9, 1), ints({1, 1, 2, 2}), int_scalar(1)}, {}},
       {"symmetric", {filled({4, 7}, 0, 9, 2), ints({2, 0, 3, 1}), int_scalar(0)}, {}},
       {"rank 0", {scalar(3), ints({}), int_scalar(0)}, {}}},
      [call](In in) { return single(call(in[0], iv(in[1]), ii(in[2]) != 0)); },
      [](RefIn in, DType dtype) {
        V p = rv(in[1]), xs;
        bool reflect = in[2].values[0] != 0;
        const Ref& dy = in[0];
        for (size_t d = 0; d < dy.shape.size(); ++d)
          xs.push_back(dy.shape[d] - p[2 * d] - p[2 * d + 1]);
        Ref out{xs, std::vector<double>(static_cast<size_t>(numel(xs)), 0), std::nullopt};
        for (int64_t f = 0; f < numel(dy.shape); ++f) {
          V c = unravel(f, dy.shape);
          for (size_t d = 0; d < c.size(); ++d) c[d] = mirror(c[d] - p[2 * d], xs[d], reflect);
          out.values[static_cast<size_t>(ravel(c, xs))] += dy.values[static_cast<size_t>(f)];
        }
        if (is_integer(dtype)) {
          for (double& v : out.values) v = to_tensor(scalar(v), dtype).item<double>();
        }
        return one(out);
      },
      {bad(
          "too small",
          [call] {
            call(f32(vec({1, 2})), {2, 1}, true);
          },
          "smaller than paddings")});
  row.rtol32 = 1e-6;
  row.atol32 = 1e-6;
  return row;
}

OpRow tile_row() {
  return make_row(
      "tile", {"Tile"}, kAll,
      {{"2d", {m23(), ints({2, 3})}, {}},
       {"ones", {m23(), ints({1, 1})}, {}},
       {"zero", {m23(), ints({0, 2})}, {}},
       {"rank 0", {scalar(4), ints({})}, {}},
       {"3d", {filled({2, 1, 3}, 0, 9, 1), ints({1, 4, 2})}, {}},
       {"large", {filled({100, 30}, 0, 99, 2), ints({3, 10})}, {}}},
      [](In in) { return single(tile(in[0], iv(in[1]))); },
      [](RefIn in, DType) {
        V m = rv(in[1]), os;
        for (size_t d = 0; d < m.size(); ++d) os.push_back(in[0].shape[d] * m[d]);
        return one(build(in[0], os, [&](const V& c) {
          V src(c.size());
          for (size_t d = 0; d < c.size(); ++d) src[d] = c[d] % in[0].shape[d];
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "negative",
           [] {
             tile(f32(m23()), {1, -1});
           },
           "Expected multiples[1] >= 0"),
       bad(
           "length", [] { tile(f32(m23()), {1}); }, "vector of length 2 but got length 1"),
       bad(
           "overflow",
           [] {
             tile(f32(m23()), {INT64_MAX, 2});
           },
           "overflows")});
}

OpRow broadcast_to_row() {
  return make_row(
      "broadcast_to", {"BroadcastTo"}, kAll,
      {{"row", {vec({1, 2, 3}), ints({2, 3})}, {}},
       {"col", {mat({{1}, {2}}), ints({2, 4})}, {}},
       {"scalar", {scalar(5), ints({2, 2})}, {}},
       {"same", {m23(), ints({2, 3})}, {}},
       {"to empty", {vec({1}), ints({0, 3})}, {}},
       {"large", {filled({1, 300}, 0, 99, 1), ints({400, 300})}, {}}},
      [](In in) { return single(broadcast_to(in[0], iv(in[1]))); },
      [](RefIn in, DType) {
        V os = rv(in[1]);
        size_t lead = os.size() - in[0].shape.size();
        return one(build(in[0], os, [&](const V& c) {
          V src;
          for (size_t d = lead; d < os.size(); ++d)
            src.push_back(in[0].shape[d - lead] == 1 ? 0 : c[d]);
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "incompatible",
           [] {
             broadcast_to(f32(vec({1, 2, 3})), {2, 2});
           },
           "Unable to broadcast tensor of shape [3] to tensor of shape [2,2]"),
       bad(
           "rank", [] { broadcast_to(f32(m23()), {3}); }, "Unable to broadcast"),
       bad(
           "negative", [] { broadcast_to(f32(vec({1})), {-1}); }, "must be >= 0")});
}

OpRow reverse_row() {
  return make_row(
      "reverse", {"ReverseV2"}, kAll,
      {{"axis 0", {m23(), ints({0})}, {}},
       {"both", {m23(), ints({1, -2})}, {}},
       {"none", {m23(), ints({})}, {}},
       {"3d middle", {filled({2, 3, 4}, 0, 99, 1), ints({1})}, {}},
       {"rank 0", {scalar(2), ints({})}, {}},
       {"empty", {shaped({0, 3}, {}), ints({0, 1})}, {}},
       {"large", {filled({300, 300}, 0, 99, 2), ints({1})}, {}}},
      [](In in) { return single(reverse(in[0], iv(in[1]))); },
      [](RefIn in, DType) {
        V axes = rv(in[1]);
        int64_t r = static_cast<int64_t>(in[0].shape.size());
        return one(build(in[0], in[0].shape, [&](const V& c) {
          V src = c;
          for (int64_t a : axes) {
            size_t d = static_cast<size_t>(a < 0 ? a + r : a);
            src[d] = in[0].shape[d] - 1 - c[d];
          }
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "range", [] { reverse(f32(m23()), {2}); }, "'axis'[0] = 2 is out of valid range"),
       bad(
           "duplicate",
           [] {
             reverse(f32(m23()), {0, -2});
           },
           "specified more than once")});
}

}  // namespace

std::vector<OpRow> array_padding_rows() {
  std::vector<OpRow> rows;
  rows.push_back(pad_row());
  rows.push_back(mirror_pad_row());
  rows.push_back(mirror_pad_grad_row());
  rows.push_back(tile_row());
  rows.push_back(broadcast_to_row());
  rows.push_back(reverse_row());
  return rows;
}

}  // namespace tfcc::conformance
