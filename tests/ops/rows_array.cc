// Conformance rows of the array family. Attributes (axes, shapes, slice specs) travel as extra
// int64 inputs so every case can use its own; the references are plain loops over Ref values,
// with NumPy's index arithmetic (Python slice rules) for slicing and indexing.
#include <cmath>
#include <numeric>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

using V = std::vector<int64_t>;
using In = const std::vector<Tensor>&;
using RefIn = const std::vector<Ref>&;

const std::vector<DType> kAll = {float32, float64, int32, int64, uint8, bool_, bfloat16};

// An int64 parameter input.
Ref ints(std::vector<double> v) { return vec(std::move(v), int64); }
Ref int_scalar(double v) { return scalar(v, int64); }
V iv(const Tensor& t) { return t.to_vector<int64_t>(); }
int64_t ii(const Tensor& t) { return t.item<int64_t>(); }
V rv(const Ref& r) { return V(r.values.begin(), r.values.end()); }

int64_t numel(const V& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}
V strides_of(const V& s) {
  V st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}
V unravel(int64_t flat, const V& s) {
  V idx(s.size());
  for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i) {
    idx[i] = flat % s[i];
    flat /= s[i];
  }
  return idx;
}
int64_t ravel(const V& idx, const V& s) {
  int64_t f = 0;
  for (size_t i = 0; i < s.size(); ++i) f = f * s[i] + idx[i];
  return f;
}

// Output of `shape` where element at coordinates c is in.values[src(c)] (or `fill` if src < 0).
template <typename F>
Ref build(const Ref& in, const V& shape, F src, double fill = 0) {
  Ref out{shape, {}, std::nullopt};
  for (int64_t f = 0; f < numel(shape); ++f) {
    int64_t s = src(unravel(f, shape));
    out.values.push_back(s < 0 ? fill : in.values[static_cast<size_t>(s)]);
  }
  return out;
}

std::vector<Ref> one(Ref r) { return {std::move(r)}; }

// ---- NumPy basic indexing, the reference for strided_slice and index() --------------------

struct PyIndex {
  enum Kind { kInt, kSlice, kEllipsis, kNewAxis } kind;
  int64_t i = 0;
  std::optional<int64_t> start, stop;
  int64_t step = 1;
};

// Python's slice.indices(): (start, count) for a dimension of length n.
std::pair<int64_t, int64_t> py_slice(const PyIndex& s, int64_t n) {
  int64_t lo = s.step > 0 ? 0 : -1, hi = s.step > 0 ? n : n - 1;
  auto fix = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::min(std::max(x, lo), hi);
  };
  int64_t start = fix(s.start, s.step > 0 ? lo : hi);
  int64_t stop = fix(s.stop, s.step > 0 ? hi : lo);
  int64_t count = 0;
  if (s.step > 0 && stop > start) count = (stop - start - 1) / s.step + 1;
  if (s.step < 0 && start > stop) count = (start - stop - 1) / (-s.step) + 1;
  return {start, count};
}

