// Slice, StridedSlice (TensorFlow's exact mask semantics and clamping), its gradient primitive
// StridedSliceGrad, and NumPy-style indexing (Tensor::operator()) built on StridedSlice.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

StridedSliceSpec strided_slice_spec(const OpDef& op, const std::vector<int64_t>& in_dims,
                                    const Attrs& attrs) {
  constexpr int64_t kNewAxis = -1, kShrink = -2;
  std::vector<int64_t> sb = attrs.get<std::vector<int64_t>>("begin");
  std::vector<int64_t> se = attrs.get<std::vector<int64_t>>("end");
  std::vector<int64_t> ss = attrs.get<std::vector<int64_t>>("strides");
  if (sb.size() != se.size() || sb.size() != ss.size()) {
    op_error(op, internal::str_cat("Expected begin, end, and strides to be 1D equal size tensors, ",
                                   "but got shapes [", sb.size(), "], [", se.size(), "], and [",
                                   ss.size(), "] instead."));
  }
  if (sb.size() > 62) op_error(op, "A slice spec may have at most 62 entries");
  auto bits = [&](const char* name) { return static_cast<uint64_t>(attrs.get<int64_t>(name)); };
  uint64_t begin_mask = bits("begin_mask"), end_mask = bits("end_mask");
  uint64_t ellipsis_mask = bits("ellipsis_mask"), new_axis_mask = bits("new_axis_mask");
  uint64_t shrink_mask = bits("shrink_axis_mask");
  if (ellipsis_mask & (ellipsis_mask - 1)) {
    op_error(op, "Multiple ellipses in slice spec not allowed");
  }
  size_t n = sb.size();
  // Sparse spec: an ellipsis is implied at the end when there is none.
  bool ellipsis_seen = false;
  int64_t new_after_ellipsis = 0;
  for (size_t i = 0; i < n; ++i) {
    if (ellipsis_seen && ((new_axis_mask >> i) & 1)) ++new_after_ellipsis;
    if ((ellipsis_mask >> i) & 1) ellipsis_seen = true;
  }
  if (!ellipsis_seen) {
    ellipsis_mask |= uint64_t{1} << n;
    sb.push_back(0);
    se.push_back(0);
    ss.push_back(1);
    ++n;
  }
  // Dense spec: one entry per input dimension.
  const int64_t rank = static_cast<int64_t>(in_dims.size());
  std::vector<int64_t> db(in_dims.size()), de(in_dims.size()), ds(in_dims.size());
  std::vector<bool> dbm(in_dims.size()), dem(in_dims.size()), dshrink(in_dims.size());
  std::vector<int64_t> gather;
  int64_t full = 0;
  for (size_t i = 0; i < n; ++i) {
    if ((ellipsis_mask >> i) & 1) {
      int64_t next = std::min(rank - static_cast<int64_t>(n - i) + 1 + new_after_ellipsis, rank);
      for (; full < next; ++full) {
        size_t f = static_cast<size_t>(full);
        db[f] = de[f] = 0;
        ds[f] = 1;
        dbm[f] = dem[f] = true;
        gather.push_back(full);
      }
    } else if ((new_axis_mask >> i) & 1) {
      gather.push_back(kNewAxis);
    } else {
      if (full == rank) {
        op_error(op, internal::str_cat("Index out of range using input dim ", full,
                                       "; input has only ", rank, " dims"));
      }
      size_t f = static_cast<size_t>(full);
      db[f] = sb[i];
      de[f] = se[i];
      ds[f] = ss[i];
      dbm[f] = (begin_mask >> i) & 1;
      dem[f] = (end_mask >> i) & 1;
      dshrink[f] = (shrink_mask >> i) & 1;
      gather.push_back(dshrink[f] ? kShrink : full);
      ++full;
    }
  }
  StridedSliceSpec spec;
  for (size_t i = 0; i < in_dims.size(); ++i) {
    int64_t dim = in_dims[i], stride = ds[i];
    if (stride == 0) op_error(op, internal::str_cat("strides[", i, "] must be non-zero"));
    bool shrink = dshrink[i];
    if (shrink && stride <= 0) op_error(op, "only stride 1 allowed on non-range indexing.");
    if (dim < 0) {
      spec.begin.push_back(0);
      spec.strides.push_back(stride);
      spec.dense_dims.push_back(shrink ? 1 : -1);
      continue;
    }
    const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
    auto canonical = [&](int64_t x, bool masked, bool is_end) {
      if (masked) return (stride > 0) != is_end ? lo : hi;
      int64_t fwd = x < 0 ? dim + x : x;
      return std::clamp(fwd, lo, hi);
    };
    int64_t b, size;
    if (shrink) {
      b = db[i] < 0 ? dim + db[i] : db[i];
      if (b < 0 || b >= dim) {
        op_error(op, internal::str_cat("slice index ", b, " of dimension ", i, " out of bounds."));
      }
      size = 1;
    } else {
      b = canonical(db[i], dbm[i], false);
      int64_t e = canonical(de[i], dem[i], true);
      int64_t interval = e - b;
      if (interval == 0 || ((interval < 0) != (stride < 0))) {
        size = 0;
      } else {
        size = interval / stride + (interval % stride != 0 ? 1 : 0);
      }
    }
    spec.begin.push_back(b);
    spec.strides.push_back(size <= 1 ? 1 : stride);  // one element: the stride is irrelevant
    spec.dense_dims.push_back(size);
  }
  for (int64_t g : gather) {
    if (g == kNewAxis) {
      spec.final_dims.push_back(1);
    } else if (g >= 0) {
      spec.final_dims.push_back(spec.dense_dims[static_cast<size_t>(g)]);
    }
  }
  return spec;
}

