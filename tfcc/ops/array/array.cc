// Definitions of the array family's shape ops: reshape-like ops, transpose, concat/split,
// pad, tile, broadcast, reverse, shape queries, identity. Slicing and gather/scatter live in
// slicing.cc and gather_scatter.cc; kernels in array_cpu.cc.
#include "tfcc/ops/array/array.h"

#include <set>
#include <sstream>

#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc {

std::string dims_str(const std::vector<int64_t>& dims) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? "," : "") << dims[i];
  os << "]";
  return os.str();
}

std::vector<int64_t> static_dims(const Tensor& t, const char* what) {
  PartialShape p = t.partial_shape();
  if (!p.is_fully_defined()) {
    throw UnimplementedError(
        internal::str_cat(what, " needs a shape known at trace time, got ", p.to_string()));
  }
  return p.dims();
}

int64_t checked_axis(const InferenceContext& c, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank) {
    c.fail(internal::str_cat(what, " ", axis, " is out of range for a tensor of rank ", rank,
                             "; expected a value in [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

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

using T_ = const Tensor&;

Tensor call1(const char* name, std::initializer_list<Tensor> ins, Attrs attrs, Loc loc) {
  const OpDef& op = op_def(name);
  std::vector<Tensor> in(ins);
  return dispatch1(op, in, std::move(attrs), loc);
}

// ---- Reshape, ExpandDims, Squeeze -------------------------------------------------------

std::vector<OutputSpec> reshape_shape(const InferenceContext& c) {
  std::vector<int64_t> dims = c.attr<std::vector<int64_t>>("shape");
  int64_t unknown = -1, known = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      if (unknown >= 0) {
        c.fail(internal::str_cat("Only one input size may be -1, not both ", unknown, " and ", i));
      }
      unknown = static_cast<int64_t>(i);
    } else if (dims[i] < 0) {
      c.fail(internal::str_cat("Size ", i, " must be non-negative, not ", dims[i]));
    } else {
      known = checked_mul(known, dims[i]);
    }
  }
  PartialShape in = c.shape(0);
  if (!in.is_fully_defined()) return {{c.dtype(0), PartialShape(dims)}};
  int64_t n = in.to_shape().num_elements();
  if (unknown >= 0) {
    if (known == 0) {
      c.fail(
          internal::str_cat("Reshape cannot infer the missing input size for an empty tensor "
                            "unless all specified input sizes are non-zero"));
    }
    if (n % known != 0) {
      c.fail(internal::str_cat("Input to reshape is a tensor with ", n,
                               " values, but the requested shape requires a multiple of ", known));
    }
    dims[static_cast<size_t>(unknown)] = n / known;
  } else if (n != known) {
    c.fail(internal::str_cat("Input to reshape is a tensor with ", n,
                             " values, but the requested shape has ", known));
  }
  return {{c.dtype(0), PartialShape(dims)}};
}

// The shape to reshape a gradient back to `x` (at most one unknown dimension).
std::vector<int64_t> reshape_back_dims(const Tensor& x) {
  PartialShape p = x.partial_shape();
  if (!p.rank_known() || std::count(p.dims().begin(), p.dims().end(), -1) > 1) {
    throw UnimplementedError("The gradient of a reshape needs the input shape at trace time, got " +
                             p.to_string());
  }
  return p.dims();
}

std::vector<Tensor> reshape_grad(const GradContext& g) {
  return {reshape(g.grads[0], reshape_back_dims(g.inputs[0]))};
}

std::vector<OutputSpec> expand_dims_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{c.dtype(0), PartialShape()}};
  int64_t r = in.rank(), axis = c.attr<int64_t>("axis");
  if (axis < -r - 1 || axis > r) {
    c.fail(internal::str_cat("Tried to expand dim index ", axis, " for tensor with ", r,
                             " dimensions."));
  }
  if (axis < 0) axis += r + 1;
  std::vector<int64_t> dims = in.dims();
  dims.insert(dims.begin() + axis, 1);
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<OutputSpec> squeeze_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{c.dtype(0), PartialShape()}};
  int64_t r = in.rank();
  const auto& axes = c.attr<std::vector<int64_t>>("squeeze_dims");
  std::vector<bool> drop(static_cast<size_t>(r), false);
  for (int64_t a : axes) {
    if (a < -r || a >= r) {
      c.fail(internal::str_cat("Tried to squeeze dim index ", a, " for tensor with ", r,
                               " dimensions."));
    }
    size_t k = static_cast<size_t>(a < 0 ? a + r : a);
    if (in.dim(static_cast<int>(k)) != 1 && in.dim(static_cast<int>(k)) != -1) {
      c.fail(internal::str_cat("Can not squeeze dim[", k, "], expected a dimension of 1, got ",
                               in.dim(static_cast<int>(k))));
    }
    drop[k] = true;
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < r; ++i) {
    int64_t d = in.dim(static_cast<int>(i));
    if (axes.empty() && d == -1) return {{c.dtype(0), PartialShape()}};
    if (axes.empty() ? d == 1 : drop[static_cast<size_t>(i)]) continue;
    dims.push_back(d);
  }
  return {{c.dtype(0), PartialShape(dims)}};
}