// x[indices] with NumPy semantics (every int index in range: the caller checks).
Ref numpy_index(const Ref& x, std::vector<PyIndex> ix) {
  size_t consumed = 0;
  bool has_ellipsis = false;
  for (const auto& p : ix) {
    if (p.kind == PyIndex::kInt || p.kind == PyIndex::kSlice) ++consumed;
    if (p.kind == PyIndex::kEllipsis) has_ellipsis = true;
  }
  if (!has_ellipsis) ix.push_back({PyIndex::kEllipsis});
  // Per input dim: start, step, count, kept?; per output dim: input dim or -1 (new axis).
  V start, step, count;
  std::vector<bool> kept;
  V out_shape, out_src;
  size_t dim = 0;
  for (const auto& p : ix) {
    if (p.kind == PyIndex::kEllipsis) {
      size_t fill = x.shape.size() - consumed;
      for (size_t k = 0; k < fill; ++k, ++dim) {
        start.push_back(0);
        step.push_back(1);
        count.push_back(x.shape[dim]);
        out_shape.push_back(x.shape[dim]);
        out_src.push_back(static_cast<int64_t>(dim));
      }
      consumed = x.shape.size();  // later ellipses (none) would add nothing
    } else if (p.kind == PyIndex::kNewAxis) {
      out_shape.push_back(1);
      out_src.push_back(-1);
    } else if (p.kind == PyIndex::kInt) {
      int64_t n = x.shape[dim];
      start.push_back(p.i < 0 ? p.i + n : p.i);
      step.push_back(1);
      count.push_back(1);
      ++dim;
    } else {
      auto [s, c] = py_slice(p, x.shape[dim]);
      start.push_back(s);
      step.push_back(p.step);
      count.push_back(c);
      out_shape.push_back(c);
      out_src.push_back(static_cast<int64_t>(dim));
      ++dim;
    }
  }
  V xs = strides_of(x.shape);
  return build(x, out_shape, [&](const V& c) {
    V pos(x.shape.size(), 0);
    for (size_t d = 0; d < x.shape.size(); ++d) pos[d] = start[d];
    for (size_t o = 0; o < out_src.size(); ++o) {
      if (out_src[o] >= 0) {
        size_t d = static_cast<size_t>(out_src[o]);
        pos[d] = start[d] + c[o] * step[d];
      }
    }
    int64_t f = 0;
    for (size_t d = 0; d < pos.size(); ++d) f += pos[d] * xs[d];
    return f;
  });
}

// The sparse strided_slice spec [begin..., end..., strides..., 5 masks] as NumPy indices.
std::vector<PyIndex> spec_to_numpy(const V& spec) {
  size_t n = (spec.size() - 5) / 3;
  int64_t bm = spec[3 * n], em = spec[3 * n + 1], el = spec[3 * n + 2], na = spec[3 * n + 3],
          sh = spec[3 * n + 4];
  std::vector<PyIndex> ix;
  for (size_t k = 0; k < n; ++k) {
    int64_t bit = int64_t{1} << k;
    PyIndex p{PyIndex::kSlice};
    if (el & bit) {
      p.kind = PyIndex::kEllipsis;
    } else if (na & bit) {
      p.kind = PyIndex::kNewAxis;
    } else if (sh & bit) {
      p.kind = PyIndex::kInt;
      p.i = spec[k];
    } else {
      if (!(bm & bit)) p.start = spec[k];
      if (!(em & bit)) p.stop = spec[n + k];
      p.step = spec[2 * n + k];
    }
    ix.push_back(p);
  }
  return ix;
}

Tensor strided_from_spec(const Tensor& x, const V& s) {
  size_t n = (s.size() - 5) / 3;
  return strided_slice(x, V(s.begin(), s.begin() + n), V(s.begin() + n, s.begin() + 2 * n),
                       V(s.begin() + 2 * n, s.begin() + 3 * n), s[3 * n], s[3 * n + 1],
                       s[3 * n + 2], s[3 * n + 3], s[3 * n + 4]);
}

// The index() cases: C++ index lists and the same indices for the NumPy reference.
struct IndexCase {
  std::vector<Index> cpp;
  std::vector<PyIndex> py;
};
PyIndex pint(int64_t i) { return {PyIndex::kInt, i}; }
PyIndex pslice(std::optional<int64_t> a, std::optional<int64_t> b, int64_t s = 1) {
  return {PyIndex::kSlice, 0, a, b, s};
}
const PyIndex kPyEllipsis{PyIndex::kEllipsis};
const PyIndex kPyNewAxis{PyIndex::kNewAxis};

