// Conformance rows of the segment family: segment_sum/mean/max, unsorted_segment_sum/max/mean
// and bincount, against plain-loop references over the float64 values.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/ops/array_ref.h"
#include "tfcc/ops/segment/segment.h"

namespace tfcc::conformance {
namespace {

using namespace array_ref;

enum class Kind { kSum, kMean, kMax };

// The lowest value of a dtype, as a double (unsorted_segment_max's empty segments).
double lowest(DType t) {
  return visit_dtype(t, [&]<typename T>() -> double {
    if constexpr (std::is_arithmetic_v<T>) {
      return static_cast<double>(std::numeric_limits<T>::lowest());
    } else {
      return 0.0;
    }
  });
}

// Reduces rows of `data` (each of data.shape[lead:]) by segment id; negative ids are dropped.
Ref segment_ref(const Ref& data, const std::vector<double>& ids, int64_t segments, int lead,
                Kind kind, double empty, DType dtype) {
  V row_shape(data.shape.begin() + lead, data.shape.end());
  const int64_t inner = numel(row_shape);
  V shape = {segments};
  shape.insert(shape.end(), row_shape.begin(), row_shape.end());
  Ref out{shape, std::vector<double>(size_t(segments * inner), empty), std::nullopt};
  std::vector<int64_t> count(size_t(segments), 0);
  for (size_t r = 0; r < ids.size(); ++r) {
    const int64_t s = static_cast<int64_t>(ids[r]);
    if (s < 0) continue;
    for (int64_t j = 0; j < inner; ++j) {
      double& o = out.values[size_t(s * inner + j)];
      const double v = data.values[size_t(int64_t(r) * inner + j)];
      if (count[size_t(s)] == 0) {
        o = v;
      } else {
        o = kind == Kind::kMax ? std::max(o, v) : o + v;
      }
    }
    ++count[size_t(s)];
  }
  if (kind == Kind::kMean) {
    for (int64_t s = 0; s < segments; ++s) {
      for (int64_t j = 0; j < inner && count[size_t(s)]; ++j) {
        double& o = out.values[size_t(s * inner + j)];
        o /= double(count[size_t(s)]);
        if (is_integer(dtype)) o = std::trunc(o);
      }
    }
  }
  return out;
}

std::vector<double> sorted_ids(int64_t n, int64_t per) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(double(i / per));
  return v;
}

OpRow sorted_row(const std::string& name, const std::string& op, Kind kind,
                 Tensor (*fn)(const Tensor&, const Tensor&, Loc)) {
  OpRow row = make_row(
      name, {op}, kNumeric,
      {{"vector with a gap", {vec({1, 2, 3, 4, 5}), vec({0, 0, 1, 3, 3}, int32)}, {}},
       {"matrix", {filled({4, 3}, 0, 50, 1), vec({0, 1, 1, 2}, int64)}, {}},
       {"rank 3", {filled({3, 2, 2}, 0, 50, 2), vec({1, 1, 1}, int32)}, {}},
       {"one row per segment", {filled({4}, 0, 50, 3), vec({0, 1, 2, 3}, int32)}, {}},
       {"empty", {shaped({0, 3}, {}), shaped({0}, {}, int32)}, {}},
       {"large", {filled({40000, 2}, 0, 50, 4), vec(sorted_ids(40000, 5), int64)}, {}}},
      [fn](In in) { return single(fn(in[0], in[1], Loc::current())); },
      [kind](RefIn in, DType t) {
        const auto& ids = in[1].values;
        const int64_t segments = ids.empty() ? 0 : int64_t(ids.back()) + 1;
        return one(segment_ref(in[0], ids, segments, 1, kind, 0, t));
      },
      {bad(
           "not increasing",
           [fn] {
             fn(f32(vec({1, 2})), to_tensor(vec({1, 0}), int32), {});
           },
           "segment ids are not increasing"),
       bad(
           "negative",
           [fn] {
             fn(f32(vec({1, 2})), to_tensor(vec({-1, 0}), int32), {});
           },
           "segment ids must be >= 0"),
       bad(
           "size",
           [fn] {
             fn(f32(vec({1, 2})), to_tensor(vec({0}), int32), {});
           },
           "segment_ids should be the same size as dimension 0 of input"),
       bad(
           "ids rank",
           [fn] {
             fn(f32(m23()), to_tensor(mat({{0, 0, 0}, {1, 1, 1}}), int32), {});
           },
           "segment_ids should be a vector"),
       bad(
           "float ids", [fn] { fn(f32(vec({1})), f32(vec({0})), {}); }, "[Op:" + op + "]")});
  row.rtol32 = 1e-6;
  row.atol32 = 1e-4;  // float32 sums of up to 5 values in [0, 50)
  return row;
}

OpRow unsorted_row(const std::string& name, const std::vector<std::string>& ops, Kind kind,
                   Tensor (*fn)(const Tensor&, const Tensor&, int64_t, Loc)) {
  OpRow row = make_row(
      name, ops, kNumeric,
      {{"vector, negative id dropped",
        {vec({1, 2, 3, 4, 5}), vec({2, 0, -1, 2, 0}, int32), int_scalar(4)},
        {}},
       {"matrix", {filled({4, 3}, 0, 50, 1), vec({1, 0, 1, 1}, int64), int_scalar(2)}, {}},
       {"2-d ids",
        {filled({2, 3, 2}, 0, 50, 2), mat({{0, 2, 0}, {2, -1, 1}}, int32), int_scalar(3)},
        {}},
       {"no segments", {vec({1, 2}), vec({-1, -1}, int32), int_scalar(0)}, {}},
       {"empty data", {shaped({0, 2}, {}), shaped({0}, {}, int32), int_scalar(2)}, {}},
       {"large",
        {filled({30000, 3}, 0, 10, 4), filled({30000}, 0, 6000, 5, int64), int_scalar(6000)},
        {}}},
      [fn](In in) { return single(fn(in[0], in[1], ii(in[2]), Loc::current())); },
      [kind](RefIn in, DType t) {
        const int lead = static_cast<int>(in[1].shape.size());
        const double empty = kind == Kind::kMax ? lowest(t) : 0;
        return one(
            segment_ref(in[0], in[1].values, int64_t(in[2].values[0]), lead, kind, empty, t));
      },
      {bad(
           "out of range",
           [fn] {
             fn(f32(vec({1, 2})), to_tensor(vec({0, 4}), int32), 4, {});
           },
           "segment_ids[1] = 4 is out of range [0, 4)"),
       bad(
           "not a prefix",
           [fn] {
             fn(f32(m23()), to_tensor(vec({0, 0, 0}), int32), 2, {});
           },
           "does not start with segment_ids.shape"),
       bad(
           "negative count", [fn] { fn(f32(vec({1})), to_tensor(vec({0}), int32), -1, {}); },
           "num_segments must be non-negative")});
  row.rtol32 = 1e-6;
  row.atol32 = 1e-4;
  return row;
}

// bincount: arr (int32), weights (empty: count in the tested dtype), minlength, maxlength
// (-1: none), per_row (axis -1), binary_output.
OpRow bincount_row() {
  auto c = [](std::string label, Ref arr, Ref w, double lo, double hi, double per_row,
              double binary) {
    return Case{std::move(label),
                {std::move(arr), std::move(w), int_scalar(lo), int_scalar(hi), int_scalar(per_row),
                 int_scalar(binary)},
                {}};
  };
  const Ref none = shaped({0}, {});
  OpRow row = make_row(
      "bincount", {"DenseBincount"}, {float32, float64, int32, int64},
      {c("counts", vec({1, 1, 3, 0, 3, 3}, int32), none, -1, -1, 0, 0),
       c("weights", vec({1, 1, 3}, int32), vec({0.5, 2, 3}), -1, -1, 0, 0),
       c("minlength", vec({1, 2}, int32), none, 6, -1, 0, 0),
       c("maxlength drops", vec({1, 5, 2, 7}, int32), none, -1, 3, 0, 0),
       c("fixed size", vec({0, 4, 4}, int64), none, 5, 5, 0, 0),
       c("matrix flattened", mat({{1, 1}, {3, 0}}, int32), none, -1, -1, 0, 0),
       c("per row", mat({{1, 1}, {3, 0}}, int32), none, -1, -1, 1, 0),
       c("per row weights", mat({{1, 1}, {3, 0}}, int32), mat({{1, 2}, {3, 4}}), -1, -1, 1, 0),
       c("binary", vec({2, 2, 0, 2}, int32), none, -1, -1, 0, 1),
       c("empty", shaped({0}, {}, int32), none, -1, -1, 0, 0),
       c("large", filled({100000}, 0, 300, 6, int32), none, -1, -1, 0, 0)},
      [](In in) {
        BincountOptions o;
        if (in[1].num_elements() != 0) {
          o.weights = in[1];
        } else {
          o.dtype = in[1].dtype();
        }
        if (ii(in[2]) >= 0) o.minlength = ii(in[2]);
        if (ii(in[3]) >= 0) o.maxlength = ii(in[3]);
        if (ii(in[4])) o.axis = -1;
        o.binary_output = ii(in[5]) != 0;
        return single(bincount(in[0], o));
      },
      [](RefIn in, DType) {
        const Ref &arr = in[0], &w = in[1];
        const bool per_row = in[4].values[0] != 0, binary = in[5].values[0] != 0;
        int64_t size = 0;
        for (double v : arr.values) size = std::max(size, int64_t(v) + 1);
        if (in[2].values[0] >= 0) size = std::max(size, int64_t(in[2].values[0]));
        if (in[3].values[0] >= 0) size = std::min(size, int64_t(in[3].values[0]));
        const int64_t rows = per_row ? arr.shape[0] : 1;
        const int64_t cols = rows ? int64_t(arr.values.size()) / rows : 0;
        Ref out{per_row ? V{rows, size} : V{size}, std::vector<double>(size_t(rows * size)),
                std::nullopt};
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t j = 0; j < cols; ++j) {
            const int64_t k = r * cols + j, b = int64_t(arr.values[size_t(k)]);
            if (b >= size) continue;
            double& o = out.values[size_t(r * size + b)];
            o = binary ? 1 : o + (w.values.empty() ? 1 : w.values[size_t(k)]);
          }
        }
        return one(out);
      },
      {bad(
           "negative",
           [] {
             bincount(to_tensor(vec({1, -1}), int32));
           },
           "Input arr must be non-negative"),
       bad(
           "binary with weights",
           [] {
             BincountOptions o;
             o.weights = f32(vec({1}));
             o.binary_output = true;
             bincount(to_tensor(vec({1}), int32), o);
           },
           "mutually exclusive"),
       bad(
           "weights shape",
           [] {
             BincountOptions o;
             o.weights = f32(vec({1, 2}));
             bincount(to_tensor(vec({1, 2, 3}), int32), o);
           },
           "weights must be empty or have the shape of input"),
       bad(
           "rank 3 per row",
           [] {
             BincountOptions o;
             o.axis = -1;
             bincount(to_tensor(shaped({1, 1, 1}, {0}), int32), o);
           },
           "input must be a vector or a matrix"),
       bad(
           "float input", [] { bincount(f32(vec({1}))); }, "[Op:DenseBincount]")});
  return row;
}

}  // namespace

std::vector<OpRow> segment_rows() {
  return {sorted_row("segment_sum", "SegmentSum", Kind::kSum, segment_sum),
          sorted_row("segment_mean", "SegmentMean", Kind::kMean, segment_mean),
          sorted_row("segment_max", "SegmentMax", Kind::kMax, segment_max),
          unsorted_row("unsorted_segment_sum", {"UnsortedSegmentSum"}, Kind::kSum,
                       unsorted_segment_sum),
          unsorted_row("unsorted_segment_max", {"UnsortedSegmentMax"}, Kind::kMax,
                       unsorted_segment_max),
          unsorted_row("unsorted_segment_mean", {}, Kind::kMean, unsorted_segment_mean),
          bincount_row()};
}

}  // namespace tfcc::conformance
