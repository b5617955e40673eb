// Conformance rows of the elementwise family: cast, where (select and coordinates), add_n,
// clip_by_value.
#include <cmath>
#include <limits>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

// What TensorFlow's Cast gives for a double going into `to` (truncation toward zero, bool is
// x != 0; out-of-range float to int saturates in tfcc).
double cast_ref(double v, DType to) {
  switch (to) {
    case DType::kBool:
      return v != 0;
    case DType::kInt32:
      if (std::isnan(v)) return 0;
      return std::clamp(std::trunc(v), -2147483648.0, 2147483647.0);
    case DType::kInt64:
      if (std::isnan(v)) return 0;
      return std::trunc(v);
    case DType::kUInt8:
      if (std::isnan(v)) return 0;
      return std::clamp(std::trunc(v), 0.0, 255.0);
    case DType::kFloat32:
      return static_cast<float>(v);
    case DType::kBFloat16:
      return static_cast<float>(BFloat16(static_cast<float>(v)));
    default:
      return v;
  }
}

}  // namespace

std::vector<OpRow> elementwise_rows() {
  std::vector<OpRow> rows;
  for (DType to : {float32, float64, int32, int64, uint8, bool_, bfloat16}) {
    OpRow row;
    row.name = "cast_to_" + std::string(dtype_name(to));
    row.ops = {"Cast"};
    row.dtypes = {float32, float64, int32, int64, uint8, bool_, bfloat16};
    row.cases = {{"values", {vec({0, 1, 2.75, 100, 7})}, {}},
                 {"negatives", {vec({-1.5, -3, 0.25})}, {float32, float64, int32, int64}},
                 {"scalar", {scalar(1)}, {}},
                 {"empty", {shaped({2, 0}, {})}, {}},
                 {"large", {filled({50000}, 0, 200, 4)}, {}}};
    row.fn = [to](const std::vector<Tensor>& in) { return std::vector<Tensor>{cast(in[0], to)}; };
    row.reference = [to](const std::vector<Ref>& in, DType from) {
      Ref out{in[0].shape, {}, to};
      for (double v : in[0].values) {
        // Integer to integer conversion wraps (two's complement), as in TensorFlow.
        if (is_integer(from) && is_integer(to)) {
          out.values.push_back(v);
        } else {
          out.values.push_back(cast_ref(v, to));
        }
      }
      return std::vector<Ref>{out};
    };
    row.out_dtype = [to](DType) { return to; };
    // float64 -> float32/bfloat16 -> float64 loses the precision a finite difference needs; the
    // rule (cast the gradient back) is checked by the float64 row.
    row.grad_check = to == float64;
    row.rtol32 = 1e-2;  // bfloat16 keeps 8 bits of mantissa
    row.atol32 = 1e-2;
    row.invalid = {{"undefined input", [to] { cast(Tensor(), to); }, ErrorCode::kInvalidArgument,
                    "undefined"}};
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "cast_saturates";
    row.ops = {"Cast"};
    row.dtypes = {float32};
    row.cases = {{"out of range", {vec({1e10, -1e10, NAN, INFINITY})}, {}}};
    row.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{cast(in[0], int32)}; };
    row.reference = [](const std::vector<Ref>& in, DType) {
      Ref out{in[0].shape, {}, int32};
      for (double v : in[0].values) out.values.push_back(cast_ref(v, int32));
      return std::vector<Ref>{out};
    };
    row.invalid = {{"bad dtype attr",
                    [] {
                      Tensor in[] = {constant({1.f})};
                      dispatch(op_def("Cast"), in, {{"DstT", std::string("int32")}});
                    },
                    ErrorCode::kInvalidArgument, "Attribute 'DstT' must be a type"}};
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "where_select";
    row.ops = {"SelectV2"};
    row.dtypes = {float32, float64, int32, int64, uint8, bool_};
    row.cases = {
        {"same shape", {vec({1, 0, 1, 0}, bool_), vec({1, 2, 3, 4}), vec({5, 6, 7, 8})}, {}},
        {"broadcast cond", {mat({{1}, {0}}, bool_), mat({{1, 2}, {3, 4}}), scalar(0)}, {}},
        {"broadcast all", {vec({1, 0, 1}, bool_), mat({{1}, {2}}), mat({{7, 8, 9}})}, {}},
        {"scalar cond", {scalar(0, bool_), vec({1, 1}), vec({0, 0})}, {}},
        {"empty", {shaped({0}, {}, bool_), shaped({0}, {}), shaped({0}, {})}, {}},
        {"nan inf",
         {vec({1, 0, 1, 0}, bool_), vec({NAN, 1, INFINITY, 2}), vec({2, NAN, 3, -INFINITY})},
         kFloat},
        {"large",
         {filled({200, 300}, 0, 2, 3, bool_), filled({200, 300}, 0, 9, 4), scalar(1)},
         {}}};
    row.fn = [](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{where(in[0], in[1], in[2])};
    };
    row.reference = [](const std::vector<Ref>& in, DType) {
      // Broadcast the three by NumPy's rule, element by element.
      size_t r = std::max({in[0].shape.size(), in[1].shape.size(), in[2].shape.size()});
      std::vector<int64_t> shape(r, 1);
      for (const Ref& x : in) {
        for (size_t i = 0; i < x.shape.size(); ++i) {
          int64_t& d = shape[r - x.shape.size() + i];
          if (x.shape[i] != 1) d = x.shape[i];
        }
      }
      int64_t n = 1;
      for (int64_t d : shape) n *= d;
      Ref out{shape, {}, {}};
      auto at = [&](const Ref& x, int64_t flat) {
        int64_t off = 0, stride = 1;
        for (int i = static_cast<int>(r) - 1; i >= 0; --i) {
          int64_t idx = flat % shape[i];
          flat /= shape[i];
          int xi = i - static_cast<int>(r - x.shape.size());
          if (xi < 0) continue;
          if (x.shape[xi] != 1) off += idx * stride;
          stride *= x.shape[xi];
        }
        return x.values[off];
      };
      for (int64_t f = 0; f < n; ++f)
        out.values.push_back(at(in[0], f) != 0 ? at(in[1], f) : at(in[2], f));
      return std::vector<Ref>{out};
    };
    row.invalid = {
        {"non-bool condition", [] { where(constant({1.f}), constant({1.f}), constant({2.f})); },
         ErrorCode::kInvalidArgument, "[Op:SelectV2]"},
        {"incompatible shapes",
         [] {
           where(constant({true, false}), constant({1.f, 2.f, 3.f}), 0);
         },
         ErrorCode::kInvalidArgument, "Incompatible shapes"},
        {"mixed branch dtypes", [] { where(constant({true}), constant({1.f}), constant({1})); },
         ErrorCode::kInvalidArgument, "[Op:SelectV2]"}};
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "where_coordinates";
    row.ops = {"Where"};
    row.dtypes = {float32, float64, int32, int64, uint8, bool_};
    row.cases = {{"matrix", {mat({{1, 0, 2}, {0, 0, 3}})}, {}},
                 {"vector", {vec({0, 0, 5})}, {}},
                 {"none true", {vec({0, 0})}, {}},
                 {"rank 3", {filled({2, 3, 4}, 0, 2, 5)}, {}},
                 {"empty", {shaped({0, 4}, {})}, {}}};
    row.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{where(in[0])}; };
    row.reference = [](const std::vector<Ref>& in, DType) {
      const Ref& x = in[0];
      int64_t rank = static_cast<int64_t>(x.shape.size());
      Ref out{{0, rank}, {}, int64};
      for (size_t f = 0; f < x.values.size(); ++f) {
        if (x.values[f] == 0) continue;
        std::vector<double> c(rank);
        size_t rem = f;
        for (int64_t d = rank - 1; d >= 0; --d) {
          c[d] = static_cast<double>(rem % x.shape[d]);
          rem /= x.shape[d];
        }
        out.values.insert(out.values.end(), c.begin(), c.end());
        out.shape[0]++;
      }
      return std::vector<Ref>{out};
    };
    row.invalid = {{"bfloat16 condition", [] { where(cast(constant({1.f}), bfloat16)); },
                    ErrorCode::kInvalidArgument, "[Op:Where]"}};
    rows.push_back(std::move(row));
  }
  {
    OpRow row;
    row.name = "add_n";
    row.ops = {"AddN"};
    row.dtypes = kNumeric;
    row.cases = {{"three", {vec({1, 2, 3}), vec({4, 5, 6}), vec({7, 8, 9})}, {}},
                 {"one", {mat({{1, 2}, {3, 4}})}, {}},
                 {"scalars", {scalar(1), scalar(2)}, {}},
                 {"large", {filled({100000}, 0, 5, 1), filled({100000}, 0, 5, 2)}, {}},
                 {"nan inf",
                  {vec({NAN, INFINITY, INFINITY, -INFINITY, 1}), vec({1, -INFINITY, 1, 2, NAN})},
                  {float32, float64}}};
    row.fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{add_n(in)}; };
    row.reference = [](const std::vector<Ref>& in, DType) {
      Ref out = in[0];
      out.dtype.reset();
      for (size_t k = 1; k < in.size(); ++k) {
        for (size_t i = 0; i < out.values.size(); ++i) out.values[i] += in[k].values[i];
      }
      return std::vector<Ref>{out};
    };
    row.invalid = {{"shape mismatch",
                    [] {
                      add_n({constant({1.f, 2.f}), constant({1.f})});
                    },
                    ErrorCode::kInvalidArgument, "same shape"},
                   {"dtype mismatch",
                    [] {
                      add_n({constant({1.f}), constant({1})});
                    },
                    ErrorCode::kInvalidArgument, "[Op:AddN]"},
                   {"empty list", [] { add_n({}); }, ErrorCode::kInvalidArgument, "at least one"}};
    rows.push_back(std::move(row));
  }
  {
    OpRow row = unary_row(
        "clip_by_value", "", kSigned, [](const Tensor& x) { return clip_by_value(x, -1, 2); },
        // NaN stays NaN (TensorFlow's maximum and minimum propagate it).
        [](double x) { return std::isnan(x) ? x : std::min(std::max(x, -1.0), 2.0); },
        {{"specials", {vec({INFINITY, -INFINITY, NAN, -0.0})}, {float32, float64}}});
    row.ops.clear();
    row.invalid = {{"mixed tensor bounds",
                    [] { clip_by_value(constant({1.f}), constant({0}), 1.f); },
                    ErrorCode::kInvalidArgument, "[Op:Maximum]"}};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tfcc::conformance