const std::vector<IndexCase>& index_cases() {
  static const std::vector<IndexCase> cases = {
      {{0}, {pint(0)}},                                          // x[0]
      {{-1}, {pint(-1)}},                                        // x[-1]
      {{all, Slice(1, none)}, {pslice({}, {}), pslice(1, {})}},  // x[:, 1:]
      {{Slice(none, none, -1)}, {pslice({}, {}, -1)}},           // x[::-1]
      {{ellipsis, newaxis}, {kPyEllipsis, kPyNewAxis}},          // x[..., None]
      {{0, ellipsis, 1}, {pint(0), kPyEllipsis, pint(1)}},       // x[0, ..., 1]
      {{Slice(-2, none), Slice(none, -1, 2)}, {pslice(-2, {}), pslice({}, -1, 2)}},
      {{newaxis, 1, Slice(5, 1, -2)}, {kPyNewAxis, pint(1), pslice(5, 1, -2)}},
      {{Slice(10, 20)}, {pslice(10, 20)}},  // clamped: empty
      {{}, {}},                             // x[()]
  };
  return cases;
}

// ---- Rows ---------------------------------------------------------------------------------

OpRow make_row(std::string name, std::vector<std::string> ops, std::vector<DType> dtypes,
               std::vector<Case> cases, ApiFn fn, RefFn ref, std::vector<BadCase> invalid) {
  OpRow row;
  row.name = std::move(name);
  row.ops = std::move(ops);
  row.dtypes = std::move(dtypes);
  row.cases = std::move(cases);
  row.fn = std::move(fn);
  row.reference = std::move(ref);
  row.invalid = std::move(invalid);
  row.rtol32 = row.atol32 = row.rtol64 = row.atol64 = 0;  // data movement is exact
  return row;
}

Tensor f32(Ref r) { return to_tensor(r, float32); }
std::vector<Tensor> single(Tensor t) { return {std::move(t)}; }

BadCase bad(std::string label, std::function<void()> call, std::string msg,
            ErrorCode code = ErrorCode::kInvalidArgument) {
  return {std::move(label), std::move(call), code, std::move(msg)};
}

Ref m23() { return mat({{1, 2, 3}, {4, 5, 6}}); }

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

OpRow slice_row() {
  return make_row(
      "slice", {"Slice"}, kAll,
      {{"2d", {filled({4, 5}, 0, 99, 1), ints({1, 2}), ints({2, 3})}, {}},
       {"to end", {filled({4, 5}, 0, 99, 2), ints({1, 0}), ints({-1, 2})}, {}},
       {"empty", {filled({4, 5}, 0, 99, 3), ints({4, 0}), ints({0, 5})}, {}},
       {"rank 0", {scalar(3), ints({}), ints({})}, {}},
       {"large", {filled({300, 300}, 0, 99, 4), ints({10, 1}), ints({280, -1})}, {}}},
      [](In in) { return single(slice(in[0], iv(in[1]), iv(in[2]))); },
      [](RefIn in, DType) {
        V b = rv(in[1]), s = rv(in[2]);
        for (size_t i = 0; i < s.size(); ++i) s[i] = s[i] == -1 ? in[0].shape[i] - b[i] : s[i];
        return one(build(in[0], s, [&](const V& c) {
          V src(c.size());
          for (size_t i = 0; i < c.size(); ++i) src[i] = c[i] + b[i];
          return ravel(src, in[0].shape);
        }));
      },
      {bad(
           "size",
           [] {
             slice(f32(m23()), {0, 1}, {2, 3});
           },
           "Expected size[1] in [0, 2]"),
       bad(
           "begin",
           [] {
             slice(f32(m23()), {-1, 0}, {1, 1});
           },
           "Expected begin[0] in [0, 2]"),
       bad(
           "negative size",
           [] {
             slice(f32(m23()), {0, 0}, {-2, 1});
           },
           "Expected size[0]"),
       bad(
           "rank", [] { slice(f32(m23()), {0}, {1}); }, "of size 2")});
}

