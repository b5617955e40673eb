// Definitions of the sorting family: TopKV2 (with TensorFlow's gradient: the output gradient
// scattered back to the selected positions), LowerBound/UpperBound, Unique; sort, argsort and
// searchsorted are composites, written the way TensorFlow writes them.
#include "tfcc/ops/sorting/sorting.h"

#include <algorithm>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/segment/segment.h"
#include "tfcc/ops/sorting/sorting_internal.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

using internal::str_cat;

std::vector<OutputSpec> top_k_shape(const InferenceContext& c) {
  const PartialShape in = c.shape(0);
  const int64_t k = c.attr<int64_t>("k");
  const DType index = c.attr<DType>("index_type");
  if (k < 0) c.fail(str_cat("Need k >= 0, got ", k));
  if (!in.rank_known()) {
    return {{c.dtype(0), PartialShape::unknown_rank()}, {index, PartialShape::unknown_rank()}};
  }
  if (in.rank() < 1) c.fail("input must be at least 1-D (top_k works on the last dimension)");
  std::vector<int64_t> dims = in.dims();
  if (dims.back() >= 0 && dims.back() < k) {
    c.fail(str_cat("input must have at least k columns. Had ", dims.back(), ", needed ", k));
  }
  dims.back() = k;
  return {{c.dtype(0), PartialShape(dims)}, {index, PartialShape(dims)}};
}

// dx: the gradient of each selected value added at its position in its row.
std::vector<Tensor> top_k_grad(const GradContext& g) {
  const Tensor &x = g.inputs[0], &indices = g.outputs[1], &dy = g.grads[0];
  const std::vector<int64_t> dims = static_dims(x, "The gradient of top_k");
  const int64_t n = dims.back(), total = Shape(dims).num_elements();
  if (total == 0 || !dy.defined()) return {zeros_like(x)};
  const int64_t outer = total / n;
  Tensor rows =
      reshape(range(0, static_cast<double>(total), static_cast<double>(n), int64), {outer, 1});
  Tensor flat = reshape(add(reshape(cast(indices, int64), {outer, -1}), rows), {-1});
  return {reshape(unsorted_segment_sum(reshape(dy, {-1}), flat, total), dims)};
}

std::vector<OutputSpec> bound_shape(const InferenceContext& c) {
  const PartialShape s = c.shape(0), v = c.shape(1);
  const DType out = c.attr<DType>("out_type");
  if (s.rank_known() && s.rank() != 2) {
    c.fail("sorted input argument must be a matrix, got shape " + s.to_string());
  }
  if (v.rank_known() && v.rank() != 2) c.fail("values must be a matrix, got " + v.to_string());
  if (!v.rank_known()) return {{out, PartialShape({-1, -1})}};
  if (s.rank_known() && s.dim(0) >= 0 && v.dim(0) >= 0 && s.dim(0) != v.dim(0)) {
    c.fail("Leading dim_size of both tensors must match: " + s.to_string() + " vs. " +
           v.to_string());
  }
  return {{out, v}};
}

std::vector<OutputSpec> unique_shape(const InferenceContext& c) {
  const PartialShape x = c.shape(0);
  if (x.rank_known() && x.rank() != 1) c.fail("unique expects a 1D vector, got " + x.to_string());
  return {{c.dtype(0), PartialShape({-1})}, {c.attr<DType>("out_idx"), PartialShape({-1})}};
}

OpDef& bound_op(OpRegistry& r, const std::string& name) {
  return r.add(name)
      .input("sorted_inputs", "T")
      .input("values", "T")
      .output("output", "out_type")
      .type_attr("T", kNumericTypes)
      .type_attr("out_type", kIndexTypes)
      .kernel_type_attr("T")
      .shape_fn(bound_shape)
      .cpu_kernels(sorting_cpu_kernel)
      .not_differentiable();
}

// The permutation swapping `axis` with the last axis (its own inverse), or empty.
std::vector<int64_t> swap_last(int64_t axis, int64_t rank) {
  if (axis == rank - 1) return {};
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) perm[static_cast<size_t>(i)] = i;
  std::swap(perm[static_cast<size_t>(axis)], perm.back());
  return perm;
}

