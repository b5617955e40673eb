// GatherV2, GatherNd, ScatterNd, TensorScatterUpdate: signatures, shape functions, gradient
// rules (gather <-> scatter-add, written with ops) and the typed API.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::vector<int64_t> concat_dims(std::initializer_list<std::vector<int64_t>> parts) {
  std::vector<int64_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<int64_t> sub(const std::vector<int64_t>& v, size_t lo, size_t hi) {
  return std::vector<int64_t>(v.begin() + static_cast<std::ptrdiff_t>(lo),
                              v.begin() + static_cast<std::ptrdiff_t>(hi));
}

int64_t prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t d : v) p = checked_mul(p, d);
  return p;
}

// Normalised (axis, batch_dims) of a GatherV2 call; fails with TensorFlow's messages.
std::pair<int64_t, int64_t> gather_axes(const InferenceContext& c, int64_t rp, int64_t ri) {
  if (rp < 1) c.fail("params must be at least 1 dimensional");
  int64_t axis = c.attr<int64_t>("axis");
  if (axis < -rp || axis >= rp) {
    c.fail(internal::str_cat("Expected axis in the range [", -rp, ", ", rp, "), but got ", axis));
  }
  if (axis < 0) axis += rp;
  int64_t bd = c.attr<int64_t>("batch_dims");
  if (bd < -ri || bd > ri) {
    c.fail(
        internal::str_cat("Expected batch_dims in the range [", -ri, ", ", ri, "], but got ", bd));
  }
  if (bd < 0) bd += ri;
  if (bd > axis) {
    c.fail(
        internal::str_cat("batch_dims (", bd, ") must be less than or equal to axis (", axis, ")"));
  }
  return {axis, bd};
}

std::vector<OutputSpec> gather_shape(const InferenceContext& c) {
  PartialShape p = c.shape(0), i = c.shape(1);
  if (!p.rank_known() || !i.rank_known()) return {{c.dtype(0), PartialShape()}};
  auto [axis, bd] = gather_axes(c, p.rank(), i.rank());
  for (int64_t d = 0; d < bd; ++d) {
    int64_t a = p.dim(static_cast<int>(d)), b = i.dim(static_cast<int>(d));
    if (a >= 0 && b >= 0 && a != b) {
      c.fail(internal::str_cat("params.shape[", d, "]: ", a, " should be equal to indices.shape[",
                               d, "]: ", b));
    }
  }
  const auto &pd = p.dims(), &id = i.dims();
  size_t ax = static_cast<size_t>(axis);
  return {{c.dtype(0),
           PartialShape(concat_dims({sub(pd, 0, ax), sub(id, static_cast<size_t>(bd), id.size()),
                                     sub(pd, ax + 1, pd.size())}))}};
}

// d params = scatter-add of dy at the gathered rows. Batch and outer dimensions are folded
// into the scatter index (row b * N + index), so one ScatterNd covers every batch_dims.
std::vector<Tensor> gather_grad(const GradContext& g) {
  const Tensor& indices = g.inputs[1];
  std::vector<int64_t> pd = static_dims(g.inputs[0], "The gradient of gather");
  std::vector<int64_t> id = static_dims(indices, "The gradient of gather");
  int64_t rp = static_cast<int64_t>(pd.size()), ri = static_cast<int64_t>(id.size());
  int64_t axis = g.attrs.get<int64_t>("axis"), bd = g.attrs.get<int64_t>("batch_dims");
  if (axis < 0) axis += rp;
  if (bd < 0) bd += ri;
  size_t ax = static_cast<size_t>(axis), b = static_cast<size_t>(bd);
  int64_t nb = prod(sub(pd, 0, b)), no = prod(sub(pd, b, ax)), n = pd[ax];
  int64_t nr = prod(sub(pd, ax + 1, pd.size())), nk = prod(sub(id, b, id.size()));
  Tensor dy = transpose(reshape(g.grads[0], {nb, no, nk, nr}), {0, 2, 1, 3});
  dy = reshape(dy, {nb * nk, no, nr});
  Tensor idx = reshape(indices, {nb, nk});
  if (nb > 1) {
    std::vector<int64_t> offsets;
    for (int64_t k = 0; k < nb; ++k) offsets.push_back(k * n);
    Tensor off = Tensor::from_vector(offsets, Shape{nb, 1});
    if (indices.dtype() == int32) {
      std::vector<int32_t> o32(offsets.begin(), offsets.end());
      off = Tensor::from_vector(o32, Shape{nb, 1});
    }
    idx = add(idx, off);
  }
  Tensor summed = scatter_nd(reshape(idx, {nb * nk, 1}), dy, {nb * n, no, nr});
  Tensor back = transpose(reshape(summed, {nb, n, no, nr}), {0, 2, 1, 3});
  return {reshape(back, pd), Tensor()};
}