// Sparse spec rows: [begin..., end..., strides..., begin_mask, end_mask, ellipsis_mask,
// new_axis_mask, shrink_axis_mask].
Ref spec(std::vector<double> b, std::vector<double> e, std::vector<double> s,
         std::vector<double> masks) {
  std::vector<double> v = b;
  v.insert(v.end(), e.begin(), e.end());
  v.insert(v.end(), s.begin(), s.end());
  v.insert(v.end(), masks.begin(), masks.end());
  return ints(v);
}

OpRow strided_slice_row() {
  Ref x = filled({4, 5, 3}, 0, 99, 1);
  return make_row(
      "strided_slice", {"StridedSlice"}, kAll,
      {{"basic", {x, spec({1, 0}, {3, 5}, {1, 2}, {0, 0, 0, 0, 0})}, {}},
       {"negative stride", {x, spec({-1, 4}, {0, 0}, {-1, -2}, {0, 2, 0, 0, 0})}, {}},
       {"masks", {x, spec({2, 1, 0}, {0, 3, 0}, {1, 1, 1}, {4, 5, 0, 0, 0})}, {}},
       {"ellipsis", {x, spec({0, 1}, {0, 2}, {1, 1}, {0, 0, 1, 0, 2})}, {}},
       {"new axis", {x, spec({0, 0, 1}, {0, 0, 3}, {1, 1, 1}, {0, 0, 0, 1, 2})}, {}},
       {"ellipsis + new axis", {x, spec({0, 0}, {0, 0}, {1, 1}, {0, 0, 1, 2, 0})}, {}},
       {"shrink negative", {x, spec({-1, -2}, {0, -1}, {1, 1}, {0, 0, 0, 0, 3})}, {}},
       {"clamp", {x, spec({-100, 2}, {100, 100}, {1, 1}, {0, 0, 0, 0, 0})}, {}},
       {"clamp negative stride", {x, spec({100, -100}, {-100, 100}, {-1, 1}, {0, 0, 0, 0, 0})}, {}},
       {"empty result", {x, spec({3}, {1}, {1}, {0, 0, 0, 0, 0})}, {}},
       {"big stride", {x, spec({0, 0, 0}, {4, 5, 3}, {7, 9e18, 1}, {0, 0, 4, 0, 0})}, {}},
       {"rank 0 new axis", {scalar(5), spec({0}, {0}, {1}, {0, 0, 0, 1, 0})}, {}},
       {"empty input", {shaped({0, 3}, {}), spec({0, 1}, {0, 3}, {1, 1}, {1, 0, 0, 0, 0})}, {}},
       {"large",
        {filled({300, 400}, 0, 99, 2), spec({1, -1}, {299, 0}, {2, -3}, {0, 0, 0, 0, 0})},
        {}}},
      [](In in) { return single(strided_from_spec(in[0], iv(in[1]))); },
      [](RefIn in, DType) { return one(numpy_index(in[0], spec_to_numpy(rv(in[1])))); },
      {bad(
           "shrink out of range", [] { strided_slice(f32(m23()), {2}, {3}, {1}, 0, 0, 0, 0, 1); },
           "slice index 2 of dimension 0 out of bounds."),
       bad(
           "zero stride", [] { strided_slice(f32(m23()), {0}, {2}, {0}); },
           "strides[0] must be non-zero"),
       bad(
           "two ellipses",
           [] {
             strided_slice(f32(m23()), {0, 0}, {0, 0}, {1, 1}, 0, 0, 3);
           },
           "Multiple ellipses"),
       bad(
           "too many indices",
           [] {
             strided_slice(f32(vec({1, 2})), {0, 0}, {1, 1}, {1, 1});
           },
           "Index out of range using input dim 1"),
       bad(
           "lengths",
           [] {
             strided_slice(f32(m23()), {0, 0}, {1}, {1, 1});
           },
           "equal size")});
}

