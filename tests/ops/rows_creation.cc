// Conformance rows of the creation family. Ops without tensor inputs get their arguments as
// inputs of the row (shapes pinned to int64, values in the tested dtype) so the harness runs them
// per dtype.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

std::vector<int64_t> dims_of(const Tensor& t) { return t.to_vector<int64_t>(); }
std::vector<int64_t> dims_of(const Ref& r) {
  std::vector<int64_t> d;
  for (double v : r.values) d.push_back(static_cast<int64_t>(v));
  return d;
}
int64_t count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}
Ref full(const std::vector<int64_t>& dims, double v) {
  return {dims, std::vector<double>(static_cast<size_t>(count(dims)), v), std::nullopt};
}
Ref shape_ref(std::vector<double> dims) {
  int64_t n = static_cast<int64_t>(dims.size());
  return {{n}, std::move(dims), int64};
}

// Cases for ops taking (shape, value): value in the tested dtype.
std::vector<Case> shape_cases() {
  return {
      {"rank 0", {shape_ref({}), scalar(3)}, {}},
      {"matrix", {shape_ref({2, 3}), scalar(1)}, {}},
      {"rank 3", {shape_ref({2, 1, 4}), scalar(0)}, {}},
      {"empty", {shape_ref({0, 3}), scalar(2)}, {}},
      {"large", {shape_ref({300, 300}), scalar(7)}, {}},
  };
}

OpRow fill_like_row(std::string name, std::vector<std::string> ops,
                    std::function<Tensor(std::vector<int64_t>, double, DType)> fn,
                    std::optional<double> fixed_value) {
  OpRow row;
  row.name = name;
  row.ops = std::move(ops);
  row.dtypes = {float32, float64, int32, int64, uint8, bool_};
  row.cases = shape_cases();
  row.fn = [fn](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fn(dims_of(in[0]), in[1].item<double>(), in[1].dtype())};
  };
  row.reference = [fixed_value](const std::vector<Ref>& in, DType) {
    return std::vector<Ref>{full(dims_of(in[0]), fixed_value.value_or(in[1].values[0]))};
  };
  // The inputs are a shape and a fill value read as C++ numbers: nothing to differentiate.
  row.grad_check = false;
  row.invalid.push_back({"negative dims",
                         [fn] {
                           fn({2, -1}, 1, float32);
                         },
                         ErrorCode::kInvalidArgument, "must be >= 0"});
  row.invalid.push_back({"shape overflow",
                         [fn] {
                           fn({int64_t{1} << 40, int64_t{1} << 40}, 1, float32);
                         },
                         ErrorCode::kInvalidArgument, "overflows"});
  return row;
}

OpRow fill_row() {
  OpRow row = fill_like_row(
      "fill", {"Fill"},
      [](std::vector<int64_t> s, double v, DType d) { return fill(std::move(s), v, d); },
      std::nullopt);
  row.cases.push_back(
      {"negative and fractional", {shape_ref({3}), scalar(-2.5)}, {float32, float64}});
  row.invalid.push_back({"2.5 into int32", [] { fill({2}, 2.5, int32); },
                         ErrorCode::kInvalidArgument, "Cannot convert 2.5"});
  row.invalid.push_back({"300 into uint8", [] { fill({2}, 300, uint8); },
                         ErrorCode::kInvalidArgument, "Cannot convert 300"});
  row.invalid.push_back({"-1 into uint8", [] { fill({2}, -1, uint8); }, ErrorCode::kInvalidArgument,
                         "Cannot convert -1"});
  return row;
}

OpRow like_row(std::string name, std::string op, double value,
               std::function<Tensor(const Tensor&, std::optional<DType>)> fn) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = {float32, float64, int32, int64, uint8, bool_};
  row.cases = {
      {"scalar", {scalar(1)}, {}},
      {"matrix", {filled({3, 4}, 0, 5, 2)}, {}},
      {"empty", {shaped({0, 2}, {})}, {}},
      {"large", {filled({70000}, 0, 3, 4)}, {}},
  };
  row.fn = [fn](const std::vector<Tensor>& in) { return std::vector<Tensor>{fn(in[0], {})}; };
  row.reference = [value](const std::vector<Ref>& in, DType) {
    return std::vector<Ref>{full(in[0].shape, value)};
  };
  row.invalid.push_back(
      {"undefined input", [fn] { fn(Tensor(), {}); }, ErrorCode::kInvalidArgument, "undefined"});
  return row;
}