// ---- Transpose ------------------------------------------------------------------------------

std::vector<OutputSpec> transpose_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  const auto& perm = c.attr<std::vector<int64_t>>("perm");
  if (!in.rank_known()) return {{c.dtype(0), PartialShape(std::vector<int64_t>(perm.size(), -1))}};
  int64_t r = in.rank();
  if (static_cast<int64_t>(perm.size()) != r) {
    c.fail(internal::str_cat("transpose expects a vector of size ", r, ". But input(1) is a ",
                             "vector of size ", perm.size()));
  }
  std::vector<bool> seen(static_cast<size_t>(r), false);
  std::vector<int64_t> dims;
  for (int64_t p : perm) {
    if (p < 0 || p >= r || seen[static_cast<size_t>(p)]) {
      c.fail(internal::str_cat("perm ", dims_str(perm), " is not a permutation of [0, ", r,
                               "): ", p, p < 0 || p >= r ? " is out of range" : " repeats"));
    }
    seen[static_cast<size_t>(p)] = true;
    dims.push_back(in.dim(static_cast<int>(p)));
  }
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<Tensor> transpose_grad(const GradContext& g) {
  const auto& perm = g.attrs.get<std::vector<int64_t>>("perm");
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = int64_t(i);
  return {transpose(g.grads[0], inv)};
}

// ---- ConcatV2, Unpack, Split, SplitV --------------------------------------------------------

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

std::vector<OutputSpec> unpack_shape(const InferenceContext& c) {
  int64_t num = c.attr<int64_t>("num");
  if (num < 0) c.fail(internal::str_cat("num must be non-negative, got ", num));
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

// ---- Pad, MirrorPad, Tile, BroadcastTo, ReverseV2 -------------------------------------------

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

// ---- Shape, Size, Rank, Identity ------------------------------------------------------------

DType out_type(const InferenceContext& c) {
  DType t = c.attr<DType>("out_type");
  if (t != int32 && t != int64) {
    c.fail(std::string("out_type must be int32 or int64, got ") + std::string(dtype_name(t)));
  }
  return t;
}

std::vector<OutputSpec> shape_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  return {{out_type(c), PartialShape({in.rank_known() ? int64_t{in.rank()} : int64_t{-1}})}};
}

std::vector<OutputSpec> same_shape(const InferenceContext& c) { return {{c.dtype(0), c.shape(0)}}; }

OpDef& unary_array(OpRegistry& r, const std::string& name) {
  return r.add(name)
      .input("input", "T")
      .output("output", "T")
      .type_attr("T", kAllTypes)
      .cpu_kernels(array_cpu_kernel);
}

}  // namespace

