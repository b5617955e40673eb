// Definitions of the creation family: constants, Fill, ZerosLike/OnesLike, Range, LinSpace, Eye,
// OneHot. Every op here takes its shape and values as attributes, so none is differentiable:
// there is no tensor input a gradient could flow to except ZerosLike/OnesLike's, whose outputs
// do not depend on the input's values.
#include "tfcc/ops/creation/creation.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tfcc/ops/creation/creation_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

bool dtype_holds(DType dtype, double value) {
  return visit_dtype(dtype, [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      return value == 0 || value == 1;
    } else if constexpr (std::is_integral_v<T>) {
      // [lowest, max + 1): both bounds are exact powers of two as doubles.
      const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
      const double hi = 2.0 * (static_cast<double>(std::numeric_limits<T>::max() / 2) + 1);
      return std::isfinite(value) && value == std::trunc(value) && value >= lo && value < hi;
    } else {
      return true;  // floating dtypes hold every value (rounded; NaN and inf included)
    }
  });
}

RangeSize range_size(double start, double limit, double delta, DType dtype) {
  RangeSize r;
  auto fmt = [](double v) { return internal::str_cat(v); };
  if (delta == 0) {
    r.error = "Requires delta != 0: " + fmt(delta);
    return r;
  }
  if (delta > 0 && start > limit) {
    r.error = "Requires start <= limit when delta > 0: " + fmt(start) + "/" + fmt(limit);
    return r;
  }
  if (delta < 0 && start < limit) {
    r.error = "Requires start >= limit when delta < 0: " + fmt(start) + "/" + fmt(limit);
    return r;
  }
  if (is_integer(dtype)) {
    for (double v : {start, limit, delta}) {
      if (!dtype_holds(dtype, v)) {
        r.error =
            internal::str_cat("Cannot convert ", v, " to EagerTensor of dtype ", dtype_name(dtype));
        return r;
      }
    }
    const int64_t s = static_cast<int64_t>(start), l = static_cast<int64_t>(limit),
                  d = static_cast<int64_t>(delta);
    const uint64_t diff = s <= l ? uint64_t(l) - uint64_t(s) : uint64_t(s) - uint64_t(l);
    const uint64_t step = d > 0 ? uint64_t(d) : uint64_t(0) - uint64_t(d);
    const uint64_t n = diff / step + (diff % step != 0);
    if (n > uint64_t(std::numeric_limits<int64_t>::max())) {
      r.error = "Range size too large";
      return r;
    }
    r.size = static_cast<int64_t>(n);
    return r;
  }
  if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta)) {
    r.error = "Requires finite start, limit and delta: " + fmt(start) + ", " + fmt(limit) + ", " +
              fmt(delta);
    return r;
  }
  const double n = std::ceil(std::fabs((limit - start) / delta));
  if (!(n < 9007199254740992.0)) {
    r.error = "Range size too large: " + fmt(n);
    return r;
  }
  r.size = static_cast<int64_t>(n);
  return r;
}

namespace detail {

void check_rectangular(bool ok) {
  TFCC_CHECK_ARG(ok, "Can't convert non-rectangular Python sequence to Tensor.");
}

Tensor make_constant(const std::vector<double>& values, const Shape& shape, DType dtype) {
  TFCC_CHECK_ARG(static_cast<int64_t>(values.size()) == shape.num_elements(), "Cannot make a ",
                 shape.to_string(), " tensor from ", values.size(), " values");
  for (double v : values) {
    TFCC_CHECK_ARG(dtype_holds(dtype, v), "Cannot convert ", v, " to EagerTensor of dtype ",
                   dtype_name(dtype));
  }
  Tensor t = Tensor::empty(dtype, shape);
  visit_dtype(dtype, [&]<typename T>() {
    T* out = t.mutable_data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = convert_element<T>(values[i]);
  });
  return t;
}

}  // namespace detail

namespace {

void check_dims(const InferenceContext& c, const std::vector<int64_t>& dims, const char* what) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      std::string s;
      for (size_t i = 0; i < dims.size(); ++i) s += internal::str_cat(i ? "," : "", dims[i]);
      c.fail(internal::str_cat(what, " dimensions must be >= 0, got [", s, "]"));
    }
    n = checked_mul(n, d);
  }
}

void check_holds(const InferenceContext& c, DType dtype, double v) {
  if (!dtype_holds(dtype, v)) {
    c.fail(internal::str_cat("Cannot convert ", v, " to EagerTensor of dtype ", dtype_name(dtype)));
  }
}

