// Definitions of the ops that reduce a broadcast gradient when shapes are only known at run time:
// BroadcastGradientArgs (TensorFlow's op: the axes each side of a broadcasting binary op must be
// summed over) and _SumToShape (a Sum over run-time axes with keepdims, reshaped to a run-time
// shape: TensorFlow writes it as Reshape(Sum(grad, axes, keep_dims=True), Shape(x)), but tfcc's
// Sum and Reshape take their axes and shape as attributes). Kernels: broadcast_gradient_cpu.cc.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

std::vector<int64_t> index_values(const Tensor& t) {
  if (t.dtype() == int32) {
    std::vector<int32_t> v = t.to_vector<int32_t>();
    return std::vector<int64_t>(v.begin(), v.end());
  }
  return t.to_vector<int64_t>();
}

BroadcastReduction broadcast_gradient_axes(const OpDef& op, const std::vector<int64_t>& s0,
                                           const std::vector<int64_t>& s1) {
  for (const std::vector<int64_t>* s : {&s0, &s1}) {
    for (int64_t d : *s) {
      if (d < 0) {
        op_error(op,
                 internal::str_cat("Shapes must have non-negative dimensions, got ", dims_str(*s)));
      }
    }
  }
  const size_t rank = std::max(s0.size(), s1.size());
  BroadcastReduction r;
  for (size_t i = 0; i < rank; ++i) {
    // Dimension i of the broadcast result; a missing leading dimension counts as 1.
    const size_t lead0 = rank - s0.size(), lead1 = rank - s1.size();
    const int64_t d0 = i < lead0 ? 1 : s0[i - lead0];
    const int64_t d1 = i < lead1 ? 1 : s1[i - lead1];
    if (d0 != d1 && d0 != 1 && d1 != 1) {
      op_error(op, internal::str_cat("Incompatible shapes: ", dims_str(s0), " vs. ", dims_str(s1)));
    }
    // A side of size 1 was broadcast along i (or both were 1: summing a size-1 axis is harmless,
    // and TensorFlow lists it for both).
    if (d0 == 1) r.axes0.push_back(static_cast<int64_t>(i));
    if (d1 == 1) r.axes1.push_back(static_cast<int64_t>(i));
  }
  return r;
}

namespace {

void check_vector(const InferenceContext& c, int i, const char* what) {
  const PartialShape s = c.shape(i);
  if (s.rank_known() && s.rank() != 1) {
    c.fail(internal::str_cat(what, " must be a vector, got shape ", s.to_string()));
  }
}

std::vector<OutputSpec> bcast_args_shape(const InferenceContext& c) {
  check_vector(c, 0, "s0");
  check_vector(c, 1, "s1");
  const DType t = c.dtype(0);
  if (c.value(0) && c.value(1)) {
    BroadcastReduction r =
        broadcast_gradient_axes(c.op(), index_values(*c.value(0)), index_values(*c.value(1)));
    return {{t, PartialShape({static_cast<int64_t>(r.axes0.size())})},
            {t, PartialShape({static_cast<int64_t>(r.axes1.size())})}};
  }
  return {{t, PartialShape({-1})}, {t, PartialShape({-1})}};
}

std::vector<OutputSpec> sum_to_shape_shape(const InferenceContext& c) {
  const PartialShape axes = c.shape(1);
  if (axes.rank_known() && axes.rank() > 1) {
    c.fail("reduction_indices must be a scalar or a vector, got shape " + axes.to_string());
  }
  check_vector(c, 2, "shape");
  const DType t = c.dtype(0);
  if (const Tensor* v = c.value(2)) {
    std::vector<int64_t> dims = index_values(*v);
    for (int64_t d : dims) {
      if (d < 0) c.fail("shape must have non-negative dimensions, got " + dims_str(dims));
    }
    return {{t, PartialShape(dims)}};
  }
  const PartialShape s = c.shape(2);
  if (!s.rank_known() || s.dim(0) < 0) return {{t, PartialShape()}};
  const auto& hint = c.attr<std::vector<int64_t>>("shape_hint");
  if (static_cast<int64_t>(hint.size()) == s.dim(0)) return {{t, PartialShape(hint)}};
  return {{t, PartialShape(std::vector<int64_t>(static_cast<size_t>(s.dim(0)), -1))}};
}

// d(out)/d(input): the incoming gradient (shaped like the target, which broadcasts against the
// input by construction) broadcast back to the input's shape. Multiplying by ones keeps every
// value bit for bit (including -0 and NaN) and works when shapes are only known at run time.
std::vector<Tensor> sum_to_shape_grad(const GradContext& g) {
  return {multiply(ones_like(g.inputs[0]), g.grads[0]), Tensor(), Tensor()};
}

}  // namespace

void register_broadcast_gradient_ops(OpRegistry& r) {
  r.add("BroadcastGradientArgs")
      .input("s0", "T")
      .input("s1", "T")
      .output("r0", "T")
      .output("r1", "T")
      .type_attr("T", kIndexTypes)
      .shape_fn(bcast_args_shape)
      .cpu_kernels(broadcast_gradient_cpu_kernel)
      .not_differentiable();
  r.add("_SumToShape")
      .input("input", "T")
      .input("reduction_indices", "Tidx")
      .input("shape", "Tidx")
      .output("output", "T")
      .type_attr("T", kNumericTypes)
      .type_attr("Tidx", kIndexTypes)
      .kernel_type_attr("T")
      .attr("shape_hint", AttrType::kInts, std::vector<int64_t>{})
      .shape_fn(sum_to_shape_shape)
      .cpu_kernels(broadcast_gradient_cpu_kernel)
      .gradient(sum_to_shape_grad);
}

// ---- API ------------------------------------------------------------------------------------

std::pair<Tensor, Tensor> broadcast_gradient_args(const Tensor& s0, const Tensor& s1, Loc loc) {
  static const OpDef& op = op_def("BroadcastGradientArgs");
  Tensor in[] = {s0, s1};
  std::vector<Tensor> out = dispatch(op, in, {}, loc);
  return {std::move(out[0]), std::move(out[1])};
}

Tensor sum_to_shape(const Tensor& input, const Tensor& reduction_indices, const Tensor& shape,
                    std::vector<int64_t> shape_hint, Loc loc) {
  static const OpDef& op = op_def("_SumToShape");
  Tensor in[] = {input, reduction_indices, shape};
  return dispatch1(op, in, {{"shape_hint", std::move(shape_hint)}}, loc);
}

}  // namespace tfcc
