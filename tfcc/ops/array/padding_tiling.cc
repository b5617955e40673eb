// Definitions of the array family's padding and tiling ops: Pad, MirrorPad, MirrorPadGrad, Tile,
// BroadcastTo, ReverseV2 (shape functions, gradients, registrations) and their API (pad, tile,
// broadcast_to, reverse).
#include <set>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

std::vector<int64_t> checked_paddings(const OpDef& op, const Attrs& attrs, int rank) {
  const auto& p = attrs.get<std::vector<int64_t>>("paddings");
  if (p.size() != 2 * static_cast<size_t>(rank)) {
    op_error(op, internal::str_cat("paddings must have shape [", rank, ", 2] (one [before, after]",
                                   " pair per dimension of the input), got ", p.size(), " values"));
  }
  for (size_t i = 0; i < p.size(); i += 2) {
    if (p[i] < 0 || p[i + 1] < 0) {
      op_error(op, internal::str_cat("Paddings must be non-negative: ", p[i], " ", p[i + 1]));
    }
  }
  return p;
}

namespace {

std::vector<OutputSpec> pad_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{c.dtype(0), PartialShape()}};
  std::vector<int64_t> p = checked_paddings(c.op(), c.attrs(), in.rank());
  bool mirror = c.op().name() != "Pad";
  bool grad = c.op().name() == "MirrorPadGrad";
  if (mirror) {
    const std::string& mode = c.attr<std::string>("mode");
    if (mode != "REFLECT" && mode != "SYMMETRIC") {
      c.fail("mode must be either REFLECT or SYMMETRIC, got '" + mode + "'");
    }
  }
  bool reflect = mirror && c.attr<std::string>("mode") == "REFLECT";
  std::vector<int64_t> dims = in.dims();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) continue;
    int64_t total;
    if (__builtin_add_overflow(p[2 * i], p[2 * i + 1], &total)) c.fail("paddings overflow");
    if (grad) {
      if (dims[i] < total) {
        c.fail(internal::str_cat("The gradient dimension ", dims[i], " is smaller than paddings ",
                                 p[2 * i], ", ", p[2 * i + 1]));
      }
      dims[i] -= total;
    } else if (__builtin_add_overflow(dims[i], total, &dims[i])) {
      c.fail("padded dimension overflows");
    }
    int64_t n = grad ? dims[i] : in.dim(static_cast<int>(i));
    if (reflect && (p[2 * i] >= n || p[2 * i + 1] >= n)) {
      c.fail(internal::str_cat("paddings must be less than the dimension size: ", p[2 * i], ", ",
                               p[2 * i + 1], " not less than ", n));
    }
    if (mirror && !reflect && (p[2 * i] > n || p[2 * i + 1] > n)) {
      c.fail(internal::str_cat("paddings must be no greater than the dimension size: ", p[2 * i],
                               ", ", p[2 * i + 1], " greater than ", n));
    }
  }
  if (PartialShape(dims).is_fully_defined()) (void)Shape(dims);  // element-count overflow
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<Tensor> pad_grad(const GradContext& g) {
  const auto& p = g.attrs.get<std::vector<int64_t>>("paddings");
  std::vector<int64_t> begin, size = static_dims(g.inputs[0], "The gradient of pad");
  for (size_t i = 0; i < p.size(); i += 2) begin.push_back(p[i]);
  return {slice(g.grads[0], begin, size)};
}

Tensor mirror_pad_grad_op(const Tensor& dy, const std::vector<int64_t>& paddings,
                          const std::string& mode) {
  return call1("MirrorPadGrad", {dy}, {{"paddings", paddings}, {"mode", mode}}, Loc::current());
}

std::vector<OutputSpec> tile_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  const auto& m = c.attr<std::vector<int64_t>>("multiples");
  if (!in.rank_known()) return {{c.dtype(0), PartialShape(std::vector<int64_t>(m.size(), -1))}};
  if (static_cast<int64_t>(m.size()) != in.rank()) {
    c.fail(internal::str_cat("Expected multiples argument to be a vector of length ", in.rank(),
                             " but got length ", m.size()));
  }
  std::vector<int64_t> dims = in.dims();
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] < 0) c.fail(internal::str_cat("Expected multiples[", i, "] >= 0, but got ", m[i]));
    if (dims[i] >= 0) dims[i] = checked_mul(dims[i], m[i]);
  }
  if (PartialShape(dims).is_fully_defined()) (void)Shape(dims);
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<Tensor> tile_grad(const GradContext& g) {
  std::vector<int64_t> xd = static_dims(g.inputs[0], "The gradient of tile");
  const auto& m = g.attrs.get<std::vector<int64_t>>("multiples");
  std::vector<int64_t> split_dims, axes;
  for (size_t i = 0; i < xd.size(); ++i) {
    split_dims.push_back(m[i]);
    split_dims.push_back(xd[i]);
    axes.push_back(static_cast<int64_t>(2 * i));
  }
  if (xd.empty()) return {g.grads[0]};
  return {reduce_sum(reshape(g.grads[0], split_dims), axes)};
}