OpRow range_row() {
  OpRow row;
  row.name = "range";
  row.ops = {"Range"};
  row.dtypes = kSigned;
  row.cases = {
      {"0..10 by 2", {scalar(0), scalar(10), scalar(2)}, {}},
      {"not a multiple", {scalar(1), scalar(10), scalar(4)}, {}},
      {"negative delta", {scalar(10), scalar(0), scalar(-3)}, {}},
      {"negative start", {scalar(-5), scalar(5), scalar(1)}, {}},
      {"empty", {scalar(3), scalar(3), scalar(1)}, {}},
      {"fractional", {scalar(0), scalar(1), scalar(0.25)}, {float32, float64}},
      {"fractional negative", {scalar(1.5), scalar(-1), scalar(-0.5)}, {float32, float64}},
      {"large", {scalar(0), scalar(100000), scalar(1)}, {}},
  };
  row.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        range(in[0].item<double>(), in[1].item<double>(), in[2].item<double>(), in[0].dtype())};
  };
  row.reference = [](const std::vector<Ref>& in, DType) {
    const double s = in[0].values[0], l = in[1].values[0], d = in[2].values[0];
    Ref out{{0}, {}, std::nullopt};
    for (int64_t i = 0;; ++i) {
      const double v = s + static_cast<double>(i) * d;
      if (d > 0 ? v >= l : v <= l) break;
      out.values.push_back(v);
    }
    out.shape = {static_cast<int64_t>(out.values.size())};
    return std::vector<Ref>{out};
  };
  row.invalid = {
      {"delta 0", [] { range(0, 5, 0); }, ErrorCode::kInvalidArgument, "Requires delta != 0"},
      {"start > limit, delta > 0", [] { range(5, 0, 1); }, ErrorCode::kInvalidArgument,
       "Requires start <= limit when delta > 0"},
      {"start < limit, delta < 0", [] { range(0, 5, -1); }, ErrorCode::kInvalidArgument,
       "Requires start >= limit when delta < 0"},
      {"fraction for int32", [] { range(0, 5, 0.5, int32); }, ErrorCode::kInvalidArgument,
       "Cannot convert 0.5"},
      {"nan", [] { range(0, NAN, 1, float32); }, ErrorCode::kInvalidArgument, "finite"},
      {"bool dtype", [] { range(0, 2, 1, bool_); }, ErrorCode::kInvalidArgument, "[Op:Range]"},
  };
  return row;
}