namespace {

const std::vector<std::pair<const char*, int64_t>> kMaskAttrs = {{"begin_mask", 0},
                                                                 {"end_mask", 0},
                                                                 {"ellipsis_mask", 0},
                                                                 {"new_axis_mask", 0},
                                                                 {"shrink_axis_mask", 0}};

OpDef& slice_attrs(OpDef& op) {
  op.attr("begin", AttrType::kInts).attr("end", AttrType::kInts).attr("strides", AttrType::kInts);
  for (const auto& [name, def] : kMaskAttrs) op.attr(name, AttrType::kInt, def);
  return op;
}

Attrs copy_slice_attrs(const Attrs& from) {
  Attrs a;
  for (const char* name : {"begin", "end", "strides"}) {
    a.set(name, from.get<std::vector<int64_t>>(name));
  }
  for (const auto& [name, def] : kMaskAttrs) a.set(name, from.get<int64_t>(name));
  return a;
}

std::vector<OutputSpec> strided_slice_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  if (!in.rank_known()) return {{c.dtype(0), PartialShape()}};
  StridedSliceSpec spec = strided_slice_spec(c.op(), in.dims(), c.attrs());
  return {{c.dtype(0), PartialShape(spec.final_dims)}};
}

std::vector<OutputSpec> strided_slice_grad_shape(const InferenceContext& c) {
  const auto& shape = c.attr<std::vector<int64_t>>("shape");
  for (int64_t d : shape) {
    if (d < 0) c.fail("StridedSliceGrad shape " + dims_str(shape) + " has a negative dimension");
  }
  (void)Shape(shape);
  StridedSliceSpec spec = strided_slice_spec(c.op(), shape, c.attrs());
  PartialShape dy = c.shape(0);
  if (!dy.is_compatible_with(PartialShape(spec.final_dims))) {
    c.fail("dy shape " + dy.to_string() + " does not match the slice shape " +
           dims_str(spec.final_dims));
  }
  return {{c.dtype(0), PartialShape(shape)}};
}

Tensor strided_slice_grad(const Tensor& dy, std::vector<int64_t> shape, const Attrs& attrs) {
  static const OpDef& op = op_def("StridedSliceGrad");
  Attrs a = copy_slice_attrs(attrs);
  a.set("shape", std::move(shape));
  Tensor in[] = {dy};
  return dispatch1(op, in, std::move(a));
}

std::vector<OutputSpec> slice_shape(const InferenceContext& c) {
  PartialShape in = c.shape(0);
  const auto& begin = c.attr<std::vector<int64_t>>("begin");
  const auto& size = c.attr<std::vector<int64_t>>("size");
  if (!in.rank_known()) return {{c.dtype(0), PartialShape(std::vector<int64_t>(size.size(), -1))}};
  size_t r = static_cast<size_t>(in.rank());
  if (begin.size() != r || size.size() != r) {
    c.fail(internal::str_cat("Expected begin and size arguments to be 1-D tensors of size ", r,
                             ", but got shapes [", begin.size(), "] and [", size.size(),
                             "] instead."));
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i < r; ++i) {
    int64_t d = in.dim(static_cast<int>(i));
    if (d < 0) {
      dims.push_back(size[i] == -1 ? -1 : size[i]);
      continue;
    }
    if (begin[i] < 0 || begin[i] > d) {
      c.fail(internal::str_cat("Expected begin[", i, "] in [0, ", d, "], but got ", begin[i]));
    }
    int64_t s = size[i] == -1 ? d - begin[i] : size[i];
    if (s < 0 || s > d - begin[i]) {
      c.fail(internal::str_cat("Expected size[", i, "] in [0, ", d - begin[i], "], but got ",
                               size[i]));
    }
    dims.push_back(s);
  }
  return {{c.dtype(0), PartialShape(dims)}};
}