std::vector<OutputSpec> broadcast_to_shape(const InferenceContext& c) {
  const auto& target = c.attr<std::vector<int64_t>>("shape");
  for (int64_t d : target) {
    if (d < 0)
      c.fail(internal::str_cat("Dimension ", d, " must be >= 0 in shape ", dims_str(target)));
  }
  (void)Shape(target);
  PartialShape in = c.shape(0);
  if (in.rank_known()) {
    bool ok = in.rank() <= static_cast<int>(target.size());
    for (int i = 0; ok && i < in.rank(); ++i) {
      int64_t d = in.dim(i), t = target[target.size() - static_cast<size_t>(in.rank() - i)];
      ok = d == -1 || d == 1 || d == t;
    }
    if (!ok) {
      c.fail("Unable to broadcast tensor of shape " + dims_str(in.dims()) + " to tensor of shape " +
             dims_str(target));
    }
  }
  return {{c.dtype(0), PartialShape(target)}};
}

std::vector<OutputSpec> reverse_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{c.dtype(0), in}};
  int64_t r = in.rank();
  std::set<int64_t> seen;
  const auto& axes = c.attr<std::vector<int64_t>>("axis");
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < -r || axes[i] >= r) {
      c.fail(internal::str_cat("'axis'[", i, "] = ", axes[i], " is out of valid range [", -r, ", ",
                               r, ")"));
    }
    if (!seen.insert(axes[i] < 0 ? axes[i] + r : axes[i]).second) {
      c.fail(internal::str_cat("axis ", axes[i], " specified more than once."));
    }
  }
  return {{c.dtype(0), in}};
}

}  // namespace

void register_array_padding_ops(OpRegistry& r) {
  unary_array(r, "Pad", /*strings=*/false)
      .attr("paddings", AttrType::kInts)
      .attr("constant_values", AttrType::kFloat, 0.0)
      .shape_fn(pad_shape)
      .gradient(pad_grad);
  unary_array(r, "MirrorPad")
      .attr("paddings", AttrType::kInts)
      .attr("mode", AttrType::kString)
      .shape_fn(pad_shape)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {mirror_pad_grad_op(g.grads[0], g.attrs.get<std::vector<int64_t>>("paddings"),
                                   g.attrs.get<std::string>("mode"))};
      });
  // The adjoint of MirrorPad (TensorFlow's MirrorPadGrad); its own gradient is MirrorPad.
  r.add("MirrorPadGrad")
      .input("input", "T")
      .output("output", "T")
      .type_attr("T", kNumericTypes)
      .attr("paddings", AttrType::kInts)
      .attr("mode", AttrType::kString)
      .shape_fn(pad_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        const auto& p = g.attrs.get<std::vector<int64_t>>("paddings");
        std::vector<std::vector<int64_t>> pairs;
        for (size_t i = 0; i < p.size(); i += 2) pairs.push_back({p[i], p[i + 1]});
        return {pad(g.grads[0], pairs, g.attrs.get<std::string>("mode"))};
      });
  unary_array(r, "Tile")
      .attr("multiples", AttrType::kInts)
      .shape_fn(tile_shape)
      .gradient(tile_grad);
  unary_array(r, "BroadcastTo")
      .attr("shape", AttrType::kInts)
      .shape_fn(broadcast_to_shape)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {sum_to_shape_of(g.grads[0], g.inputs[0])};
      });
  unary_array(r, "ReverseV2")
      .attr("axis", AttrType::kInts)
      .shape_fn(reverse_shape)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {reverse(g.grads[0], g.attrs.get<std::vector<int64_t>>("axis"))};
      });
}

Tensor pad(const Tensor& x, std::vector<std::vector<int64_t>> paddings, const std::string& mode,
           double constant_values, Loc loc) {
  std::vector<int64_t> flat;
  for (const auto& p : paddings) {
    TFCC_CHECK_ARG(p.size() == 2, "Each padding must be a [before, after] pair, got ", p.size(),
                   " values");
    flat.insert(flat.end(), p.begin(), p.end());
  }
  if (mode == "CONSTANT") {
    return call1("Pad", {x}, {{"paddings", flat}, {"constant_values", constant_values}}, loc);
  }
  if (mode == "REFLECT" || mode == "SYMMETRIC") {
    return call1("MirrorPad", {x}, {{"paddings", flat}, {"mode", mode}}, loc);
  }
  throw InvalidArgumentError("pad mode must be one of CONSTANT, REFLECT, SYMMETRIC, got '" + mode +
                             "'");
}

Tensor tile(const Tensor& x, std::vector<int64_t> multiples, Loc loc) {
  return call1("Tile", {x}, {{"multiples", std::move(multiples)}}, loc);
}

Tensor broadcast_to(const Tensor& x, std::vector<int64_t> shape, Loc loc) {
  return call1("BroadcastTo", {x}, {{"shape", std::move(shape)}}, loc);
}

Tensor reverse(const Tensor& x, std::vector<int64_t> axis, Loc loc) {
  return call1("ReverseV2", {x}, {{"axis", std::move(axis)}}, loc);
}

}  // namespace tfcc