// Dtype inference of range and constant(): values checked directly.
OpRow range_dtype_row() {
  OpRow row;
  row.name = "range_default_dtype";
  row.dtypes = {int32};
  row.property_check = [](DType) {
    EXPECT_EQ(range(0, 5).dtype(), int32);
    EXPECT_EQ(range(5).to_vector<int>(), (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(range(0, 1, 0.5).dtype(), float32);
    EXPECT_EQ(range(0, 1, 0.5).to_vector<float>(), (std::vector<float>{0, 0.5f}));
    EXPECT_EQ(range(0, 5e9, 1e9).dtype(), int64);
    EXPECT_EQ(range(int64_t{0}).shape(), Shape({0}));
  };
  row.invalid.push_back({"negative limit", [] { range(int64_t{-3}); }, ErrorCode::kInvalidArgument,
                         "Requires start <= limit"});
  return row;
}

OpRow constant_row() {
  OpRow row;
  row.name = "constant";
  row.dtypes = {float32};
  row.property_check = [](DType) {
    Tensor a = constant(2);
    EXPECT_EQ(a.dtype(), int32);
    EXPECT_EQ(a.shape(), Shape{});
    EXPECT_EQ(constant(int64_t{3}).dtype(), int64);
    EXPECT_EQ(constant(2.5).dtype(), float32);
    EXPECT_EQ(constant(true).dtype(), bool_);
    Tensor m = constant({{1.f, 2.f}, {3.f, 4.f}});
    EXPECT_EQ(m.shape(), Shape({2, 2}));
    EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
    Tensor c = constant({{{1, 2}}, {{3, 4}}, {{5, 6}}}, float64);
    EXPECT_EQ(c.shape(), Shape({3, 1, 2}));
    EXPECT_EQ(c.dtype(), float64);
    EXPECT_EQ(constant({1, 2, 3}, uint8).to_vector<int>(), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(constant(std::vector<double>{1, 2, 3, 4, 5, 6}, std::vector<int64_t>{3, 2}).shape(),
              Shape({3, 2}));
    EXPECT_EQ(constant(3.0, int32).item<int>(), 3);
    EXPECT_EQ(constant(1, bool_).item<bool>(), true);
    EXPECT_EQ(constant(std::vector<float>{}).shape(), Shape({0}));
    // zeros_like / ones_like with another dtype than the input's.
    Tensor z = zeros_like(Tensor::from_vector<int32_t>({1, 2, 3}), float64);
    EXPECT_EQ(z.dtype(), float64);
    EXPECT_EQ(z.to_vector<double>(), std::vector<double>(3, 0.0));
    Tensor o = ones_like(constant({{1.5f, 2.f}}), int64);
    EXPECT_EQ(o.dtype(), int64);
    EXPECT_EQ(o.shape(), Shape({1, 2}));
    EXPECT_EQ(o.to_vector<int64_t>(), std::vector<int64_t>(2, 1));
  };
  row.invalid = {
      {"2.5 into int32", [] { constant(2.5, int32); }, ErrorCode::kInvalidArgument,
       "Cannot convert 2.5 to EagerTensor of dtype int32"},
      {"300 into uint8",
       [] {
         constant({1, 300}, uint8);
       },
       ErrorCode::kInvalidArgument, "Cannot convert 300 to EagerTensor of dtype uint8"},
      {"-1 into uint8", [] { constant(-1, uint8); }, ErrorCode::kInvalidArgument,
       "Cannot convert -1"},
      {"2 into bool", [] { constant(2, bool_); }, ErrorCode::kInvalidArgument, "Cannot convert 2"},
      {"2^31 into int32", [] { constant(int64_t{1} << 31, int32); }, ErrorCode::kInvalidArgument,
       "Cannot convert"},
      {"inf into int64", [] { constant(INFINITY, int64); }, ErrorCode::kInvalidArgument,
       "Cannot convert"},
      {"ragged 2-D",
       [] {
         constant({{1, 2}, {3}});
       },
       ErrorCode::kInvalidArgument, "non-rectangular"},
      {"ragged 3-D",
       [] {
         constant({{{1, 2}}, {{3, 4}, {5, 6}}});
       },
       ErrorCode::kInvalidArgument, "non-rectangular"},
      {"wrong count",
       [] {
         constant(std::vector<int>{1, 2, 3}, std::vector<int64_t>{2, 2});
       },
       ErrorCode::kInvalidArgument, "Cannot make a"},
  };
  return row;
}

OpRow linspace_row() {
  OpRow row;
  row.name = "linspace";
  row.ops = {"LinSpace"};
  row.dtypes = kFloat;
  auto num = [](double n) { return scalar(n, int64); };
  row.cases = {
      {"0..1 by 5", {scalar(0), scalar(1), num(5)}, {}},
      {"one", {scalar(3), scalar(7), num(1)}, {}},
      {"descending", {scalar(10), scalar(-10), num(7)}, {}},
      {"large", {scalar(-1), scalar(1), num(100001)}, {}},
  };
  row.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        linspace(in[0].item<double>(), in[1].item<double>(), in[2].item<int64_t>(), in[0].dtype())};
  };
  row.reference = [](const std::vector<Ref>& in, DType) {
    const double a = in[0].values[0], b = in[1].values[0];
    const int64_t n = static_cast<int64_t>(in[2].values[0]);
    Ref out{{n}, {}, std::nullopt};
    for (int64_t i = 0; i < n; ++i) {
      out.values.push_back(n == 1 ? a : a + (b - a) * double(i) / double(n - 1));
    }
    return std::vector<Ref>{out};
  };
  row.invalid = {
      {"num 0", [] { linspace(0, 1, 0); }, ErrorCode::kInvalidArgument, "Requires num > 0: 0"},
      {"int32 dtype", [] { linspace(0, 1, 3, int32); }, ErrorCode::kInvalidArgument,
       "[Op:LinSpace]"},
  };
  return row;
}

OpRow eye_row() {
  OpRow row;
  row.name = "eye";
  row.ops = {"Eye"};
  row.dtypes = {float32, float64, int32, int64, uint8, bool_};
  auto n = [](double v) { return scalar(v, int64); };
  row.cases = {
      {"square", {n(3), n(3), scalar(0)}, {}},    {"wide", {n(2), n(4), scalar(0)}, {}},
      {"tall", {n(4), n(2), scalar(0)}, {}},      {"empty", {n(0), n(0), scalar(0)}, {}},
      {"large", {n(300), n(300), scalar(0)}, {}},
  };
  row.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{eye(in[0].item<int64_t>(), in[1].item<int64_t>(), in[2].dtype())};
  };
  row.reference = [](const std::vector<Ref>& in, DType) {
    const int64_t r = int64_t(in[0].values[0]), c = int64_t(in[1].values[0]);
    Ref out{{r, c}, {}, std::nullopt};
    for (int64_t i = 0; i < r; ++i) {
      for (int64_t j = 0; j < c; ++j) out.values.push_back(i == j ? 1 : 0);
    }
    return std::vector<Ref>{out};
  };
  row.invalid = {
      {"negative rows", [] { eye(-1); }, ErrorCode::kInvalidArgument, "num_rows must be >= 0"},
      {"negative columns", [] { eye(2, -2); }, ErrorCode::kInvalidArgument,
       "num_columns must be >= 0"},
  };
  return row;
}