OpRow index_row() {
  std::vector<Case> cases;
  for (size_t k = 0; k < index_cases().size(); ++k) {
    cases.push_back({"case " + std::to_string(k),
                     {filled({6, 7}, 0, 99, k + 1), int_scalar(static_cast<double>(k))},
                     {}});
  }
  cases.push_back({"rank 0 ellipsis", {scalar(4), int_scalar(4)}, {}});
  return make_row(
      "index", {"StridedSlice"}, kAll, cases,
      [](In in) { return single(in[0].index_impl(index_cases()[ii(in[1])].cpp)); },
      [](RefIn in, DType) {
        return one(numpy_index(in[0], index_cases()[static_cast<size_t>(in[1].values[0])].py));
      },
      {bad(
           "int out of range", [] { f32(m23())(2); }, "slice index 2 of dimension 0 out of bounds"),
       bad(
           "negative out of range", [] { f32(m23())(all, -4); }, "out of bounds"),
       bad(
           "too many",
           [] {
             f32(vec({1, 2}))(0, 0);
           },
           "Index out of range"),
       bad(
           "two ellipses", [] { f32(m23())(ellipsis, ellipsis); }, "single ellipsis"),
       bad(
           "zero step", [] { f32(m23())(Slice(0, 2, 0)); }, "step cannot be zero")});
}

Tensor idx32(std::vector<double> v, V shape) {
  return to_tensor(shaped(shape, std::move(v)), int32);
}

OpRow gather_row() {
  return make_row(
      "gather", {"GatherV2"}, kAll,
      {{"axis 0",
        {filled({5, 3}, 0, 99, 1), vec({4, 0, 4}, int32), int_scalar(0), int_scalar(0)},
        {}},
       {"axis 1 int64",
        {filled({2, 4, 3}, 0, 99, 2), mat({{3, 1}, {0, 0}}, int64), int_scalar(1), int_scalar(0)},
        {}},
       {"negative axis",
        {filled({3, 4}, 0, 99, 3), vec({2}, int32), int_scalar(-1), int_scalar(0)},
        {}},
       {"scalar index",
        {filled({5, 3}, 0, 99, 4), scalar(2, int32), int_scalar(0), int_scalar(0)},
        {}},
       {"batch dims",
        {filled({2, 3, 4}, 0, 99, 5), mat({{0, 2}, {1, 1}}, int64), int_scalar(2), int_scalar(1)},
        {}},
       {"negative batch dims",
        {filled({2, 5}, 0, 99, 6), mat({{4, 0, 1}, {3, 3, 2}}, int32), int_scalar(1),
         int_scalar(-1)},
        {}},
       {"empty indices",
        {filled({5, 3}, 0, 99, 7), shaped({0}, {}, int32), int_scalar(0), int_scalar(0)},
        {}},
       {"large",
        {filled({1000, 64}, 0, 99, 8), filled({2000}, 0, 999, 9, int64), int_scalar(0),
         int_scalar(0)},
        {}}},
      [](In in) { return single(gather(in[0], in[1], ii(in[2]), ii(in[3]))); },
      [](RefIn in, DType) {
        const Ref &p = in[0], &ix = in[1];
        int64_t rp = static_cast<int64_t>(p.shape.size()),
                ri = static_cast<int64_t>(ix.shape.size());
        int64_t axis = static_cast<int64_t>(in[2].values[0]),
                bd = static_cast<int64_t>(in[3].values[0]);
        if (axis < 0) axis += rp;
        if (bd < 0) bd += ri;
        V os(p.shape.begin(), p.shape.begin() + axis);
        os.insert(os.end(), ix.shape.begin() + bd, ix.shape.end());
        os.insert(os.end(), p.shape.begin() + axis + 1, p.shape.end());
        return one(build(p, os, [&](const V& c) {
          // c = [params dims before axis (batch first)] [indices dims after batch] [rest]
          V icoord(c.begin(), c.begin() + bd);
          icoord.insert(icoord.end(), c.begin() + axis, c.begin() + axis + (ri - bd));
          int64_t which =
              static_cast<int64_t>(ix.values[static_cast<size_t>(ravel(icoord, ix.shape))]);
          V src(c.begin(), c.begin() + axis);
          src.push_back(which);
          src.insert(src.end(), c.begin() + axis + (ri - bd), c.end());
          return ravel(src, p.shape);
        }));
      },
      {bad(
           "out of range",
           [] {
             gather(f32(vec({1, 2, 3, 4, 5})), idx32({0, 7}, {2}));
           },
           "indices[1] = 7 is not in [0, 5)"),
       bad(
           "negative index",
           [] {
             gather(f32(vec({1, 2, 3})), idx32({-1}, {1}));
           },
           "indices[0] = -1 is not in [0, 3)"),
       bad(
           "2-d position",
           [] {
             gather(f32(vec({1, 2, 3})), idx32({0, 1, 2, 3}, {2, 2}));
           },
           "indices[1,1] = 3 is not in [0, 3)"),
       bad(
           "axis", [] { gather(f32(m23()), idx32({0}, {1}), 2); }, "Expected axis in the range"),
       bad(
           "batch dims > axis",
           [] {
             gather(f32(m23()), idx32({0, 0}, {2, 1}), 0, 1);
           },
           "must be less than or equal to axis"),
       bad(
           "float indices", [] { gather(f32(m23()), f32(vec({0}))); }, "[Op:GatherV2]")});
}