// TensorFlow's sort: a top_k over the whole axis, of -x (or its integer equivalent) for an
// ascending order. Returns the sorted values or the indices.
Tensor sort_impl(const char* what, const Tensor& values, int64_t axis, const std::string& dir,
                 bool want_indices, Loc loc) {
  if (dir != "ASCENDING" && dir != "DESCENDING") {
    throw InvalidArgumentError(
        str_cat(what, ": direction should be one of ASCENDING, DESCENDING (got: ", dir, ")"));
  }
  const PartialShape ps = values.partial_shape();
  if (!ps.rank_known() || ps.rank() < 1) {
    throw InvalidArgumentError(
        str_cat(what, " needs a tensor of known rank >= 1, got shape ", ps.to_string()));
  }
  const int64_t rank = ps.rank();
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError(
        str_cat(what, ": axis ", axis, " is out of range for a tensor of rank ", rank));
  }
  if (axis < 0) axis += rank;
  const int64_t k = ps.dim(static_cast<int>(axis));
  if (k < 0) {
    throw UnimplementedError(str_cat(what, " along a dimension of unknown size (shape ",
                                     ps.to_string(), ") inside a traced function"));
  }
  const std::vector<int64_t> perm = swap_last(axis, rank);
  Tensor x = perm.empty() ? values : transpose(values, perm, loc);
  const DType t = values.dtype();
  const bool ascending = dir == "ASCENDING";
  if (ascending) {
    // Integers: -x - 1 maps the lowest value to the highest (wrapping arithmetic, no overflow);
    // uint8: 255 - x.
    x = t == uint8      ? subtract(255, x, loc)
        : is_integer(t) ? subtract(negative(x, loc), 1, loc)
                        : negative(x, loc);
  }
  auto [v, i] = top_k(x, k, true, int32, loc);
  Tensor out = want_indices ? i : v;
  if (ascending && !want_indices) {
    out = t == uint8      ? subtract(255, out, loc)
          : is_integer(t) ? subtract(negative(out, loc), 1, loc)
                          : negative(out, loc);
  }
  return perm.empty() ? out : transpose(out, perm, loc);
}

}  // namespace

void register_sorting_ops(OpRegistry& r) {
  r.add("TopKV2")
      .input("input", "T")
      .output("values", "T")
      .output("indices", "index_type")
      .type_attr("T", kNumericTypes)
      .type_attr("index_type", kIndexTypes)
      .attr("k", AttrType::kInt)
      .attr("sorted", AttrType::kBool, true)
      .kernel_type_attr("T")
      .shape_fn(top_k_shape)
      .cpu_kernels(sorting_cpu_kernel)
      .gradient(top_k_grad);
  bound_op(r, "LowerBound");
  bound_op(r, "UpperBound");
  r.add("Unique")
      .input("x", "T")
      .output("y", "T")
      .output("idx", "out_idx")
      .type_attr("T", {float32, float64, int32, int64, uint8, bool_})
      .type_attr("out_idx", kIndexTypes)
      .kernel_type_attr("T")
      .shape_fn(unique_shape)
      .cpu_kernels(sorting_cpu_kernel)
      .not_differentiable();
}

std::pair<Tensor, Tensor> top_k(const Tensor& input, int64_t k, bool sorted, DType index_type,
                                Loc loc) {
  static const OpDef& op = op_def("TopKV2");
  Tensor in[] = {input};
  auto out = dispatch(op, in, {{"k", k}, {"sorted", sorted}, {"index_type", index_type}}, loc);
  return {out[0], out[1]};
}

Tensor sort(const Tensor& values, int64_t axis, const std::string& direction, Loc loc) {
  return sort_impl("sort", values, axis, direction, false, loc);
}

Tensor argsort(const Tensor& values, int64_t axis, const std::string& direction, bool stable,
               Loc loc) {
  (void)stable;  // top_k keeps ties in index order, so every argsort is stable
  return sort_impl("argsort", values, axis, direction, true, loc);
}

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, const std::string& side,
                    DType out_type, Loc loc) {
  if (side != "left" && side != "right") {
    throw InvalidArgumentError("searchsorted: side must be \"left\" or \"right\", got \"" + side +
                               "\"");
  }
  const PartialShape s = sorted_sequence.partial_shape(), v = values.partial_shape();
  if (!s.rank_known() || !v.rank_known() || s.rank() < 1 || s.rank() != v.rank()) {
    throw InvalidArgumentError("searchsorted: sorted_sequence " + s.to_string() + " and values " +
                               v.to_string() +
                               " must have the same rank >= 1 and the same leading dimensions");
  }
  const std::vector<int64_t> out_dims = static_dims(values, "searchsorted");
  const std::vector<int64_t> seq_dims = static_dims(sorted_sequence, "searchsorted");
  if (!std::equal(out_dims.begin(), out_dims.end() - 1, seq_dims.begin())) {
    throw InvalidArgumentError("searchsorted: Leading dim_size of both tensors must match: " +
                               s.to_string() + " vs. " + v.to_string());
  }
  int64_t rows = 1;  // the leading dimensions, flattened
  for (size_t i = 0; i + 1 < out_dims.size(); ++i) rows = checked_mul(rows, out_dims[i]);
  Tensor in[] = {reshape(sorted_sequence, {rows, seq_dims.back()}, loc),
                 reshape(values, {rows, out_dims.back()}, loc)};
  const OpDef& op = op_def(side == "left" ? "LowerBound" : "UpperBound");
  return reshape(dispatch1(op, in, {{"out_type", out_type}}, loc), out_dims, loc);
}

std::pair<Tensor, Tensor> unique(const Tensor& x, DType out_idx, Loc loc) {
  static const OpDef& op = op_def("Unique");
  Tensor in[] = {x};
  auto out = dispatch(op, in, {{"out_idx", out_idx}}, loc);
  return {out[0], out[1]};
}

}  // namespace tfcc
