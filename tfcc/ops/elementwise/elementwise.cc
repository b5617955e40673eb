// Definitions of the elementwise family: Cast, SelectV2 (where with 3 arguments), Where
// (coordinates), AddN, and the clip_by_value composite.
#include "tfcc/ops/elementwise/elementwise.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise_internal.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::vector<OutputSpec> cast_shape(const InferenceContext& c) {
  return {{c.attr<DType>("DstT"), c.shape(0)}};
}

std::vector<OutputSpec> select_shape(const InferenceContext& c) {
  PartialShape s = kernels::broadcast_shapes(c, c.shape(1), c.shape(2));
  return {{c.dtype(1), kernels::broadcast_shapes(c, c.shape(0), s)}};
}

std::vector<OutputSpec> where_shape(const InferenceContext& c) {
  PartialShape s = c.shape(0);
  return {{int64, PartialShape({-1, s.rank_known() ? s.rank() : -1})}};
}

std::vector<OutputSpec> add_n_shape(const InferenceContext& c) {
  PartialShape s = c.shape(0);
  for (int i = 1; i < c.num_inputs(); ++i) {
    if (!s.is_compatible_with(c.shape(i))) {
      c.fail(internal::str_cat("Inputs to AddN must all have the same shape: ", s.to_string(),
                               " vs. ", c.shape(i).to_string(), " at input ", i));
    }
    s = s.merge_with(c.shape(i));
  }
  return {{c.dtype(0), s}};
}

std::vector<Tensor> cast_grad(const GradContext& g) {
  DType src = g.attrs.get<DType>("SrcT");
  if (!is_floating(src) || !is_floating(g.grads[0].dtype())) return {Tensor()};
  return {cast(g.grads[0], src)};
}

std::vector<Tensor> select_grad(const GradContext& g) {
  const Tensor &c = g.inputs[0], &dz = g.grads[0];
  Tensor zero = zeros_like(dz);
  return {Tensor(), sum_to_shape_of(where(c, dz, zero), g.inputs[1]),
          sum_to_shape_of(where(c, zero, dz), g.inputs[2])};
}

std::vector<Tensor> add_n_grad(const GradContext& g) {
  return std::vector<Tensor>(g.inputs.size(), g.grads[0]);
}

}  // namespace

void register_elementwise_ops(OpRegistry& r) {
  r.add("Cast")
      .input("x", "SrcT")
      .output("y", "DstT")
      .type_attr("SrcT", kAllTypes)
      .type_attr("DstT", kAllTypes)
      .shape_fn(cast_shape)
      .cpu_kernels(elementwise_cpu_kernel)
      .gradient(cast_grad);
  r.add("SelectV2")
      .input("condition", bool_)
      .input("t", "T")
      .input("e", "T")
      .output("output", "T")
      .type_attr("T", {float32, float64, int32, int64, uint8, bool_, string})
      .shape_fn(select_shape)
      .cpu_kernels(elementwise_cpu_kernel)
      .gradient(select_grad);
  r.add("Where")
      .input("condition", "T")
      .output("index", int64)
      .type_attr("T", {float32, float64, int32, int64, uint8, bool_})
      .shape_fn(where_shape)
      .cpu_kernels(elementwise_cpu_kernel)
      .not_differentiable();
  r.add("AddN")
      .variadic_input("inputs", "T")
      .output("sum", "T")
      .type_attr("T", kNumericTypes)
      .shape_fn(add_n_shape)
      .cpu_kernels(elementwise_cpu_kernel)
      .gradient(add_n_grad);
  // The kernel copies input 0 into the sum first, so only input 0 may hold it.
  declare_in_place(*r.find("AddN"), 0, {0});
}

Tensor cast(const Tensor& x, DType dtype, Loc loc) {
  static const OpDef& op = op_def("Cast");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"DstT", dtype}}, loc);
}

Tensor where(const Tensor& cond, const Operand& x, const Operand& y, Loc loc) {
  static const OpDef& op = op_def("SelectV2");
  auto [a, b] = resolve_operands(x, y);
  Tensor in[] = {cond, std::move(a), std::move(b)};
  return dispatch1(op, in, {}, loc);
}

Tensor where(const Tensor& cond, Loc loc) {
  static const OpDef& op = op_def("Where");
  Tensor in[] = {cond};
  return dispatch1(op, in, {}, loc);
}

Tensor add_n(const std::vector<Tensor>& inputs, Loc loc) {
  static const OpDef& op = op_def("AddN");
  return dispatch1(op, inputs, {}, loc);
}

Tensor clip_by_value(const Tensor& x, const Operand& lo, const Operand& hi, Loc loc) {
  return minimum(maximum(x, lo, loc), hi, loc);
}

}  // namespace tfcc