std::vector<Tensor> slice_grad(const GradContext& g) {
  std::vector<int64_t> xd = static_dims(g.inputs[0], "The gradient of slice");
  std::vector<int64_t> yd = static_dims(g.outputs[0], "The gradient of slice");
  const auto& begin = g.attrs.get<std::vector<int64_t>>("begin");
  std::vector<std::vector<int64_t>> pads;
  for (size_t i = 0; i < xd.size(); ++i) pads.push_back({begin[i], xd[i] - begin[i] - yd[i]});
  return {pad(g.grads[0], pads)};
}

}  // namespace

void register_slicing_ops(OpRegistry& r) {
  r.add("Slice")
      .input("input", "T")
      .output("output", "T")
      .type_attr("T", kAllTypesAndString)
      .attr("begin", AttrType::kInts)
      .attr("size", AttrType::kInts)
      .shape_fn(slice_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient(slice_grad);
  slice_attrs(r.add("StridedSlice")
                  .input("input", "T")
                  .output("output", "T")
                  .type_attr("T", kAllTypesAndString))
      .shape_fn(strided_slice_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {strided_slice_grad(g.grads[0],
                                   static_dims(g.inputs[0],
                                               "The gradient of "
                                               "strided_slice"),
                                   g.attrs)};
      });
  // dy scattered into zeros of `shape` at the positions StridedSlice reads; linear in dy, so
  // its gradient is StridedSlice of the incoming gradient.
  slice_attrs(r.add("StridedSliceGrad")
                  .input("dy", "T")
                  .output("output", "T")
                  .type_attr("T", kAllTypes)
                  .attr("shape", AttrType::kInts))
      .shape_fn(strided_slice_grad_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        static const OpDef& op = op_def("StridedSlice");
        Tensor in[] = {g.grads[0]};
        return {dispatch1(op, in, copy_slice_attrs(g.attrs))};
      });
}

Tensor slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> size, Loc loc) {
  static const OpDef& op = op_def("Slice");
  Tensor in[] = {x};
  return dispatch1(op, in, {{"begin", std::move(begin)}, {"size", std::move(size)}}, loc);
}

Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end,
                     std::vector<int64_t> strides, int64_t begin_mask, int64_t end_mask,
                     int64_t ellipsis_mask, int64_t new_axis_mask, int64_t shrink_axis_mask,
                     Loc loc) {
  static const OpDef& op = op_def("StridedSlice");
  Tensor in[] = {x};
  return dispatch1(op, in,
                   {{"begin", std::move(begin)},
                    {"end", std::move(end)},
                    {"strides", std::move(strides)},
                    {"begin_mask", begin_mask},
                    {"end_mask", end_mask},
                    {"ellipsis_mask", ellipsis_mask},
                    {"new_axis_mask", new_axis_mask},
                    {"shrink_axis_mask", shrink_axis_mask}},
                   loc);
}

Tensor index(const Tensor& x, const std::vector<Index>& indices, Loc loc) {
  TFCC_CHECK_ARG(indices.size() <= 62, "At most 62 indices are supported, got ", indices.size());
  std::vector<int64_t> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_mask = 0;
  bool ellipsis = false;
  for (size_t k = 0; k < indices.size(); ++k) {
    const Index& ix = indices[k];
    int64_t bit = int64_t{1} << k;
    switch (ix.kind) {
      case Index::kInt:
        begin.push_back(ix.i);
        // Any end works for a shrunk axis (TensorFlow sends i + 1); avoid overflowing it.
        end.push_back(ix.i == INT64_MAX ? ix.i : ix.i + 1);
        strides.push_back(1);
        shrink_mask |= bit;
        break;
      case Index::kSlice: {
        int64_t step = ix.s.step.value_or(1);
        TFCC_CHECK_ARG(step != 0, "slice step cannot be zero (index ", k, ")");
        begin.push_back(ix.s.start.value_or(0));
        end.push_back(ix.s.stop.value_or(0));
        strides.push_back(step);
        if (!ix.s.start) begin_mask |= bit;
        if (!ix.s.stop) end_mask |= bit;
        break;
      }
      case Index::kEllipsis:
        TFCC_CHECK_ARG(!ellipsis, "An index can only have a single ellipsis ('...')");
        ellipsis = true;
        begin.push_back(0);
        end.push_back(0);
        strides.push_back(1);
        ellipsis_mask |= bit;
        break;
      case Index::kNewAxis:
        begin.push_back(0);
        end.push_back(0);
        strides.push_back(1);
        new_axis_mask |= bit;
        break;
    }
  }
  return strided_slice(x, std::move(begin), std::move(end), std::move(strides), begin_mask,
                       end_mask, ellipsis_mask, new_axis_mask, shrink_mask, loc);
}

Tensor Tensor::index_impl(const std::vector<Index>& indices) const {
  return tfcc::index(*this, indices);
}

}  // namespace tfcc
