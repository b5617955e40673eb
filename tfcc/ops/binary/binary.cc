// Definitions of the binary family: signatures, shape functions, gradient rules, typed API.
#include "tfcc/ops/binary/binary.h"

#include <optional>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary_formulas.h"
#include "tfcc/ops/binary/binary_internal.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

std::vector<OutputSpec> broadcast_shape(const InferenceContext& c) {
  return {{c.dtype(0), kernels::broadcast_shapes(c, c.shape(0), c.shape(1))}};
}

std::vector<OutputSpec> compare_shape(const InferenceContext& c) {
  return {{bool_, kernels::broadcast_shapes(c, c.shape(0), c.shape(1))}};
}

Tensor call_binary(const OpDef& op, const Operand& x, const Operand& y, Loc loc) {
  auto [a, b] = resolve_operands(x, y);
  Tensor in[] = {std::move(a), std::move(b)};
  return dispatch1(op, in, {}, loc);
}

OpDef& binary_op(OpRegistry& r, const std::string& name, const std::vector<DType>& types) {
  OpDef& op = r.add(name)
                  .input("x", "T")
                  .input("y", "T")
                  .output("z", "T")
                  .type_attr("T", types)
                  .shape_fn(broadcast_shape)
                  .cpu_kernels(binary_cpu_kernel);
  // binary_loop reads an input of the output's shape only at the index it writes.
  declare_in_place(op, 0, {0, 1});
  return op;
}

OpDef& comparison_op(OpRegistry& r, const std::string& name, const std::vector<DType>& types) {
  return r.add(name)
      .input("x", "T")
      .input("y", "T")
      .output("z", bool_)
      .type_attr("T", types)
      .shape_fn(compare_shape)
      .cpu_kernels(binary_cpu_kernel)
      .not_differentiable();
}

template <typename... Ops>
void register_formulas(OpRegistry& r, formula::List<Ops...>) {
  auto one = [&r]<typename Op>() {
    OpDef& op = binary_op(r, Op::kName, formula::dtypes(Op::kTypes));
    if constexpr (requires { &Op::grad; }) {
      op.gradient(&Op::grad);
    } else {
      op.not_differentiable();
    }
  };
  (one.template operator()<Ops>(), ...);
}

}  // namespace

void register_binary_ops(OpRegistry& r) {
  register_formulas(r, formula::BinaryFormulas{});
  const std::vector<DType> all = {float32, float64, int32, int64, uint8, bool_, string};
  comparison_op(r, "Equal", all);
  comparison_op(r, "NotEqual", all);
  comparison_op(r, "Less", kNumericTypes);
  comparison_op(r, "LessEqual", kNumericTypes);
  comparison_op(r, "Greater", kNumericTypes);
  comparison_op(r, "GreaterEqual", kNumericTypes);
  for (const char* name : {"LogicalAnd", "LogicalOr"}) {
    r.add(name)
        .input("x", bool_)
        .input("y", bool_)
        .output("z", bool_)
        .shape_fn(compare_shape)
        .cpu_kernels(binary_cpu_kernel)
        .not_differentiable();
  }
}

#define TFCC_BINARY_API(fn, op_name)                       \
  Tensor fn(const Operand& x, const Operand& y, Loc loc) { \
    static const OpDef& op = op_def(op_name);              \
    return call_binary(op, x, y, loc);                     \
  }
TFCC_BINARY_API(add, "AddV2")
TFCC_BINARY_API(subtract, "Sub")
TFCC_BINARY_API(multiply, "Mul")
TFCC_BINARY_API(floordiv, "FloorDiv")
TFCC_BINARY_API(floormod, "FloorMod")
TFCC_BINARY_API(pow, "Pow")
TFCC_BINARY_API(maximum, "Maximum")
TFCC_BINARY_API(minimum, "Minimum")
TFCC_BINARY_API(squared_difference, "SquaredDifference")
TFCC_BINARY_API(truncatediv, "TruncateDiv")
TFCC_BINARY_API(truncatemod, "TruncateMod")
TFCC_BINARY_API(atan2, "Atan2")
TFCC_BINARY_API(xlogy, "Xlogy")
TFCC_BINARY_API(polygamma, "Polygamma")
TFCC_BINARY_API(bitwise_and, "BitwiseAnd")
TFCC_BINARY_API(bitwise_or, "BitwiseOr")
TFCC_BINARY_API(bitwise_xor, "BitwiseXor")
TFCC_BINARY_API(left_shift, "LeftShift")
TFCC_BINARY_API(right_shift, "RightShift")
TFCC_BINARY_API(equal, "Equal")
TFCC_BINARY_API(not_equal, "NotEqual")
TFCC_BINARY_API(less, "Less")
TFCC_BINARY_API(less_equal, "LessEqual")
TFCC_BINARY_API(greater, "Greater")
TFCC_BINARY_API(greater_equal, "GreaterEqual")
TFCC_BINARY_API(logical_and, "LogicalAnd")
TFCC_BINARY_API(logical_or, "LogicalOr")
#undef TFCC_BINARY_API

