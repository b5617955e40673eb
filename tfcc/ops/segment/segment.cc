// Definitions of the segment family: SegmentSum/Mean/Max (sorted ids, data-dependent row count),
// UnsortedSegmentSum/Max (num_segments given), DenseBincount; TensorFlow's gradient rules (a
// gather of the output gradient, weighted by the selected elements for the max); the typed API.
#include "tfcc/ops/segment/segment.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/segment/segment_internal.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

using internal::str_cat;

std::vector<OutputSpec> sorted_segment_shape(const InferenceContext& c) {
  const PartialShape data = c.shape(0), ids = c.shape(1);
  if (ids.rank_known() && ids.rank() != 1) {
    c.fail("segment_ids should be a vector, got shape " + ids.to_string());
  }
  if (!data.rank_known()) return {{c.dtype(0), PartialShape::unknown_rank()}};
  if (data.rank() < 1) c.fail("data must be at least rank 1, got a scalar");
  if (ids.rank_known() && ids.dim(0) >= 0 && data.dim(0) >= 0 && ids.dim(0) != data.dim(0)) {
    c.fail(str_cat("segment_ids should be the same size as dimension 0 of input: segment_ids ",
                   ids.to_string(), " vs. data ", data.to_string()));
  }
  std::vector<int64_t> dims = data.dims();
  dims[0] = -1;  // max(segment_ids) + 1, known when the kernel runs
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<OutputSpec> unsorted_segment_shape(const InferenceContext& c) {
  const PartialShape data = c.shape(0), ids = c.shape(1);
  const int64_t n = c.attr<int64_t>("num_segments");
  if (n < 0) c.fail(str_cat("num_segments must be non-negative, got ", n));
  if (!data.rank_known() || !ids.rank_known()) {
    return {{c.dtype(0), PartialShape::unknown_rank()}};
  }
  bool prefix = ids.rank() <= data.rank();
  for (int i = 0; prefix && i < ids.rank(); ++i) {
    if (ids.dim(i) >= 0 && data.dim(i) >= 0 && ids.dim(i) != data.dim(i)) prefix = false;
  }
  if (!prefix) {
    c.fail("data.shape = " + data.to_string() +
           " does not start with segment_ids.shape = " + ids.to_string());
  }
  std::vector<int64_t> dims = {n};
  for (int i = ids.rank(); i < data.rank(); ++i) dims.push_back(data.dim(i));
  if (PartialShape(dims).is_fully_defined()) (void)Shape(dims);  // overflow check
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<OutputSpec> bincount_shape(const InferenceContext& c) {
  const PartialShape in = c.shape(0), w = c.shape(1);
  const int64_t size = c.attr<int64_t>("size");
  if (size < -1) c.fail(str_cat("size must be non-negative, got ", size));
  if (!in.rank_known()) return {{c.dtype(1), PartialShape::unknown_rank()}};
  if (in.rank() != 1 && in.rank() != 2) {
    c.fail("input must be a vector or a matrix (one row of bins per row), got shape " +
           in.to_string());
  }
  if (w.is_fully_defined() && w.to_shape().num_elements() != 0 && in.is_fully_defined() &&
      w.dims() != in.dims()) {
    c.fail("weights must be empty or have the shape of input: " + w.to_string() + " vs. " +
           in.to_string());
  }
  if (in.rank() == 1) return {{c.dtype(1), PartialShape({size})}};
  return {{c.dtype(1), PartialShape({in.dim(0), size})}};
}

// ids (shape s) as a mask broadcastable against a tensor of rank `rank` whose leading dims are s.
Tensor leading_mask(const Tensor& mask, int64_t rank) {
  std::vector<int64_t> dims = static_dims(mask, "The gradient of an unsorted segment op");
  dims.resize(static_cast<size_t>(rank), 1);
  return reshape(mask, dims);
}

// TensorFlow's _GatherDropNegatives: t[ids] with rows of negative ids set to 0.
Tensor gather_drop_negatives(const Tensor& t, const Tensor& ids, const Tensor& positive) {
  Tensor g = gather(t, maximum(ids, 0));
  return where(leading_mask(positive, g.rank()), g, zeros_like(g));
}

std::vector<Tensor> segment_sum_grad(const GradContext& g) {
  return {gather(g.grads[0], g.inputs[1]), Tensor()};
}

std::vector<Tensor> segment_mean_grad(const GradContext& g) {
  const Tensor &data = g.inputs[0], &ids = g.inputs[1], &dy = g.grads[0];
  Tensor counts = segment_sum(ones_like(ids, data.dtype()), ids);
  std::vector<int64_t> dims(static_cast<size_t>(data.rank()), 1);
  dims[0] = -1;
  Tensor scaled = divide(dy, reshape(maximum(counts, 1), dims));
  return {gather(scaled, ids), Tensor()};
}

std::vector<Tensor> segment_max_grad(const GradContext& g) {
  const Tensor &data = g.inputs[0], &ids = g.inputs[1], &y = g.outputs[0], &dy = g.grads[0];
  Tensor selected = equal(data, gather(y, ids));
  Tensor count = segment_sum(cast(selected, data.dtype()), ids);
  Tensor share = gather(divide(dy, maximum(count, 1)), ids);
  return {where(selected, share, zeros_like(share)), Tensor()};
}

std::vector<Tensor> unsorted_segment_sum_grad(const GradContext& g) {
  const Tensor &ids = g.inputs[1], &dy = g.grads[0];
  if (g.attrs.get<int64_t>("num_segments") == 0) return {zeros_like(g.inputs[0]), Tensor()};
  return {gather_drop_negatives(dy, ids, greater_equal(ids, 0)), Tensor()};
}

std::vector<Tensor> unsorted_segment_max_grad(const GradContext& g) {
  const Tensor &data = g.inputs[0], &ids = g.inputs[1], &y = g.outputs[0], &dy = g.grads[0];
  const int64_t n = g.attrs.get<int64_t>("num_segments");
  if (n == 0) return {zeros_like(data), Tensor()};
  const Tensor positive = greater_equal(ids, 0);
  const Tensor selected = logical_and(equal(data, gather_drop_negatives(y, ids, positive)),
                                      leading_mask(positive, data.rank()));
  Tensor count = unsorted_segment_sum(cast(selected, data.dtype()), ids, n);
  Tensor share = gather_drop_negatives(divide(dy, maximum(count, 1)), ids, positive);
  return {where(selected, share, zeros_like(share)), Tensor()};
}

OpDef& segment_op(OpRegistry& r, const std::string& name, bool sorted) {
  OpDef& op = r.add(name)
                  .input("data", "T")
                  .input("segment_ids", "Tindices")
                  .output("output", "T")
                  .type_attr("T", kNumericTypes)
                  .type_attr("Tindices", kIndexTypes);
  if (!sorted) op.attr("num_segments", AttrType::kInt);
  op.shape_fn(sorted ? sorted_segment_shape : unsorted_segment_shape)
      .cpu_kernels(segment_cpu_kernel);
  return op;
}

Tensor call_segment(const char* name, const Tensor& data, const Tensor& ids, Attrs attrs, Loc loc) {
  Tensor in[] = {data, ids};
  return dispatch1(op_def(name), in, std::move(attrs), loc);
}

}  // namespace

void register_segment_ops(OpRegistry& r) {
  segment_op(r, "SegmentSum", true).gradient(segment_sum_grad);
  segment_op(r, "SegmentMean", true).gradient(segment_mean_grad);
  segment_op(r, "SegmentMax", true).gradient(segment_max_grad);
  segment_op(r, "UnsortedSegmentSum", false).gradient(unsorted_segment_sum_grad);
  segment_op(r, "UnsortedSegmentMax", false).gradient(unsorted_segment_max_grad);
  r.add("DenseBincount")
      .input("input", "Tidx")
      .input("weights", "T")
      .output("output", "T")
      .type_attr("Tidx", kIndexTypes)
      .type_attr("T", {float32, float64, int32, int64})
      .kernel_type_attr("T")
      .attr("size", AttrType::kInt)  // -1: max(input) + 1 clipped to [minlength, maxlength]
      .attr("minlength", AttrType::kInt, int64_t{-1})
      .attr("maxlength", AttrType::kInt, int64_t{-1})
      .attr("binary_output", AttrType::kBool, false)
      .shape_fn(bincount_shape)
      .cpu_kernels(segment_cpu_kernel)
      .not_differentiable();
}

Tensor segment_sum(const Tensor& data, const Tensor& segment_ids, Loc loc) {
  return call_segment("SegmentSum", data, segment_ids, {}, loc);
}
Tensor segment_mean(const Tensor& data, const Tensor& segment_ids, Loc loc) {
  return call_segment("SegmentMean", data, segment_ids, {}, loc);
}
Tensor segment_max(const Tensor& data, const Tensor& segment_ids, Loc loc) {
  return call_segment("SegmentMax", data, segment_ids, {}, loc);
}
Tensor unsorted_segment_sum(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                            Loc loc) {
  return call_segment("UnsortedSegmentSum", data, segment_ids, {{"num_segments", num_segments}},
                      loc);
}
Tensor unsorted_segment_max(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                            Loc loc) {
  return call_segment("UnsortedSegmentMax", data, segment_ids, {{"num_segments", num_segments}},
                      loc);
}

Tensor unsorted_segment_mean(const Tensor& data, const Tensor& segment_ids, int64_t num_segments,
                             Loc loc) {
  Tensor sum = unsorted_segment_sum(data, segment_ids, num_segments, loc);
  Tensor ones = ones_like(segment_ids, data.dtype(), loc);
  Tensor count = unsorted_segment_sum(ones, segment_ids, num_segments, loc);
  std::vector<int64_t> dims(static_cast<size_t>(sum.rank()), 1);
  dims[0] = num_segments;
  Tensor denom = reshape(maximum(count, 1, loc), dims, loc);
  if (is_floating(data.dtype())) return divide(sum, denom, loc);
  return floordiv(sum, denom, loc);
}

Tensor bincount(const Tensor& arr, const BincountOptions& o, Loc loc) {
  static const OpDef& op = op_def("DenseBincount");
  if (o.binary_output && o.weights.defined()) {
    throw InvalidArgumentError(
        "bincount: binary_output and weights are mutually exclusive; pass one of them");
  }
  if (o.axis && *o.axis != 0 && *o.axis != -1) {
    throw InvalidArgumentError(str_cat("bincount: axis must be None, 0 or -1, got ", *o.axis));
  }
  const bool per_row = o.axis && *o.axis == -1;
  Tensor input = per_row ? arr : reshape(arr, {-1}, loc);
  Tensor weights = o.weights.defined() ? (per_row ? o.weights : reshape(o.weights, {-1}, loc))
                                       : Tensor::empty(o.dtype, Shape{0});
  int64_t size = -1;
  if (o.minlength && o.maxlength && *o.minlength == *o.maxlength) size = *o.minlength;
  for (auto v : {o.minlength, o.maxlength}) {
    if (v && *v < 0)
      throw InvalidArgumentError(str_cat("bincount: lengths must be >= 0, got ", *v));
  }
  Tensor in[] = {input, weights};
  return dispatch1(op, in,
                   {{"size", size},
                    {"minlength", o.minlength.value_or(-1)},
                    {"maxlength", o.maxlength.value_or(-1)},
                    {"binary_output", o.binary_output}},
                   loc);
}

}  // namespace tfcc