OpRow gather_nd_row() {
  return make_row(
      "gather_nd", {"GatherNd"}, kAll,
      {{"elements", {filled({3, 4}, 0, 99, 1), mat({{0, 1}, {2, 3}}, int32)}, {}},
       {"rows", {filled({3, 4}, 0, 99, 2), mat({{2}, {0}}, int64)}, {}},
       {"batched", {filled({2, 3, 2}, 0, 99, 3), shaped({2, 1, 2}, {1, 2, 0, 0}, int32)}, {}},
       {"depth 0", {filled({2, 2}, 0, 99, 4), shaped({3, 0}, {}, int32)}, {}},
       {"empty", {filled({3, 4}, 0, 99, 5), shaped({0, 2}, {}, int64)}, {}},
       {"large", {filled({500, 100}, 0, 99, 6), filled({800, 1}, 0, 499, 7, int64)}, {}}},
      [](In in) { return single(gather_nd(in[0], in[1])); },
      [](RefIn in, DType) {
        const Ref &p = in[0], &ix = in[1];
        size_t depth = static_cast<size_t>(ix.shape.back());
        V os(ix.shape.begin(), ix.shape.end() - 1);
        size_t nb = os.size();
        os.insert(os.end(), p.shape.begin() + static_cast<std::ptrdiff_t>(depth), p.shape.end());
        return one(build(p, os, [&](const V& c) {
          int64_t row =
              ravel(V(c.begin(), c.begin() + nb), V(ix.shape.begin(), ix.shape.end() - 1));
          V src;
          for (size_t d = 0; d < depth; ++d) {
            src.push_back(static_cast<int64_t>(ix.values[static_cast<size_t>(row) * depth + d]));
          }
          src.insert(src.end(), c.begin() + nb, c.end());
          return ravel(src, p.shape);
        }));
      },
      {bad(
           "out of range",
           [] {
             gather_nd(f32(vec({1, 2, 3, 4, 5})), idx32({1, 7}, {2, 1}));
           },
           "indices[1] = [7] does not index into param shape [5]"),
       bad(
           "depth",
           [] {
             gather_nd(f32(vec({1, 2})), idx32({0, 0}, {1, 2}));
           },
           "must be <= params rank"),
       bad(
           "scalar indices",
           [] {
             gather_nd(f32(vec({1, 2})), idx32({0}, {}));
           },
           "at least a vector")});
}

