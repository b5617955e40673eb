// Definitions of the reduction family: Sum, Prod, Max, Min, All, Any (any set of axes), ArgMax,
// ArgMin, Cumsum, Cumprod; their shape functions and typed API. Gradient rules live in
// reduction_grad.cc, composites (mean, logsumexp, variance, std) in reduction_composite.cc.
//
// Reductions take the attributes "axis" (kInts), "keepdims" (kBool) and "reduce_all" (kBool):
// reduce_all=true reduces every axis (and needs an empty "axis"); otherwise exactly the listed
// axes are reduced, so an empty list reduces nothing (as TF's axis=[]). The flag keeps "all axes"
// expressible when the rank is unknown at trace time.
#include "tfcc/ops/reduction/reduction.h"

#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/reduction/reduction_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

std::vector<bool> reduced_dims(const OpDef& op, const Attrs& attrs, int rank) {
  const auto& axes = attrs.get<std::vector<int64_t>>("axis");
  if (attrs.get<bool>("reduce_all")) {
    if (!axes.empty()) {
      op_error(op, internal::str_cat("reduce_all=true needs an empty axis list, got ",
                                     attr_value_string(axes)));
    }
    return std::vector<bool>(static_cast<size_t>(rank), true);
  }
  std::vector<bool> mask(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      op_error(op, internal::str_cat("Invalid reduction dimension ", a, " for input with ", rank,
                                     " dimension(s); axis must be in [", -rank, ", ", rank, ")"));
    }
    int64_t n = a < 0 ? a + rank : a;
    if (mask[static_cast<size_t>(n)]) {
      op_error(op,
               internal::str_cat("Axis list ", attr_value_string(axes),
                                 " contains duplicate dimension ", n, " for input of rank ", rank));
    }
    mask[static_cast<size_t>(n)] = true;
  }
  return mask;
}

int64_t scan_axis(const OpDef& op, int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    op_error(op, internal::str_cat("Expected axis in the range [", -rank, ", ", rank,
                                   ") for an input of rank ", rank, ", but got ", axis));
  }
  return axis < 0 ? axis + rank : axis;
}

namespace {

std::vector<OutputSpec> reduce_shape(const InferenceContext& c) {
  DType out = c.op().outputs()[0].fixed.value_or(c.dtype(0));
  PartialShape in = c.shape(0);
  bool keepdims = c.attr<bool>("keepdims");
  if (!in.rank_known()) {
    if (c.attr<bool>("reduce_all") && !keepdims)
      return {{out, PartialShape(std::vector<int64_t>{})}};
    return {{out, PartialShape::unknown_rank()}};
  }
  std::vector<bool> mask = reduced_dims(c.op(), c.attrs(), in.rank());
  std::vector<int64_t> dims;
  for (int i = 0; i < in.rank(); ++i) {
    if (!mask[static_cast<size_t>(i)]) {
      dims.push_back(in.dim(i));
    } else if (keepdims) {
      dims.push_back(1);
    }
  }
  return {{out, PartialShape(std::move(dims))}};
}

std::vector<OutputSpec> arg_shape(const InferenceContext& c) {
  DType out = c.attr<DType>("output_type");
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{out, PartialShape::unknown_rank()}};
  int64_t axis = scan_axis(c.op(), c.attr<int64_t>("axis"), in.rank());
  int64_t n = in.dim(static_cast<int>(axis));
  if (n == 0) {
    c.fail(internal::str_cat("Reduction axis ", axis, " is empty in shape ", in.to_string()));
  }
  if (out == int32 && n > INT32_MAX) {
    c.fail(internal::str_cat("Axis ", axis, " has ", n,
                             " elements, too many for output_type int32; use int64"));
  }
  std::vector<int64_t> dims = in.dims();
  dims.erase(dims.begin() + axis);
  return {{out, PartialShape(std::move(dims))}};
}

std::vector<OutputSpec> scan_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (in.rank_known()) scan_axis(c.op(), c.attr<int64_t>("axis"), in.rank());
  return {{c.dtype(0), in}};
}

