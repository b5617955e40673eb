// CPU kernels of BroadcastGradientArgs and _SumToShape (definitions: broadcast_gradient.cc).
// _SumToShape runs the Sum op's own kernel over the run-time axes, so a gradient reduced at run
// time is bit for bit the one reduce_sum gives when the shapes are known at trace time.
#include <algorithm>

#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

template <typename T>
Tensor index_tensor(const std::vector<int64_t>& v) {
  std::vector<T> t(v.begin(), v.end());
  return Tensor::from_vector(t);
}

void bcast_args_kernel(KernelContext& ctx) {
  BroadcastReduction r =
      broadcast_gradient_axes(ctx.op(), index_values(ctx.input(0)), index_values(ctx.input(1)));
  const bool i32 = ctx.input(0).dtype() == int32;
  ctx.set_output(0, i32 ? index_tensor<int32_t>(r.axes0) : index_tensor<int64_t>(r.axes0));
  ctx.set_output(1, i32 ? index_tensor<int32_t>(r.axes1) : index_tensor<int64_t>(r.axes1));
}

void sum_to_shape_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const int rank = in.rank();
  std::vector<int64_t> axes = index_values(ctx.input(1));
  const std::vector<int64_t> target = index_values(ctx.input(2));
  // The axes, normalised and checked as Sum checks them; the shape they leave with keepdims.
  std::vector<int64_t> kept = in.shape().dims();
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) {
      ctx.fail(internal::str_cat("Invalid reduction dimension ", a, " for input with ", rank,
                                 " dimensions"));
    }
    if (a < 0) a += rank;
    if (seen[static_cast<size_t>(a)]) ctx.fail(internal::str_cat("Duplicate reduction axis ", a));
    seen[static_cast<size_t>(a)] = true;
    kept[static_cast<size_t>(a)] = 1;
  }
  // The target must be the kept shape without some of its leading 1s: what the gradient rule
  // (broadcast back to the input) assumes.
  bool ok = target.size() <= kept.size();
  const size_t lead = ok ? kept.size() - target.size() : 0;
  for (size_t i = 0; ok && i < kept.size(); ++i) {
    ok = i < lead ? kept[i] == 1 : kept[i] == target[i - lead];
  }
  if (!ok) {
    ctx.fail(internal::str_cat(
        "Cannot reshape the sum of a tensor of shape ", dims_str(in.shape().dims()), " over axes ",
        dims_str(axes), " (shape ", dims_str(kept), " with keepdims) to ", dims_str(target)));
  }
  const PartialShape& hint = ctx.spec(0).shape;
  if (hint.rank_known() && !hint.is_compatible_with(PartialShape(target))) {
    ctx.fail(internal::str_cat("The run-time shape ", dims_str(target),
                               " does not match the traced shape ", hint.to_string()));
  }
  Tensor summed = in;
  if (!axes.empty()) {
    // Sum's own kernel, called as reduce_sum(input, axes, keepdims=true) would call it.
    const OpDef& sum = op_def("Sum");
    Attrs attrs{{"axis", axes}, {"keepdims", true}, {"reduce_all", false}, {"T", in.dtype()}};
    OpCall call{sum, std::span<const Tensor>(&in, 1), attrs, std::source_location::current()};
    KernelContext kc(call, {{in.dtype(), PartialShape(kept)}});
    sum.find_kernel(DeviceType::kCPU, in.dtype())(kc);
    summed = kc.outputs()[0];
  }
  ctx.set_output(0, Tensor::with_buffer(in.dtype(), Shape(target), summed.buffer()));
}

}  // namespace

KernelFn broadcast_gradient_cpu_kernel(const std::string& op, DType) {
  if (op == "BroadcastGradientArgs") return bcast_args_kernel;
  if (op == "_SumToShape") return sum_to_shape_kernel;
  return nullptr;
}

}  // namespace tfcc