std::vector<OutputSpec> gather_nd_shape(const InferenceContext& c) {
  PartialShape p = c.shape(0), i = c.shape(1);
  if (!p.rank_known() || !i.rank_known()) return {{c.dtype(0), PartialShape()}};
  if (i.rank() < 1) c.fail("indices must be at least a vector");
  int64_t depth = i.dim(i.rank() - 1);
  if (depth < 0) return {{c.dtype(0), PartialShape()}};
  if (depth > p.rank()) {
    c.fail(internal::str_cat("index innermost dimension length must be <= params rank; saw: ",
                             depth, " vs. ", p.rank()));
  }
  const auto &pd = p.dims(), &id = i.dims();
  return {
      {c.dtype(0), PartialShape(concat_dims({sub(id, 0, id.size() - 1),
                                             sub(pd, static_cast<size_t>(depth), pd.size())}))}};
}

// Checks indices [..., D] and updates against an output of `shape`.
void check_scatter(const InferenceContext& c, const PartialShape& shape, int indices_input,
                   int updates_input) {
  PartialShape i = c.shape(indices_input), u = c.shape(updates_input);
  if (!i.rank_known() || !shape.rank_known()) return;
  if (i.rank() < 1) c.fail("indices must be at least a vector");
  int64_t depth = i.dim(i.rank() - 1);
  if (depth < 0) return;
  if (depth > shape.rank()) {
    c.fail(internal::str_cat("indices.shape[-1] must be <= rank of the output; saw: ", depth,
                             " vs. ", shape.rank()));
  }
  const auto &sd = shape.dims(), &id = i.dims();
  std::vector<int64_t> want =
      concat_dims({sub(id, 0, id.size() - 1), sub(sd, static_cast<size_t>(depth), sd.size())});
  if (!u.is_compatible_with(PartialShape(want))) {
    c.fail("updates.shape " + u.to_string() +
           " must equal indices.shape[:-1] + shape[indices.shape[-1]:] = " + dims_str(want));
  }
}

std::vector<OutputSpec> scatter_nd_shape(const InferenceContext& c) {
  const auto& shape = c.attr<std::vector<int64_t>>("shape");
  for (int64_t d : shape) {
    if (d < 0) c.fail("Dimensions must be non-negative, got shape " + dims_str(shape));
  }
  (void)Shape(shape);
  check_scatter(c, PartialShape(shape), 0, 1);
  return {{c.dtype(1), PartialShape(shape)}};
}

std::vector<OutputSpec> tensor_scatter_shape(const InferenceContext& c) {
  check_scatter(c, c.shape(0), 1, 2);
  return {{c.dtype(0), c.shape(0)}};
}

}  // namespace

void register_gather_scatter_ops(OpRegistry& r) {
  r.add("GatherV2")
      .input("params", "T")
      .input("indices", "Tindices")
      .output("output", "T")
      .type_attr("T", kAllTypesAndString)
      .type_attr("Tindices", kIndexTypes)
      .attr("axis", AttrType::kInt, int64_t{0})
      .attr("batch_dims", AttrType::kInt, int64_t{0})
      .shape_fn(gather_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient(gather_grad);
  r.add("GatherNd")
      .input("params", "T")
      .input("indices", "Tindices")
      .output("output", "T")
      .type_attr("T", kAllTypesAndString)
      .type_attr("Tindices", kIndexTypes)
      .shape_fn(gather_nd_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {scatter_nd(g.inputs[1], g.grads[0], static_dims(g.inputs[0], "gather_nd grad")),
                Tensor()};
      });
  r.add("ScatterNd")
      .input("indices", "Tindices")
      .input("updates", "T")
      .output("output", "T")
      .type_attr("T", kNumericTypes)
      .type_attr("Tindices", kIndexTypes)
      .attr("shape", AttrType::kInts)
      .shape_fn(scatter_nd_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {Tensor(), gather_nd(g.grads[0], g.inputs[0])};
      });
  r.add("TensorScatterUpdate")
      .input("tensor", "T")
      .input("indices", "Tindices")
      .input("updates", "T")
      .output("output", "T")
      .type_attr("T", kAllTypes)
      .type_attr("Tindices", kIndexTypes)
      .shape_fn(tensor_scatter_shape)
      .cpu_kernels(array_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        const Tensor &dy = g.grads[0], &indices = g.inputs[1];
        return {tensor_scatter_nd_update(dy, indices, zeros_like(g.inputs[2])), Tensor(),
                gather_nd(dy, indices)};
      });
}

Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis, int64_t batch_dims,
              Loc loc) {
  static const OpDef& op = op_def("GatherV2");
  Tensor in[] = {params, indices};
  return dispatch1(op, in, {{"axis", axis}, {"batch_dims", batch_dims}}, loc);
}

Tensor gather_nd(const Tensor& params, const Tensor& indices, Loc loc) {
  static const OpDef& op = op_def("GatherNd");
  Tensor in[] = {params, indices};
  return dispatch1(op, in, {}, loc);
}

Tensor scatter_nd(const Tensor& indices, const Tensor& updates, std::vector<int64_t> shape,
                  Loc loc) {
  static const OpDef& op = op_def("ScatterNd");
  Tensor in[] = {indices, updates};
  return dispatch1(op, in, {{"shape", std::move(shape)}}, loc);
}

Tensor tensor_scatter_nd_update(const Tensor& tensor, const Tensor& indices, const Tensor& updates,
                                Loc loc) {
  static const OpDef& op = op_def("TensorScatterUpdate");
  Tensor in[] = {tensor, indices, updates};
  return dispatch1(op, in, {}, loc);
}

}  // namespace tfcc