OpDef& reduce_op(OpRegistry& r, const std::string& name, const std::vector<DType>& types) {
  OpDef& op = r.add(name);
  if (types.size() == 1 && types[0] == bool_) {
    op.input("input", bool_).output("output", bool_);
  } else {
    op.input("input", "T").output("output", "T").type_attr("T", types);
  }
  return op.attr("axis", AttrType::kInts, std::vector<int64_t>{})
      .attr("keepdims", AttrType::kBool, false)
      .attr("reduce_all", AttrType::kBool, false)
      .shape_fn(reduce_shape)
      .cpu_kernels(reduction_cpu_kernel);
}

OpDef& arg_op(OpRegistry& r, const std::string& name) {
  return r.add(name)
      .input("input", "T")
      .output("output", "output_type")
      .type_attr("T", kNumericTypes)
      .type_attr("output_type", kIndexTypes)
      .kernel_type_attr("T")
      .attr("axis", AttrType::kInt, int64_t{0})
      .shape_fn(arg_shape)
      .cpu_kernels(reduction_cpu_kernel)
      .not_differentiable();
}

OpDef& scan_op(OpRegistry& r, const std::string& name) {
  return r.add(name)
      .input("x", "T")
      .output("out", "T")
      .type_attr("T", kNumericTypes)
      .attr("axis", AttrType::kInt, int64_t{0})
      .attr("exclusive", AttrType::kBool, false)
      .attr("reverse", AttrType::kBool, false)
      .shape_fn(scan_shape)
      .cpu_kernels(reduction_cpu_kernel);
}

Tensor call_reduce(const OpDef& op, const Tensor& x, const Axes& axis, bool keepdims, Loc loc) {
  Tensor in[] = {x};
  std::vector<int64_t> list = axis.all() ? std::vector<int64_t>{} : *axis.list;
  return dispatch1(
      op, in, {{"axis", std::move(list)}, {"keepdims", keepdims}, {"reduce_all", axis.all()}}, loc);
}

}  // namespace

KernelFn reduction_cpu_kernel(const std::string& op, DType dtype) {
  if (KernelFn k = reduce_cpu_kernel(op, dtype)) return k;
  return scan_cpu_kernel(op, dtype);
}

void register_reduction_ops(OpRegistry& r) {
  reduce_op(r, "Sum", kNumericTypes).gradient(sum_grad);
  reduce_op(r, "Prod", kNumericTypes).gradient(prod_grad);
  reduce_op(r, "Max", kNumericTypes).gradient(max_min_grad);
  reduce_op(r, "Min", kNumericTypes).gradient(max_min_grad);
  reduce_op(r, "All", {bool_}).not_differentiable();
  reduce_op(r, "Any", {bool_}).not_differentiable();
  arg_op(r, "ArgMax");
  arg_op(r, "ArgMin");
  scan_op(r, "Cumsum").gradient(cumsum_grad);
  scan_op(r, "Cumprod").gradient(cumprod_grad);
}

#define TFCC_REDUCE_API(fn, op_name)                                     \
  Tensor fn(const Tensor& x, const Axes& axis, bool keepdims, Loc loc) { \
    static const OpDef& op = op_def(op_name);                            \
    return call_reduce(op, x, axis, keepdims, loc);                      \
  }
TFCC_REDUCE_API(reduce_sum, "Sum")
TFCC_REDUCE_API(reduce_prod, "Prod")
TFCC_REDUCE_API(reduce_max, "Max")
TFCC_REDUCE_API(reduce_min, "Min")
TFCC_REDUCE_API(reduce_all, "All")
TFCC_REDUCE_API(reduce_any, "Any")
#undef TFCC_REDUCE_API

Tensor argmax(const Tensor& x, int64_t axis, DType output_type, Loc loc) {
  static const OpDef& op = op_def("ArgMax");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"axis", axis}, {"output_type", output_type}}, loc);
}

Tensor argmin(const Tensor& x, int64_t axis, DType output_type, Loc loc) {
  static const OpDef& op = op_def("ArgMin");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"axis", axis}, {"output_type", output_type}}, loc);
}

Tensor cumsum(const Tensor& x, int64_t axis, bool exclusive, bool reverse, Loc loc) {
  static const OpDef& op = op_def("Cumsum");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}}, loc);
}

Tensor cumprod(const Tensor& x, int64_t axis, bool exclusive, bool reverse, Loc loc) {
  static const OpDef& op = op_def("Cumprod");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}}, loc);
}

}  // namespace tfcc
