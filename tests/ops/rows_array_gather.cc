// Conformance rows of the array family's gather/scatter ops: GatherV2, GatherNd, ScatterNd,
// TensorScatterUpdate, with plain-loop references.
#include <cmath>
#include <numeric>

#include "tests/ops/array_ref.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

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

}  // namespace

std::vector<OpRow> array_gather_rows() {
  std::vector<OpRow> rows;
  rows.push_back(gather_row());
  rows.push_back(gather_nd_row());
  rows.push_back(scatter_nd_row());
  rows.push_back(tensor_scatter_row());
  return rows;
}

}  // namespace tfcc::conformance
