// Conformance rows of the array family's slicing ops: Slice, StridedSlice, NumPy-style index()
// and StridedSliceGrad. The reference is NumPy's basic indexing (Python slice rules).
#include <cmath>
#include <numeric>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

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

}  // namespace

std::vector<OpRow> array_slicing_rows() {
  std::vector<OpRow> rows;
  rows.push_back(slice_row());
  rows.push_back(strided_slice_row());
  rows.push_back(index_row());
  rows.push_back(strided_slice_grad_row());
  return rows;
}

}  // namespace tfcc::conformance
