// Definitions of the manip family: Roll (gradient: the opposite roll) and the boolean_mask
// composite (TensorFlow's: reshape the masked dims into one, gather the true positions).
#include "tfcc/ops/manip/manip.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/manip/manip_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

using internal::str_cat;

std::vector<OutputSpec> roll_shape(const InferenceContext& c) {
  const auto& shift = c.attr<std::vector<int64_t>>("shift");
  const auto& axis = c.attr<std::vector<int64_t>>("axis");
  if (shift.size() != axis.size()) {
    c.fail(str_cat("shift and axis must have the same size, got ", shift.size(), " and ",
                   axis.size()));
  }
  const PartialShape in = c.shape(0);
  if (in.rank_known()) {
    if (in.rank() < 1) c.fail("input must be 1-D or higher, got a scalar");
    for (int64_t a : axis) {
      if (a < -in.rank() || a >= in.rank()) {
        c.fail(str_cat("axis ", a, " is out of range for a tensor of rank ", in.rank()));
      }
    }
  }
  return {{c.dtype(0), in}};
}

std::vector<Tensor> roll_grad(const GradContext& g) {
  const auto& shift = g.attrs.get<std::vector<int64_t>>("shift");
  const auto& axis = g.attrs.get<std::vector<int64_t>>("axis");
  std::vector<int64_t> back, axes;
  for (size_t i = 0; i < shift.size(); ++i) {
    if (shift[i] == INT64_MIN) {  // -2^63 does not fit: roll back by 2^62 twice
      back.insert(back.end(), {int64_t{1} << 62, int64_t{1} << 62});
      axes.insert(axes.end(), {axis[i], axis[i]});
    } else {
      back.push_back(-shift[i]);
      axes.push_back(axis[i]);
    }
  }
  return {roll(g.grads[0], back, axes)};
}

}  // namespace

void register_manip_ops(OpRegistry& r) {
  r.add("Roll")
      .input("input", "T")
      .output("output", "T")
      .type_attr("T", kAllTypes)
      .attr("shift", AttrType::kInts)
      .attr("axis", AttrType::kInts)
      .shape_fn(roll_shape)
      .cpu_kernels(manip_cpu_kernel)
      .gradient(roll_grad);
}

Tensor roll(const Tensor& input, std::vector<int64_t> shift, std::vector<int64_t> axis, Loc loc) {
  static const OpDef& op = op_def("Roll");
  Tensor in[] = {input};
  return dispatch1(op, in, {{"shift", std::move(shift)}, {"axis", std::move(axis)}}, loc);
}

Tensor boolean_mask(const Tensor& tensor, const Tensor& mask, int64_t axis, Loc loc) {
  const PartialShape ts = tensor.partial_shape(), ms = mask.partial_shape();
  if (mask.dtype() != bool_) {
    throw InvalidArgumentError(
        str_cat("boolean_mask: mask must be a bool tensor, got ", dtype_name(mask.dtype())));
  }
  if (!ts.rank_known() || !ms.rank_known()) {
    throw InvalidArgumentError("boolean_mask needs tensor and mask of known rank, got " +
                               ts.to_string() + " and " + ms.to_string());
  }
  const int64_t k = ms.rank(), rank = ts.rank();
  if (k == 0) throw InvalidArgumentError("boolean_mask: mask cannot be scalar");
  if (axis < 0) axis += rank;
  if (axis < 0 || axis + k > rank) {
    throw InvalidArgumentError(str_cat("boolean_mask: a mask of rank ", k, " at axis ", axis,
                                       " does not fit a tensor of shape ", ts.to_string()));
  }
  std::vector<int64_t> dims;  // tensor's shape with the masked dims folded into one
  int64_t masked = 1;         // their product, -1 when one is unknown
  for (int64_t i = 0; i < k; ++i) {
    const int64_t d = ms.dim(static_cast<int>(i));
    masked = d < 0 || masked < 0 ? -1 : checked_mul(masked, d);
  }
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t d = ts.dim(static_cast<int>(i));
    if (i >= axis && i < axis + k) {
      const int64_t md = ms.dim(static_cast<int>(i - axis));
      if (d >= 0 && md >= 0 && d != md) {
        throw InvalidArgumentError("boolean_mask: mask shape " + ms.to_string() +
                                   " does not match tensor shape " + ts.to_string() + " at axis " +
                                   std::to_string(axis));
      }
      if (i > axis) continue;
      dims.push_back(masked);
      continue;
    }
    if (d < 0) {
      throw UnimplementedError(
          "boolean_mask inside a traced function needs the unmasked "
          "dimensions known, got " +
          ts.to_string());
    }
    dims.push_back(d);
  }
  Tensor flat = reshape(tensor, dims, loc);
  // A mask known now (eager, or a constant in a traced function) gives the positions now, so
  // their count is static and gather's gradient works in traced code too.
  Tensor positions;
  if (!mask.is_symbolic()) {
    std::vector<int64_t> kept;
    const bool* m = mask.data<bool>();
    for (int64_t i = 0; i < mask.num_elements(); ++i) {
      if (m[i]) kept.push_back(i);
    }
    positions = Tensor::from_vector<int64_t>(kept, Shape{static_cast<int64_t>(kept.size())});
  } else {
    positions = reshape(where(reshape(mask, {-1}, loc), loc), {-1}, loc);
  }
  return gather(flat, positions, axis, 0, loc);
}

}  // namespace tfcc