void register_array_ops(OpRegistry& r) {
  unary_array(r, "Reshape")
      .attr("shape", AttrType::kInts)
      .shape_fn(reshape_shape)
      .gradient(reshape_grad);
  unary_array(r, "ExpandDims")
      .attr("axis", AttrType::kInt)
      .shape_fn(expand_dims_shape)
      .gradient(reshape_grad);
  unary_array(r, "Squeeze")
      .attr("squeeze_dims", AttrType::kInts, std::vector<int64_t>{})
      .shape_fn(squeeze_shape)
      .gradient(reshape_grad);
  unary_array(r, "Transpose")
      .attr("perm", AttrType::kInts)
      .shape_fn(transpose_shape)
      .gradient(transpose_grad);
  r.add("ConcatV2")
      .variadic_input("values", "T")
      .output("output", "T")
      .type_attr("T", kAllTypes)
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
  unary_array(r, "Pad")
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
  r.add("Shape")
      .input("input", "T")
      .output("output", "out_type")
      .type_attr("T", kAllTypes)
      .attr("out_type", AttrType::kType, int32)
      .shape_fn(shape_shape)
      .cpu_kernels(array_cpu_kernel)
      .not_differentiable();
  r.add("Size")
      .input("input", "T")
      .output("output", "out_type")
      .type_attr("T", kAllTypes)
      .attr("out_type", AttrType::kType, int32)
      .shape_fn([](const InferenceContext& c) -> std::vector<OutputSpec> {
        return {{out_type(c), PartialShape(std::vector<int64_t>{})}};
      })
      .cpu_kernels(array_cpu_kernel)
      .not_differentiable();
  r.add("Rank")
      .input("input", "T")
      .output("output", int32)
      .type_attr("T", kAllTypes)
      .shape_fn([](const InferenceContext&) -> std::vector<OutputSpec> {
        return {{int32, PartialShape(std::vector<int64_t>{})}};
      })
      .cpu_kernels(array_cpu_kernel)
      .not_differentiable();
  unary_array(r, "Identity").shape_fn(same_shape).gradient([](const GradContext& g) {
    return std::vector<Tensor>{g.grads[0]};
  });
  unary_array(r, "StopGradient").shape_fn(same_shape).not_differentiable();
  register_slicing_ops(r);
  register_gather_scatter_ops(r);
}

// ---- API ------------------------------------------------------------------------------------

Tensor reshape(const Tensor& x, std::vector<int64_t> shape, Loc loc) {
  return call1("Reshape", {x}, {{"shape", std::move(shape)}}, loc);
}

Tensor transpose(const Tensor& x, std::vector<int64_t> perm, Loc loc) {
  if (perm.empty() && x.defined()) {
    PartialShape p = x.partial_shape();
    if (!p.rank_known()) throw UnimplementedError("transpose of a tensor of unknown rank");
    for (int i = p.rank() - 1; i >= 0; --i) perm.push_back(i);
  }
  return call1("Transpose", {x}, {{"perm", std::move(perm)}}, loc);
}

Tensor expand_dims(const Tensor& x, int64_t axis, Loc loc) {
  return call1("ExpandDims", {x}, {{"axis", axis}}, loc);
}

Tensor squeeze(const Tensor& x, const Axes& axis, Loc loc) {
  return call1("Squeeze", {x}, {{"squeeze_dims", axis.list.value_or(std::vector<int64_t>{})}}, loc);
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

Tensor shape(const Tensor& x, DType out_type, Loc loc) {
  return call1("Shape", {x}, {{"out_type", out_type}}, loc);
}

Tensor size(const Tensor& x, DType out_type, Loc loc) {
  return call1("Size", {x}, {{"out_type", out_type}}, loc);
}

Tensor rank(const Tensor& x, Loc loc) { return call1("Rank", {x}, {}, loc); }

Tensor identity(const Tensor& x, Loc loc) { return call1("Identity", {x}, {}, loc); }

Tensor stop_gradient(const Tensor& x, Loc loc) { return call1("StopGradient", {x}, {}, loc); }

}  // namespace tfcc
