// Definitions of the array family's concat/split ops: ConcatV2, Unpack, Split, SplitV (shape
// functions, gradients, registrations) and their API (concat, stack, unstack, split).
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::vector<OutputSpec> concat_shape(const InferenceContext& c) {
  PartialShape first;
  int known = -1;
  for (int i = 0; i < c.num_inputs(); ++i) {
    if (c.shape(i).rank_known()) {
      known = i;
      break;
    }
  }
  if (known < 0) return {{c.dtype(0), PartialShape()}};
  first = c.shape(known);
  int64_t r = first.rank();
  if (r == 0) c.fail("Can't concatenate scalars (use tfcc::stack instead)");
  int64_t axis = c.attr<int64_t>("axis");
  if (axis < -r || axis >= r) {
    c.fail(internal::str_cat("ConcatOp : Expected concatenating dimensions in the range [", -r,
                             ", ", r, "), but got ", axis));
  }
  if (axis < 0) axis += r;
  std::vector<int64_t> dims = first.dims();
  dims[static_cast<size_t>(axis)] = 0;
  for (int i = 0; i < c.num_inputs(); ++i) {
    PartialShape s = c.shape(i);
    if (!s.rank_known()) {
      dims[static_cast<size_t>(axis)] = -1;
      continue;
    }
    if (s.rank() != r) {
      c.fail(internal::str_cat(
          "ConcatOp : Ranks of all input tensors should match: shape[0] = ", dims_str(first.dims()),
          " vs. shape[", i, "] = ", dims_str(s.dims())));
    }
    for (int64_t d = 0; d < r; ++d) {
      int64_t v = s.dim(static_cast<int>(d));
      int64_t& o = dims[static_cast<size_t>(d)];
      if (d == axis) {
        o = (o < 0 || v < 0) ? -1 : o + v;
      } else if (v >= 0 && o >= 0 && v != o) {
        c.fail(internal::str_cat(
            "ConcatOp : Dimension ", d, " in both shapes must be equal: shape[0] = ",
            dims_str(first.dims()), " vs. shape[", i, "] = ", dims_str(s.dims())));
      } else if (o < 0) {
        o = v;
      }
    }
  }
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<Tensor> concat_grad(const GradContext& g) {
  int64_t axis = g.attrs.get<int64_t>("axis");
  std::vector<int64_t> sizes;
  for (const Tensor& x : g.inputs) {
    PartialShape p = x.partial_shape();
    int64_t r = p.rank_known() ? p.rank() : 0;
    int64_t a = axis < 0 ? axis + r : axis;
    sizes.push_back(p.rank_known() ? p.dim(static_cast<int>(a)) : -1);
  }
  if (std::count(sizes.begin(), sizes.end(), -1) > 1) {
    throw UnimplementedError("The gradient of concat needs the sizes along the axis at trace time");
  }
  if (g.inputs.size() == 1) return {g.grads[0]};
  return split(g.grads[0], sizes, axis);
}

// Splits the (known) input dimension `axis` into output specs of the given sizes.
std::vector<OutputSpec> split_specs(const InferenceContext& c, int64_t axis,
                                    const std::vector<int64_t>& sizes, bool drop_axis) {
  std::vector<OutputSpec> out;
  for (int64_t s : sizes) {
    std::vector<int64_t> dims = c.shape(0).dims();
    if (drop_axis) {
      dims.erase(dims.begin() + axis);
    } else {
      dims[static_cast<size_t>(axis)] = s;
    }
    out.push_back({c.dtype(0), PartialShape(dims)});
  }
  return out;
}

// Split and Unpack make one output per piece: a bound keeps a typo'd count (or a file's) from
// asking for billions of outputs.
constexpr int64_t kMaxPieces = int64_t{1} << 16;

std::vector<OutputSpec> unpack_shape(const InferenceContext& c) {
  int64_t num = c.attr<int64_t>("num");
  if (num < 0) c.fail(internal::str_cat("num must be non-negative, got ", num));
  if (num > kMaxPieces) {
    c.fail(internal::str_cat("num = ", num, " outputs is more than the ", kMaxPieces, " allowed"));
  }
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return std::vector<OutputSpec>(static_cast<size_t>(num), {c.dtype(0), {}});
  int64_t axis = checked_axis(c, c.attr<int64_t>("axis"), in.rank(), "axis");
  int64_t d = in.dim(static_cast<int>(axis));
  if (d >= 0 && d != num) {
    c.fail(internal::str_cat("Input shape axis ", axis, " must equal ", num, ", got shape ",
                             dims_str(in.dims())));
  }
  return split_specs(c, axis, std::vector<int64_t>(static_cast<size_t>(num), 1), true);
}

std::vector<OutputSpec> split_shape(const InferenceContext& c) {
  int64_t num = c.attr<int64_t>("num_split");
  if (num <= 0) {
    c.fail(internal::str_cat("Number of ways to split should be > 0, but got ", num));
  }
  if (num > kMaxPieces) {
    c.fail(internal::str_cat("num_split = ", num, " outputs is more than the ", kMaxPieces,
                             " allowed"));
  }
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return std::vector<OutputSpec>(static_cast<size_t>(num), {c.dtype(0), {}});
  int64_t axis = checked_axis(c, c.attr<int64_t>("axis"), in.rank(), "axis");
  int64_t d = in.dim(static_cast<int>(axis));
  if (d >= 0 && d % num != 0) {
    c.fail(internal::str_cat("Number of ways to split should evenly divide the split dimension, ",
                             "but got split_dim ", axis, " (size = ", d, ") and num_split ", num));
  }
  return split_specs(c, axis, std::vector<int64_t>(static_cast<size_t>(num), d < 0 ? -1 : d / num),
                     false);
}

std::vector<OutputSpec> split_v_shape(const InferenceContext& c) {
  std::vector<int64_t> sizes = c.attr<std::vector<int64_t>>("size_splits");
  if (sizes.empty()) c.fail("size_splits must have at least one element");
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return std::vector<OutputSpec>(sizes.size(), {c.dtype(0), {}});
  int64_t axis = checked_axis(c, c.attr<int64_t>("axis"), in.rank(), "axis");
  int64_t d = in.dim(static_cast<int>(axis));
  int64_t unknown = -1, total = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (unknown >= 0) c.fail("There can only be one -1 in the input.");
      unknown = static_cast<int64_t>(i);
    } else if (sizes[i] < 0) {
      c.fail(internal::str_cat("Split size at index ", i, " must be >= 0 or -1, got ", sizes[i]));
    } else if (__builtin_add_overflow(total, sizes[i], &total)) {
      c.fail("size_splits sum overflows");
    }
  }
  if (d >= 0) {
    if ((unknown < 0 && total != d) || (unknown >= 0 && total > d)) {
      c.fail(internal::str_cat(
          "Determined shape must either match input shape along split_dim exactly if fully "
          "specified, or be less than the size of the input along split_dim if not fully "
          "specified.  Got: ",
          total));
    }
    if (unknown >= 0) sizes[static_cast<size_t>(unknown)] = d - total;
  }
  return split_specs(c, axis, sizes, false);
}