std::vector<OutputSpec> fill_shape(const InferenceContext& c) {
  const auto& dims = c.attr<std::vector<int64_t>>("dims");
  DType dt = c.attr<DType>("dtype");
  check_dims(c, dims, "Fill");
  check_holds(c, dt, c.attr<double>("value"));
  return {{dt, PartialShape(dims)}};
}

std::vector<OutputSpec> like_shape(const InferenceContext& c) { return {{c.dtype(0), c.shape(0)}}; }

std::vector<OutputSpec> range_shape(const InferenceContext& c) {
  DType dt = c.attr<DType>("Tidx");
  RangeSize r =
      range_size(c.attr<double>("start"), c.attr<double>("limit"), c.attr<double>("delta"), dt);
  if (!r.error.empty()) c.fail(r.error);
  return {{dt, PartialShape({r.size})}};
}

std::vector<OutputSpec> linspace_shape(const InferenceContext& c) {
  int64_t num = c.attr<int64_t>("num");
  if (num <= 0) c.fail(internal::str_cat("Requires num > 0: ", num));
  return {{c.attr<DType>("T"), PartialShape({num})}};
}

std::vector<OutputSpec> eye_shape(const InferenceContext& c) {
  int64_t rows = c.attr<int64_t>("num_rows"), cols = c.attr<int64_t>("num_columns");
  if (rows < 0) c.fail(internal::str_cat("num_rows must be >= 0, got ", rows));
  if (cols < 0) c.fail(internal::str_cat("num_columns must be >= 0, got ", cols));
  checked_mul(rows, cols);
  return {{c.attr<DType>("dtype"), PartialShape({rows, cols})}};
}

std::vector<OutputSpec> one_hot_shape(const InferenceContext& c) {
  int64_t depth = c.attr<int64_t>("depth");
  DType dt = c.attr<DType>("T");
  if (depth < 0) c.fail(internal::str_cat("depth must be non-negative, got: ", depth));
  check_holds(c, dt, c.attr<double>("on_value"));
  check_holds(c, dt, c.attr<double>("off_value"));
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{dt, PartialShape::unknown_rank()}};
  const int rank = in.rank();
  int64_t axis = c.attr<int64_t>("axis");
  if (axis < -1 || axis > rank) {
    c.fail(internal::str_cat("Expected axis to be -1 or between [0, ", rank,
                             "). But received: ", axis));
  }
  if (axis == -1) axis = rank;
  std::vector<int64_t> dims = in.dims();
  dims.insert(dims.begin() + axis, depth);
  if (in.is_fully_defined()) {
    int64_t n = depth;
    for (int64_t d : in.dims()) n = checked_mul(n, d);
  }
  return {{dt, PartialShape(dims)}};
}

Tensor call0(const OpDef& op, Attrs attrs, Loc loc) {
  return dispatch1(op, {}, std::move(attrs), loc);
}

// Python ints become int32 when they fit, else int64; anything non-integral makes float32.
DType infer_range_dtype(double start, double limit, double delta) {
  bool integral = true, fits32 = true;
  for (double v : {start, limit, delta}) {
    integral = integral && dtype_holds(int64, v);
    fits32 = fits32 && dtype_holds(int32, v);
  }
  if (!integral) return float32;
  return fits32 ? int32 : int64;
}

}  // namespace

void register_creation_ops(OpRegistry& r) {
  r.add("Fill")
      .output("output", "dtype")
      .type_attr("dtype", kAllTypes)
      .attr("dims", AttrType::kInts)
      .attr("value", AttrType::kFloat)
      .shape_fn(fill_shape)
      .cpu_kernels(creation_cpu_kernel)
      .not_differentiable();
  for (const char* name : {"ZerosLike", "OnesLike"}) {
    r.add(name)
        .input("x", "T")
        .output("y", "T")
        .type_attr("T", kAllTypes)
        .shape_fn(like_shape)
        .cpu_kernels(creation_cpu_kernel)
        .not_differentiable();
  }
  r.add("Range")
      .output("output", "Tidx")
      .type_attr("Tidx", kSignedNumericTypes)
      .attr("start", AttrType::kFloat)
      .attr("limit", AttrType::kFloat)
      .attr("delta", AttrType::kFloat, 1.0)
      .shape_fn(range_shape)
      .cpu_kernels(creation_cpu_kernel)
      .not_differentiable();
  r.add("LinSpace")
      .output("output", "T")
      .type_attr("T", kFloatTypes)
      .attr("start", AttrType::kFloat)
      .attr("stop", AttrType::kFloat)
      .attr("num", AttrType::kInt)
      .shape_fn(linspace_shape)
      .cpu_kernels(creation_cpu_kernel)
      .not_differentiable();
  r.add("Eye")
      .output("output", "dtype")
      .type_attr("dtype", kAllTypes)
      .attr("num_rows", AttrType::kInt)
      .attr("num_columns", AttrType::kInt)
      .shape_fn(eye_shape)
      .cpu_kernels(creation_cpu_kernel)
      .not_differentiable();
  r.add("OneHot")
      .input("indices", "TI")
      .output("output", "T")
      .type_attr("T", kAllTypes)
      .type_attr("TI", kIndexTypes)
      .kernel_type_attr("T")
      .attr("depth", AttrType::kInt)
      .attr("on_value", AttrType::kFloat, 1.0)
      .attr("off_value", AttrType::kFloat, 0.0)
      .attr("axis", AttrType::kInt, int64_t{-1})
      .shape_fn(one_hot_shape)
      .cpu_kernels(creation_cpu_kernel)
      .not_differentiable();
}

