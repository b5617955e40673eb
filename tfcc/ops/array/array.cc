// Definitions of the array family's shape ops: reshape-like ops, transpose, shape queries,
// identity. Concat/split, pad/tile/broadcast/reverse, slicing and gather/scatter live in
// concat_split.cc, padding_tiling.cc, slicing.cc and gather_scatter.cc; shared helpers in
// array_internal.cc; kernels in array_cpu.cc.
#include "tfcc/ops/array/array.h"

#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

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
  register_concat_split_ops(r);
  register_array_padding_ops(r);
  r.add("Shape")
      .input("input", "T")
      .output("output", "out_type")
      .type_attr("T", kAllTypesAndString)
      .attr("out_type", AttrType::kType, int32)
      .shape_fn(shape_shape)
      .cpu_kernels(array_cpu_kernel)
      .not_differentiable();
  r.add("Size")
      .input("input", "T")
      .output("output", "out_type")
      .type_attr("T", kAllTypesAndString)
      .attr("out_type", AttrType::kType, int32)
      .shape_fn([](const InferenceContext& c) -> std::vector<OutputSpec> {
        return {{out_type(c), PartialShape(std::vector<int64_t>{})}};
      })
      .cpu_kernels(array_cpu_kernel)
      .not_differentiable();
  r.add("Rank")
      .input("input", "T")
      .output("output", int32)
      .type_attr("T", kAllTypesAndString)
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
  register_broadcast_gradient_ops(r);
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