Tensor zeros_for(const Tensor& grad, const Tensor& like) {
  return grad.defined() ? grad : zeros_like(like);
}

std::vector<Tensor> split_grad(const GradContext& g) {
  std::vector<Tensor> parts;
  for (size_t i = 0; i < g.grads.size(); ++i) parts.push_back(zeros_for(g.grads[i], g.outputs[i]));
  return {concat(parts, g.attrs.get<int64_t>("axis"))};
}

std::vector<Tensor> unpack_grad(const GradContext& g) {
  std::vector<Tensor> parts;
  for (size_t i = 0; i < g.grads.size(); ++i) parts.push_back(zeros_for(g.grads[i], g.outputs[i]));
  if (parts.empty()) return {zeros_like(g.inputs[0])};
  return {stack(parts, g.attrs.get<int64_t>("axis"))};
}

}  // namespace

void register_concat_split_ops(OpRegistry& r) {
  r.add("ConcatV2")
      .variadic_input("values", "T")
      .output("output", "T")
      .type_attr("T", kAllTypesAndString)
      .attr("axis", AttrType::kInt)
      .shape_fn(concat_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient(concat_grad);
  // Multi-output ops: one declared output; the count comes from "num" / "num_split" /
  // "size_splits" (the shape function returns one spec per output).
  unary_array(r, "Unpack")
      .attr("num", AttrType::kInt)
      .attr("axis", AttrType::kInt, int64_t{0})
      .shape_fn(unpack_shape)
      .gradient(unpack_grad);
  unary_array(r, "Split")
      .attr("num_split", AttrType::kInt)
      .attr("axis", AttrType::kInt, int64_t{0})
      .shape_fn(split_shape)
      .gradient(split_grad);
  unary_array(r, "SplitV")
      .attr("size_splits", AttrType::kInts)
      .attr("axis", AttrType::kInt, int64_t{0})
      .shape_fn(split_v_shape)
      .gradient(split_grad);
}

Tensor concat(const std::vector<Tensor>& values, int64_t axis, Loc loc) {
  static const OpDef& op = op_def("ConcatV2");
  return dispatch1(op, values, {{"axis", axis}}, loc);
}

Tensor stack(const std::vector<Tensor>& values, int64_t axis, Loc loc) {
  TFCC_CHECK_ARG(!values.empty(), "stack needs at least one tensor");
  PartialShape first = values[0].partial_shape();
  for (size_t i = 1; i < values.size(); ++i) {
    PartialShape s = values[i].partial_shape();
    if (!s.is_compatible_with(first)) {
      throw InvalidArgumentError(
          "Shapes of all inputs must match: values[0].shape = " + first.to_string() +
          " != values[" + std::to_string(i) + "].shape = " + s.to_string());
    }
  }
  std::vector<Tensor> expanded;
  for (const Tensor& v : values) expanded.push_back(expand_dims(v, axis, loc));
  int64_t r = first.rank_known() ? first.rank() + 1 : 0;
  return concat(expanded, first.rank_known() && axis < 0 ? axis + r : axis, loc);
}

std::vector<Tensor> unstack(const Tensor& x, int64_t axis, Loc loc) {
  static const OpDef& op = op_def("Unpack");
  PartialShape p = x.defined() ? x.partial_shape() : PartialShape();
  if (!p.rank_known()) throw InvalidArgumentError("Cannot infer num from shape " + p.to_string());
  int64_t r = p.rank();
  if (axis < -r || axis >= r) {
    op_error(op, internal::str_cat("axis ", axis, " is out of range for a tensor of rank ", r,
                                   "; expected a value in [", -r, ", ", r, ")"));
  }
  int64_t num = p.dim(static_cast<int>(axis < 0 ? axis + r : axis));
  if (num < 0) throw InvalidArgumentError("Cannot infer num from shape " + p.to_string());
  Tensor in[] = {x};
  return dispatch(op, in, {{"num", num}, {"axis", axis}}, loc);
}

std::vector<Tensor> split(const Tensor& x, int64_t num, int64_t axis, Loc loc) {
  static const OpDef& op = op_def("Split");
  Tensor in[] = {x};
  return dispatch(op, in, {{"num_split", num}, {"axis", axis}}, loc);
}

std::vector<Tensor> split(const Tensor& x, std::vector<int64_t> sizes, int64_t axis, Loc loc) {
  static const OpDef& op = op_def("SplitV");
  Tensor in[] = {x};
  return dispatch(op, in, {{"size_splits", std::move(sizes)}, {"axis", axis}}, loc);
}

}  // namespace tfcc