// out[indices[m]] (+)= updates[m] over a base of `shape`.
Ref scatter_ref(Ref base, const Ref& ix, const Ref& upd, bool add) {
  size_t depth = static_cast<size_t>(ix.shape.back());
  int64_t rows = numel(V(ix.shape.begin(), ix.shape.end() - 1));
  int64_t slice =
      numel(V(base.shape.begin() + static_cast<std::ptrdiff_t>(depth), base.shape.end()));
  for (int64_t m = 0; m < rows; ++m) {
    V pos;
    for (size_t d = 0; d < depth; ++d) {
      pos.push_back(static_cast<int64_t>(ix.values[static_cast<size_t>(m) * depth + d]));
    }
    int64_t off =
        ravel(pos, V(base.shape.begin(), base.shape.begin() + static_cast<std::ptrdiff_t>(depth)));
    for (int64_t k = 0; k < slice; ++k) {
      double& dst = base.values[static_cast<size_t>(off * slice + k)];
      double u = upd.values[static_cast<size_t>(m * slice + k)];
      dst = add ? dst + u : u;
    }
  }
  base.dtype.reset();
  return base;
}

OpRow scatter_nd_row() {
  OpRow row = make_row(
      "scatter_nd", {"ScatterNd"}, kNumeric,
      {{"elements", {mat({{1}, {3}, {1}}, int32), vec({9, 10, 11}), ints({5})}, {}},
       {"rows", {mat({{0}, {2}}, int64), mat({{1, 2}, {3, 4}}), ints({3, 2})}, {}},
       {"2-d index", {mat({{0, 1}, {1, 0}}, int32), vec({5, 6}), ints({2, 2})}, {}},
       {"empty", {shaped({0, 1}, {}, int32), shaped({0, 3}, {}), ints({2, 3})}, {}},
       {"large",
        {filled({3000, 1}, 0, 100, 1, int64), filled({3000, 20}, 0, 5, 2), ints({100, 20})},
        {}}},
      [](In in) { return single(scatter_nd(in[0], in[1], iv(in[2]))); },
      [](RefIn in, DType dtype) {
        V shape = rv(in[2]);
        Ref base{shape, std::vector<double>(static_cast<size_t>(numel(shape)), 0), std::nullopt};
        Ref out = scatter_ref(base, in[0], in[1], true);
        if (is_integer(dtype)) {  // sums wrap like the dtype
          for (double& v : out.values) v = to_tensor(scalar(v), dtype).item<double>();
        }
        return one(out);
      },
      {bad(
           "out of range",
           [] {
             scatter_nd(idx32({1, 7}, {2, 1}), f32(vec({1, 2})), {5});
           },
           "indices[1] = [7] does not index into shape [5]"),
       bad(
           "updates shape",
           [] {
             scatter_nd(idx32({1, 2}, {2, 1}), f32(vec({1, 2, 3})), {5});
           },
           "must equal indices.shape[:-1]"),
       bad(
           "negative shape",
           [] {
             scatter_nd(idx32({1}, {1, 1}), f32(vec({1})), {-5});
           },
           "non-negative"),
       bad(
           "depth",
           [] {
             scatter_nd(idx32({1, 1}, {1, 2}), f32(vec({1})), {5});
           },
           "<= rank")});
  row.rtol32 = 1e-6;
  row.atol32 = 1e-5;
  return row;
}