Tensor fill(std::vector<int64_t> shape, double value, DType dtype, Loc loc) {
  static const OpDef& op = op_def("Fill");
  return call0(op, {{"dims", std::move(shape)}, {"value", value}, {"dtype", dtype}}, loc);
}

Tensor zeros(std::vector<int64_t> shape, DType dtype, Loc loc) {
  if (dtype == string) {  // tf.zeros(shape, tf.string): empty strings (Fill takes numbers here)
    int64_t n = 1;
    for (int64_t d : shape) {
      TFCC_CHECK_ARG(d >= 0 && (d == 0 || n <= (int64_t{1} << 31) / d),
                     "zeros: dimensions must be non-negative and hold at most 2^31 strings, got ",
                     Shape(shape).to_string());
      n *= d;
    }
    return Tensor::from_strings(std::vector<std::string>(static_cast<size_t>(n)), Shape(shape));
  }
  return fill(std::move(shape), 0, dtype, loc);
}

Tensor ones(std::vector<int64_t> shape, DType dtype, Loc loc) {
  return fill(std::move(shape), 1, dtype, loc);
}

namespace {
Tensor like(const OpDef& op, double value, const Tensor& x, std::optional<DType> dtype, Loc loc) {
  if (!dtype || *dtype == x.dtype()) {
    Tensor in[] = {x};
    return dispatch1(op, in, {}, loc);
  }
  PartialShape s = x.partial_shape();
  if (s.is_fully_defined()) return fill(s.dims(), value, *dtype, loc);
  Tensor in[] = {x};
  return cast(dispatch1(op, in, {}, loc), *dtype, loc);
}
}  // namespace

Tensor zeros_like(const Tensor& x, std::optional<DType> dtype, Loc loc) {
  static const OpDef& op = op_def("ZerosLike");
  return like(op, 0, x, dtype, loc);
}

Tensor ones_like(const Tensor& x, std::optional<DType> dtype, Loc loc) {
  static const OpDef& op = op_def("OnesLike");
  return like(op, 1, x, dtype, loc);
}

Tensor range(double start, double limit, double delta, std::optional<DType> dtype, Loc loc) {
  static const OpDef& op = op_def("Range");
  DType dt = dtype.value_or(infer_range_dtype(start, limit, delta));
  return call0(op, {{"start", start}, {"limit", limit}, {"delta", delta}, {"Tidx", dt}}, loc);
}

Tensor range(int64_t limit, Loc loc) {
  return range(0, static_cast<double>(limit), 1, std::nullopt, loc);
}

Tensor linspace(double start, double stop, int64_t num, DType dtype, Loc loc) {
  static const OpDef& op = op_def("LinSpace");
  return call0(op, {{"start", start}, {"stop", stop}, {"num", num}, {"T", dtype}}, loc);
}

Tensor eye(int64_t num_rows, std::optional<int64_t> num_columns, DType dtype, Loc loc) {
  static const OpDef& op = op_def("Eye");
  return call0(
      op,
      {{"num_rows", num_rows}, {"num_columns", num_columns.value_or(num_rows)}, {"dtype", dtype}},
      loc);
}

Tensor one_hot(const Tensor& indices, int64_t depth, double on_value, double off_value, DType dtype,
               Loc loc) {
  static const OpDef& op = op_def("OneHot");
  Tensor in[] = {indices};
  return dispatch1(
      op, in, {{"depth", depth}, {"on_value", on_value}, {"off_value", off_value}, {"T", dtype}},
      loc);
}

}  // namespace tfcc
