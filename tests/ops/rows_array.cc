// Conformance rows of the array family. Attributes (axes, shapes, slice specs) travel as extra
// int64 inputs so every case can use its own; the references are plain loops over Ref values.
// This file holds the reshape-like, transpose, concat/split, shape-query and identity rows;
// slicing, gather/scatter and padding/tiling rows live in rows_array_slicing.cc,
// rows_array_gather.cc and rows_array_padding.cc.
#include <cmath>
#include <numeric>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance {

std::vector<OpRow> array_slicing_rows();
std::vector<OpRow> array_gather_rows();
std::vector<OpRow> array_padding_rows();
std::vector<OpRow> array_broadcast_gradient_rows();

namespace {

using namespace array_ref;

OpRow reshape_row() {
  return make_row(
      "reshape", {"Reshape"}, kAll,
      {{"2x3 to 3x2", {m23(), ints({3, 2})}, {}},
       {"infer", {m23(), ints({-1})}, {}},
       {"infer middle", {filled({2, 3, 4}, 0, 50, 1), ints({2, -1, 2})}, {}},
       {"scalar to 1x1", {scalar(7), ints({1, 1})}, {}},
       {"1 to scalar", {vec({7}), ints({})}, {}},
       {"empty", {shaped({0, 3}, {}), ints({3, 0})}, {}},
       {"large", {filled({300, 300}, 0, 100, 2), ints({-1, 900})}, {}}},
      [](In in) { return single(reshape(in[0], iv(in[1]))); },
      [](RefIn in, DType) {
        V s = rv(in[1]);
        int64_t known = 1, n = static_cast<int64_t>(in[0].values.size());
        for (int64_t d : s) known *= d == -1 ? 1 : d;
        for (auto& d : s) d = d == -1 ? n / known : d;
        return one({s, in[0].values, std::nullopt});
      },
      {bad(
           "size mismatch", [] { reshape(f32(m23()), {4}); },
           "Input to reshape is a tensor with 6 values, but the requested shape has 4"),
       bad(
           "not a multiple",
           [] {
             reshape(f32(m23()), {4, -1});
           },
           "requires a multiple of 4"),
       bad(
           "two -1",
           [] {
             reshape(f32(m23()), {-1, -1});
           },
           "Only one input size may be -1"),
       bad(
           "negative",
           [] {
             reshape(f32(m23()), {-2, 3});
           },
           "must be non-negative"),
       bad(
           "overflow",
           [] {
             reshape(f32(m23()), {INT64_MAX, 4});
           },
           "overflows")});
}

OpRow transpose_row() {
  return make_row(
      "transpose", {"Transpose"}, kAll,
      {{"2d", {m23(), ints({1, 0})}, {}},
       {"default perm", {filled({2, 3, 4}, 0, 50, 3), ints({})}, {}},
       {"3d", {filled({2, 3, 4}, 0, 50, 4), ints({2, 0, 1})}, {}},
       {"identity", {filled({2, 3}, 0, 50, 5), ints({0, 1})}, {}},
       {"rank 0", {scalar(3), ints({})}, {}},
       {"empty", {shaped({0, 2, 3}, {}), ints({1, 2, 0})}, {}},
       {"large", {filled({200, 300}, 0, 100, 6), ints({1, 0})}, {}}},
      [](In in) { return single(transpose(in[0], iv(in[1]))); },
      [](RefIn in, DType) {
        V p = rv(in[1]);
        size_t r = in[0].shape.size();
        if (p.empty()) {
          for (size_t i = r; i-- > 0;) p.push_back(static_cast<int64_t>(i));
        }
        V os;
        for (int64_t a : p) os.push_back(in[0].shape[static_cast<size_t>(a)]);
        return one(build(in[0], os, [&](const V& c) {
          V src(r);
          for (size_t i = 0; i < r; ++i) src[static_cast<size_t>(p[i])] = c[i];
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "perm size",
           [] {
             transpose(f32(m23()), {0, 1, 2});
           },
           "transpose expects a vector"),
       bad(
           "repeated",
           [] {
             transpose(f32(m23()), {1, 1});
           },
           "is not a permutation"),
       bad(
           "out of range",
           [] {
             transpose(f32(m23()), {0, 5});
           },
           "is not a permutation")});
}

OpRow expand_dims_row() {
  return make_row(
      "expand_dims", {"ExpandDims"}, kAll,
      {{"front", {m23(), int_scalar(0)}, {}},
       {"back", {m23(), int_scalar(-1)}, {}},
       {"middle", {m23(), int_scalar(1)}, {}},
       {"rank 0", {scalar(2), int_scalar(0)}, {}},
       {"empty", {shaped({0}, {}), int_scalar(1)}, {}}},
      [](In in) { return single(expand_dims(in[0], ii(in[1]))); },
      [](RefIn in, DType) {
        V s = in[0].shape;
        int64_t a = static_cast<int64_t>(in[1].values[0]);
        if (a < 0) a += static_cast<int64_t>(s.size()) + 1;
        s.insert(s.begin() + a, 1);
        return one({s, in[0].values, std::nullopt});
      },
      {bad(
           "axis", [] { expand_dims(f32(m23()), 3); }, "Tried to expand dim index 3"),
       bad(
           "negative axis", [] { expand_dims(f32(m23()), -4); }, "Tried to expand dim index -4")});
}

OpRow squeeze_row() {
  return make_row(
      "squeeze", {"Squeeze"}, kAll,
      {{"all", {filled({1, 3, 1}, 0, 9, 1), ints({})}, {}},
       {"one axis", {filled({1, 3, 1}, 0, 9, 2), ints({-1})}, {}},
       {"to scalar", {shaped({1, 1}, {4}), ints({})}, {}},
       {"empty", {shaped({0, 1}, {}), ints({1})}, {}}},
      [](In in) {
        V a = iv(in[1]);
        return single(squeeze(in[0], a.empty() ? Axes() : Axes(a)));
      },
      [](RefIn in, DType) {
        V a = rv(in[1]), s;
        int64_t r = static_cast<int64_t>(in[0].shape.size());
        for (int64_t i = 0; i < r; ++i) {
          bool listed = false;
          for (int64_t x : a) listed |= (x < 0 ? x + r : x) == i;
          if (a.empty() ? in[0].shape[i] == 1 : listed) continue;
          s.push_back(in[0].shape[i]);
        }
        return one({s, in[0].values, std::nullopt});
      },
      {bad(
           "not 1", [] { squeeze(f32(m23()), 1); }, "Can not squeeze dim[1]"),
       bad(
           "axis", [] { squeeze(f32(m23()), 2); }, "Tried to squeeze dim index 2")});
}

Ref concat_ref(const std::vector<Ref>& parts, int64_t axis) {
  V s = parts[0].shape;
  int64_t r = static_cast<int64_t>(s.size());
  if (axis < 0) axis += r;
  s[axis] = 0;
  for (const auto& p : parts) s[axis] += p.shape[axis];
  Ref out{s, {}, std::nullopt};
  for (int64_t f = 0; f < numel(s); ++f) {
    V c = unravel(f, s);
    for (const auto& p : parts) {
      if (c[axis] < p.shape[axis]) {
        out.values.push_back(p.values[static_cast<size_t>(ravel(c, p.shape))]);
        break;
      }
      c[axis] -= p.shape[axis];
    }
  }
  return out;
}

OpRow concat_row() {
  return make_row(
      "concat", {"ConcatV2"}, kAll,
      {{"axis 0", {m23(), mat({{7, 8, 9}}), int_scalar(0)}, {}},
       {"axis 1", {m23(), mat({{7}, {8}}), int_scalar(1)}, {}},
       {"axis -1", {filled({2, 2, 2}, 0, 9, 1), filled({2, 2, 3}, 0, 9, 2), int_scalar(-1)}, {}},
       {"empty part", {shaped({0, 3}, {}), m23(), int_scalar(0)}, {}},
       {"1-d", {vec({1}), vec({2, 3}), int_scalar(0)}, {}},
       {"large", {filled({300, 200}, 0, 99, 3), filled({300, 100}, 0, 99, 4), int_scalar(1)}, {}}},
      [](In in) {
        return single(concat({in[0], in[1]}, ii(in[2])));
      },
      [](RefIn in, DType) {
        return one(concat_ref({in[0], in[1]}, static_cast<int64_t>(in[2].values[0])));
      },
      {bad(
           "mismatch",
           [] {
             concat({f32(m23()), f32(mat({{1, 2}, {3, 4}}))}, 0);
           },
           "Dimension 1 in both shapes must be equal"),
       bad(
           "ranks",
           [] {
             concat({f32(m23()), f32(vec({1, 2, 3}))}, 0);
           },
           "Ranks of all input tensors should match"),
       bad(
           "axis",
           [] {
             concat({f32(m23()), f32(m23())}, 2);
           },
           "[-2, 2), but got 2"),
       bad(
           "scalars",
           [] {
             concat({f32(scalar(1)), f32(scalar(2))}, 0);
           },
           "Can't concatenate scalars"),
       bad(
           "dtypes",
           [] {
             concat({f32(m23()), to_tensor(m23(), int32)}, 0);
           },
           "[Op:ConcatV2]")});
}

OpRow stack_row() {
  return make_row(
      "stack", {}, kAll,
      {{"axis 0", {m23(), filled({2, 3}, 0, 9, 1), int_scalar(0)}, {}},
       {"axis -1", {m23(), filled({2, 3}, 0, 9, 2), int_scalar(-1)}, {}},
       {"scalars", {scalar(1), scalar(2), int_scalar(0)}, {}},
       {"empty", {shaped({0}, {}), shaped({0}, {}), int_scalar(1)}, {}}},
      [](In in) {
        return single(stack({in[0], in[1]}, ii(in[2])));
      },
      [](RefIn in, DType) {
        int64_t axis = static_cast<int64_t>(in[2].values[0]);
        int64_t r = static_cast<int64_t>(in[0].shape.size()) + 1;
        if (axis < 0) axis += r;
        std::vector<Ref> parts;
        for (int k = 0; k < 2; ++k) {
          Ref p = in[k];
          p.shape.insert(p.shape.begin() + axis, 1);
          parts.push_back(p);
        }
        return one(concat_ref(parts, axis));
      },
      {bad(
           "shapes",
           [] {
             stack({f32(vec({1, 2})), f32(vec({1, 2, 3}))});
           },
           "Shapes of all inputs must match"),
       bad(
           "axis",
           [] {
             stack({f32(vec({1})), f32(vec({2}))}, 3);
           },
           "expand dim")});
}

// Splits `x` along `axis` into parts of `sizes`; drop removes the axis (unstack).
std::vector<Ref> split_ref(const Ref& x, int64_t axis, const V& sizes, bool drop) {
  int64_t r = static_cast<int64_t>(x.shape.size());
  if (axis < 0) axis += r;
  std::vector<Ref> out;
  int64_t offset = 0;
  for (int64_t sz : sizes) {
    V s = x.shape;
    s[axis] = sz;
    Ref part = build(x, s, [&](const V& c) {
      V src = c;
      src[axis] += offset;
      return ravel(src, x.shape);
    });
    if (drop) part.shape.erase(part.shape.begin() + axis);
    out.push_back(part);
    offset += sz;
  }
  return out;
}

OpRow unstack_row() {
  return make_row(
      "unstack", {"Unpack"}, kAll,
      {{"axis 0", {m23(), int_scalar(0)}, {}},
       {"axis -1", {m23(), int_scalar(-1)}, {}},
       {"1-d", {vec({1, 2, 3}), int_scalar(0)}, {}},
       {"empty inner", {shaped({2, 0}, {}), int_scalar(0)}, {}},
       {"large", {filled({4, 50000}, 0, 9, 1), int_scalar(0)}, {}}},
      [](In in) { return unstack(in[0], ii(in[1])); },
      [](RefIn in, DType) {
        int64_t axis = static_cast<int64_t>(in[1].values[0]);
        int64_t a = axis < 0 ? axis + static_cast<int64_t>(in[0].shape.size()) : axis;
        return split_ref(in[0], axis, V(static_cast<size_t>(in[0].shape[a]), 1), true);
      },
      {bad(
           "axis", [] { unstack(f32(m23()), 2); }, "out of range"),
       bad(
           "scalar", [] { unstack(f32(scalar(1)), 0); }, "out of range")});
}

OpRow split_row() {
  return make_row(
      "split", {"Split"}, kAll,
      {{"3 ways", {filled({6, 2}, 0, 9, 1), int_scalar(3), int_scalar(0)}, {}},
       {"axis -1", {filled({2, 4}, 0, 9, 2), int_scalar(2), int_scalar(-1)}, {}},
       {"one", {m23(), int_scalar(1), int_scalar(1)}, {}},
       {"empty", {shaped({0, 4}, {}), int_scalar(2), int_scalar(1)}, {}},
       {"large", {filled({100, 1000}, 0, 9, 3), int_scalar(4), int_scalar(1)}, {}}},
      [](In in) { return split(in[0], ii(in[1]), ii(in[2])); },
      [](RefIn in, DType) {
        int64_t n = static_cast<int64_t>(in[1].values[0]);
        int64_t axis = static_cast<int64_t>(in[2].values[0]);
        int64_t a = axis < 0 ? axis + static_cast<int64_t>(in[0].shape.size()) : axis;
        return split_ref(in[0], axis, V(static_cast<size_t>(n), in[0].shape[a] / n), false);
      },
      {bad(
           "uneven",
           [] {
             split(f32(vec({1, 2, 3, 4, 5})), 2);
           },
           "evenly divide"),
       bad(
           "zero",
           [] {
             split(f32(vec({1, 2})), 0);
           },
           "should be > 0"),
       bad(
           "too many pieces of an empty axis",
           [] { split(f32(shaped({0}, {})), int64_t{1} << 40); }, "allowed"),
       bad(
           "axis",
           [] {
             split(f32(vec({1, 2})), 2, 1);
           },
           "out of range")});
}

OpRow split_v_row() {
  return make_row(
      "split (sizes)", {"SplitV"}, kAll,
      {{"sizes", {filled({6, 2}, 0, 9, 1), ints({1, 2, 3}), int_scalar(0)}, {}},
       {"infer", {filled({2, 7}, 0, 9, 2), ints({2, -1, 0}), int_scalar(-1)}, {}},
       {"empty", {shaped({0, 4}, {}), ints({1, 3}), int_scalar(1)}, {}}},
      [](In in) { return split(in[0], iv(in[1]), ii(in[2])); },
      [](RefIn in, DType) {
        V sizes = rv(in[1]);
        int64_t axis = static_cast<int64_t>(in[2].values[0]);
        int64_t a = axis < 0 ? axis + static_cast<int64_t>(in[0].shape.size()) : axis;
        int64_t known = 0;
        for (int64_t s : sizes) known += s == -1 ? 0 : s;
        for (auto& s : sizes) s = s == -1 ? in[0].shape[a] - known : s;
        return split_ref(in[0], axis, sizes, false);
      },
      {bad(
           "sum",
           [] {
             split(f32(vec({1, 2, 3})), V{1, 1}, 0);
           },
           "Determined shape must"),
       bad(
           "two -1",
           [] {
             split(f32(vec({1, 2, 3})), V{-1, -1}, 0);
           },
           "only be one -1"),
       bad(
           "negative",
           [] {
             split(f32(vec({1, 2, 3})), V{-2, 5}, 0);
           },
           "must be >= 0")});
}

std::vector<Case> query_cases() {
  return {{"matrix", {m23()}, {}},
          {"scalar", {scalar(1)}, {}},
          {"empty", {shaped({0, 3, 2}, {})}, {}},
          {"large", {filled({70000}, 0, 9, 1)}, {}}};
}

OpRow query_row(std::string name, std::string op, std::function<Tensor(const Tensor&)> fn,
                std::function<Ref(const Ref&)> ref, std::vector<BadCase> invalid) {
  OpRow row = make_row(
      std::move(name), {std::move(op)}, kAll, query_cases(),
      [fn](In in) { return single(fn(in[0])); }, [ref](RefIn in, DType) { return one(ref(in[0])); },
      std::move(invalid));
  row.out_dtype = [](DType) { return int32; };
  return row;
}

Ref dims_ref(const Ref& x) {
  Ref r{{static_cast<int64_t>(x.shape.size())}, {}, std::nullopt};
  for (int64_t d : x.shape) r.values.push_back(static_cast<double>(d));
  return r;
}

OpRow identity_row(std::string name, std::string op, std::function<Tensor(const Tensor&)> fn) {
  std::vector<Case> cases = query_cases();
  return make_row(
      std::move(name), {std::move(op)}, kAll, cases, [fn](In in) { return single(fn(in[0])); },
      [](RefIn in, DType) {
        return one({in[0].shape, in[0].values, std::nullopt});
      },
      {bad(
          "undefined", [fn] { fn(Tensor()); }, "undefined")});
}

}  // namespace

std::vector<OpRow> array_rows() {
  std::vector<OpRow> rows;
  rows.push_back(reshape_row());
  rows.push_back(transpose_row());
  rows.push_back(expand_dims_row());
  rows.push_back(squeeze_row());
  rows.push_back(concat_row());
  rows.push_back(stack_row());
  rows.push_back(unstack_row());
  rows.push_back(split_row());
  rows.push_back(split_v_row());
  for (auto family :
       {array_slicing_rows, array_gather_rows, array_padding_rows, array_broadcast_gradient_rows}) {
    for (OpRow& row : family()) rows.push_back(std::move(row));
  }
  rows.push_back(query_row(
      "shape", "Shape", [](const Tensor& x) { return shape(x); }, dims_ref,
      {bad(
          "out_type", [] { shape(f32(m23()), float32); }, "out_type must be int32 or int64")}));
  rows.push_back(query_row(
      "size", "Size", [](const Tensor& x) { return size(x); },
      [](const Ref& x) { return scalar(static_cast<double>(numel(x.shape))); },
      {bad(
          "out_type", [] { size(f32(m23()), uint8); }, "out_type must be int32 or int64")}));
  rows.push_back(query_row(
      "rank", "Rank", [](const Tensor& x) { return rank(x); },
      [](const Ref& x) { return scalar(static_cast<double>(x.shape.size())); },
      {bad(
          "undefined", [] { rank(Tensor()); }, "undefined")}));
  rows.push_back(identity_row("identity", "Identity", [](const Tensor& x) { return identity(x); }));
  rows.push_back(identity_row("stop_gradient", "StopGradient",
                              [](const Tensor& x) { return stop_gradient(x); }));
  return rows;
}

}  // namespace tfcc::conformance