OpRow one_hot_row() {
  OpRow row;
  row.name = "one_hot";
  row.ops = {"OneHot"};
  row.dtypes = {float32, float64, int32, int64, uint8, bool_};
  auto d = [](double v) { return scalar(v, int64); };
  row.cases = {
      {"vector, out of range", {vec({0, 2, -1, 3, 1}, int32), d(3), scalar(1), scalar(0)}, {}},
      {"matrix int64", {mat({{1, 0}, {3, 2}}, int64), d(4), scalar(1), scalar(0)}, {}},
      {"on/off values",
       {vec({1, 0, 2}, int64), d(3), scalar(5), scalar(2)},
       {float32, float64, int32, int64, uint8}},
      {"scalar index", {scalar(1, int32), d(2), scalar(1), scalar(0)}, {}},
      {"depth 0", {vec({0, 1}, int32), d(0), scalar(1), scalar(0)}, {}},
      {"empty", {shaped({0}, {}, int32), d(3), scalar(1), scalar(0)}, {}},
      {"large", {filled({70000}, -1, 5, 3, int64), d(4), scalar(1), scalar(0)}, {}},
  };
  row.fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{one_hot(in[0], in[1].item<int64_t>(), in[2].item<double>(),
                                       in[3].item<double>(), in[2].dtype())};
  };
  row.reference = [](const std::vector<Ref>& in, DType) {
    const int64_t depth = int64_t(in[1].values[0]);
    Ref out{in[0].shape, {}, std::nullopt};
    out.shape.push_back(depth);
    for (double idx : in[0].values) {
      for (int64_t k = 0; k < depth; ++k) {
        out.values.push_back(static_cast<int64_t>(idx) == k ? in[2].values[0] : in[3].values[0]);
      }
    }
    return std::vector<Ref>{out};
  };
  Tensor idx = Tensor::from_vector<int32_t>({0, 1});
  row.invalid = {
      {"negative depth", [idx] { one_hot(idx, -1); }, ErrorCode::kInvalidArgument,
       "depth must be non-negative, got: -1"},
      {"float indices",
       [] {
         one_hot(Tensor::from_vector<float>({0, 1}), 2);
       },
       ErrorCode::kInvalidArgument, "[Op:OneHot]"},
      {"on value 2.5 for int32", [idx] { one_hot(idx, 2, 2.5, 0, int32); },
       ErrorCode::kInvalidArgument, "Cannot convert 2.5"},
  };
  return row;
}

}  // namespace

std::vector<OpRow> creation_rows() {
  std::vector<OpRow> rows;
  rows.push_back(constant_row());
  rows.push_back(fill_row());
  rows.push_back(fill_like_row(
      "zeros", {}, [](std::vector<int64_t> s, double, DType d) { return zeros(std::move(s), d); },
      0.0));
  rows.push_back(fill_like_row(
      "ones", {}, [](std::vector<int64_t> s, double, DType d) { return ones(std::move(s), d); },
      1.0));
  rows.push_back(
      like_row("zeros_like", "ZerosLike", 0,
               [](const Tensor& x, std::optional<DType> d) { return zeros_like(x, d); }));
  rows.push_back(like_row("ones_like", "OnesLike", 1,
                          [](const Tensor& x, std::optional<DType> d) { return ones_like(x, d); }));
  rows.push_back(range_row());
  rows.push_back(range_dtype_row());
  rows.push_back(linspace_row());
  rows.push_back(eye_row());
  rows.push_back(one_hot_row());
  return rows;
}

}  // namespace tfcc::conformance