Tensor divide(const Operand& x, const Operand& y, Loc loc) {
  static const OpDef& op = op_def("RealDiv");
  auto [a, b] = resolve_operands(x, y);
  if (a.dtype() == b.dtype() && is_integer(a.dtype())) {
    // TensorFlow's truediv: integers are divided as float64.
    a = cast(a, float64, loc);
    b = cast(b, float64, loc);
  }
  Tensor in[] = {std::move(a), std::move(b)};
  return dispatch1(op, in, {}, loc);
}

Tensor logical_xor(const Operand& x, const Operand& y, Loc loc) {
  return logical_and(logical_or(x, y, loc), logical_not(logical_and(x, y, loc), loc), loc);
}

namespace {

// The axes of `grad` (shaped like a broadcast result) to sum so that it gets `like`'s shape,
// decided from static shapes; nullopt when some axis can only be decided at run time (`like`'s
// dimension unknown and possibly 1 while the result's is not). `other`, when given, is the other
// input of the broadcasting op: where it is absent or 1, the result's dimension is `like`'s.
std::optional<std::vector<int64_t>> static_reduction_axes(const PartialShape& gs,
                                                          const PartialShape& ls,
                                                          const Tensor* other) {
  if (!gs.rank_known() || !ls.rank_known() || ls.rank() > gs.rank()) return std::nullopt;
  const PartialShape os = other ? other->partial_shape() : PartialShape();
  const int lead = gs.rank() - ls.rank();
  std::vector<int64_t> axes;
  for (int i = 0; i < gs.rank(); ++i) {
    if (i < lead) {
      axes.push_back(i);
      continue;
    }
    const int64_t ld = ls.dim(i - lead), gd = gs.dim(i);
    if (ld == 1) {
      if (gd != 1) axes.push_back(i);  // broadcast (or maybe broadcast: summing size 1 is a no-op)
      continue;
    }
    if (ld >= 0 || gd == 1) continue;  // not broadcast
    if (!os.rank_known()) return std::nullopt;
    const int oi = i - (gs.rank() - os.rank());
    if (oi >= 0 && os.dim(oi) != 1) return std::nullopt;
  }
  return axes;
}

Tensor reduce_broadcast_gradient(const Tensor& grad, const Tensor& like, const Tensor* other,
                                 Loc loc) {
  PartialShape gs = grad.partial_shape(), ls = like.partial_shape();
  if (gs.is_fully_defined() && ls.is_fully_defined() && gs == ls) return grad;
  std::optional<std::vector<int64_t>> axes = static_reduction_axes(gs, ls, other);
  if (!axes) {
    // Only the run-time shapes tell (TensorFlow's BroadcastGradientArgs + Sum + Reshape).
    Tensor like_shape = shape(like, int64, loc);
    Tensor r = broadcast_gradient_args(like_shape, shape(grad, int64, loc), loc).first;
    return sum_to_shape(grad, r, like_shape, ls.rank_known() ? ls.dims() : std::vector<int64_t>{},
                        loc);
  }
  Tensor summed = axes->empty() ? grad : reduce_sum(grad, *axes, false, loc);
  if (ls.is_fully_defined()) return reshape(summed, ls.dims(), loc);
  // Unknown dimensions are never summed: restore the summed size-1 dimensions of `like`.
  const int lead = gs.rank() - ls.rank();
  for (int64_t a : *axes) {
    if (a >= lead) summed = expand_dims(summed, a - lead, loc);
  }
  return summed;
}

}  // namespace

Tensor sum_to_shape_of(const Tensor& grad, const Tensor& like, Loc loc) {
  return reduce_broadcast_gradient(grad, like, nullptr, loc);
}

Tensor sum_to_shape_of(const Tensor& grad, const Tensor& like, const Tensor& other, Loc loc) {
  return reduce_broadcast_gradient(grad, like, &other, loc);
}

}  // namespace tfcc