OpRow tensor_scatter_row() {
  return make_row(
      "tensor_scatter_nd_update", {"TensorScatterUpdate"}, kAll,
      {{"elements", {vec({1, 2, 3, 4, 5}), mat({{1}, {3}}, int32), vec({9, 8})}, {}},
       {"rows", {m23(), mat({{1}}, int64), mat({{7, 8, 9}})}, {}},
       // Which duplicate wins is unspecified (as in TF), so its gradient is too.
       {"duplicates", {vec({1, 2, 3}), mat({{0}, {0}}, int32), vec({5, 6})}, {}, false},
       {"empty", {vec({1, 2}), shaped({0, 1}, {}, int32), shaped({0}, {})}, {}}},
      [](In in) { return single(tensor_scatter_nd_update(in[0], in[1], in[2])); },
      [](RefIn in, DType) { return one(scatter_ref(in[0], in[1], in[2], false)); },
      {bad(
           "out of range",
           [] {
             tensor_scatter_nd_update(f32(vec({1, 2})), idx32({2}, {1, 1}), f32(vec({1})));
           },
           "does not index into shape [2]"),
       bad(
           "updates shape",
           [] {
             tensor_scatter_nd_update(f32(vec({1, 2})), idx32({0}, {1, 1}), f32(vec({1, 2})));
           },
           "must equal"),
       bad(
           "dtype",
           [] {
             tensor_scatter_nd_update(f32(vec({1, 2})), idx32({0}, {1, 1}),
                                      to_tensor(vec({1}), int32));
           },
           "[Op:TensorScatterUpdate]")});
}

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

OpRow strided_slice_grad_row() {
  auto call = [](const Tensor& dy, V shape, const V& s) {
    size_t n = (s.size() - 5) / 3;
    Tensor in[] = {dy};
    return dispatch1(op_def("StridedSliceGrad"), in,
                     {{"shape", std::move(shape)},
                      {"begin", V(s.begin(), s.begin() + n)},
                      {"end", V(s.begin() + n, s.begin() + 2 * n)},
                      {"strides", V(s.begin() + 2 * n, s.begin() + 3 * n)},
                      {"begin_mask", s[3 * n]},
                      {"end_mask", s[3 * n + 1]},
                      {"ellipsis_mask", s[3 * n + 2]},
                      {"new_axis_mask", s[3 * n + 3]},
                      {"shrink_axis_mask", s[3 * n + 4]}});
  };
  return make_row(
      "StridedSliceGrad", {"StridedSliceGrad"}, kAll,
      {{"negative stride",
        {filled({2, 3}, 1, 9, 1), ints({4, 5}), spec({-1, 4}, {0, 0}, {-2, -2}, {0, 2, 0, 0, 0})},
        {}},
       {"shrink + new axis",
        {filled({1, 5}, 1, 9, 2), ints({4, 5}), spec({2, 0}, {3, 0}, {1, 1}, {0, 0, 0, 2, 1})},
        {}}},
      [call](In in) { return single(call(in[0], iv(in[1]), iv(in[2]))); },
      [](RefIn in, DType) {
        // Slice an iota of the original shape to learn which positions dy lands on.
        V shape = rv(in[1]);
        Ref iota{shape, {}, std::nullopt};
        for (int64_t i = 0; i < numel(shape); ++i) iota.values.push_back(static_cast<double>(i));
        Ref pos = numpy_index(iota, spec_to_numpy(rv(in[2])));
        Ref out{shape, std::vector<double>(static_cast<size_t>(numel(shape)), 0), std::nullopt};
        for (size_t k = 0; k < pos.values.size(); ++k) {
          out.values[static_cast<size_t>(pos.values[k])] = in[0].values[k];
        }
        return one(out);
      },
      {bad(
          "dy shape",
          [call] {
            call(f32(vec({1, 2})), {4}, {0, 3, 1, 0, 0, 0, 0, 0});
          },
          "does not match the slice shape")});
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
  rows.push_back(slice_row());
  rows.push_back(strided_slice_row());
  rows.push_back(index_row());
  rows.push_back(strided_slice_grad_row());
  rows.push_back(gather_row());
  rows.push_back(gather_nd_row());
  rows.push_back(scatter_nd_row());
  rows.push_back(tensor_scatter_row());
  rows.push_back(pad_row());
  rows.push_back(mirror_pad_row());
  rows.push_back(mirror_pad_grad_row());
  rows.push_back(tile_row());
  rows.push_back(broadcast_to_row());
  rows.push_back(reverse_row());
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
