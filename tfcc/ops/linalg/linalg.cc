// Definitions of the linalg family: MatMul (2-D) and BatchMatMulV2 (batched, broadcasting batch
// dims), their shape functions and gradient rules (TensorFlow's formulas, written with matmul's
// transpose flags so nothing is materialised), and the typed API.
#include "tfcc/ops/linalg/linalg.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/linalg/fused.h"
#include "tfcc/ops/linalg/linalg_internal.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

const std::vector<DType> kMatMulTypes = {float32, float64, int32, int64};

std::string dims_string(const PartialShape& s) {
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) out += internal::str_cat(i ? "," : "", s.dim(i));
  return out + "]";
}

std::pair<bool, bool> transposes(const OpDef& op, const Attrs& attrs) {
  if (op.name() != "BatchMatMulV2") {
    return {attrs.get<bool>("transpose_a"), attrs.get<bool>("transpose_b")};
  }
  return {attrs.get<bool>("adj_x"), attrs.get<bool>("adj_y")};
}

std::vector<OutputSpec> matmul_shape(const InferenceContext& c) {
  const PartialShape a = c.shape(0), b = c.shape(1);
  const bool batched = c.op().name() == "BatchMatMulV2";
  auto [ta, tb] = transposes(c.op(), c.attrs());
  if (!a.rank_known() || !b.rank_known()) {
    return {{c.dtype(0), PartialShape::unknown_rank()}};
  }
  for (int i = 0; i < 2; ++i) {
    const PartialShape& s = i == 0 ? a : b;
    if (!batched && s.rank() != 2) {
      c.fail(
          internal::str_cat("In[", i, "] is not a matrix. Instead it has shape ", dims_string(s)));
    }
    if (s.rank() < 2) c.fail(internal::str_cat("In[", i, "] ndims must be >= 2: ", s.rank()));
  }
  const int ra = a.rank(), rb = b.rank();
  const int64_t m = a.dim(ta ? ra - 1 : ra - 2), ka = a.dim(ta ? ra - 2 : ra - 1);
  const int64_t kb = b.dim(tb ? rb - 1 : rb - 2), n = b.dim(tb ? rb - 2 : rb - 1);
  if (ka >= 0 && kb >= 0 && ka != kb) {
    c.fail("Matrix size-incompatible: In[0]: " + dims_string(a) + ", In[1]: " + dims_string(b));
  }
  // Batch dims broadcast like NumPy's.
  const int batch = std::max(ra, rb) - 2;
  std::vector<int64_t> dims(size_t(batch) + 2);
  for (int i = 0; i < batch; ++i) {
    const int ia = i - (batch - (ra - 2)), ib = i - (batch - (rb - 2));
    const int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    int64_t d;
    if (da == 1) {
      d = db;
    } else if (db == 1) {
      d = da;
    } else if (da < 0 || db < 0) {
      d = da < 0 ? db : da;
    } else if (da == db) {
      d = da;
    } else {
      c.fail("In[0] and In[1] must have compatible batch dimensions: " + dims_string(a) + " vs. " +
             dims_string(b));
    }
    dims[size_t(i)] = d;
  }
  dims[size_t(batch)] = m;
  dims[size_t(batch) + 1] = n;
  PartialShape out(dims);
  if (out.is_fully_defined()) {
    int64_t total = 1;
    for (int64_t d : dims) total = checked_mul(total, d);
  }
  return {{c.dtype(0), out}};
}

// TensorFlow's MatMul gradient, for C = op_a(A) @ op_b(B):
//   (F, F): dA = dC @ B^T,      dB = A^T @ dC
//   (F, T): dA = dC @ B,        dB = dC^T @ A
//   (T, F): dA = B @ dC^T,      dB = A @ dC
//   (T, T): dA = B^T @ dC^T,    dB = dC^T @ A^T
// then summed over broadcast batch dims.
// The products of TensorFlow's rule for C = op_a(A) @ op_b(B), given dC.
std::pair<Tensor, Tensor> matmul_input_grads(const Tensor& a, const Tensor& b, bool ta, bool tb,
                                             const Tensor& dc, bool need_a, bool need_b) {
  Tensor da, db;
  if (!ta && !tb) {
    if (need_a) da = matmul(dc, b, false, true);
    if (need_b) db = matmul(a, dc, true, false);
  } else if (!ta && tb) {
    if (need_a) da = matmul(dc, b, false, false);
    if (need_b) db = matmul(dc, a, true, false);
  } else if (ta && !tb) {
    if (need_a) da = matmul(b, dc, false, true);
    if (need_b) db = matmul(a, dc, false, false);
  } else {
    if (need_a) da = matmul(b, dc, true, true);
    if (need_b) db = matmul(dc, a, true, true);
  }
  return {da, db};
}

std::vector<Tensor> matmul_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &b = g.inputs[1], &dc = g.grads[0];
  if (!dc.defined() || !is_floating(a.dtype())) return {Tensor(), Tensor()};
  auto [ta, tb] = transposes(g.op, g.attrs);
  // A product whose gradient the tape drops (e.g. the input batch's) is not computed.
  auto [da, db] = matmul_input_grads(a, b, ta, tb, dc, g.input_needed(0), g.input_needed(1));
  return {da.defined() ? sum_to_shape_of(da, a) : Tensor(),
          db.defined() ? sum_to_shape_of(db, b) : Tensor()};
}

// _FusedMatMul: y = act(op_a(A) @ op_b(B) + bias) (2-D).
std::vector<OutputSpec> fused_matmul_shape(const InferenceContext& c) {
  std::vector<OutputSpec> out = matmul_shape(c);
  const std::string& act = c.attr<std::string>("activation");
  if (!fused::is_activation(act)) c.fail(fused::unsupported_message(act));
  const PartialShape bias = c.shape(2);
  const int64_t n = out[0].shape.rank_known() ? out[0].shape.dim(1) : -1;
  if (bias.rank_known() && (bias.rank() != 1 || (bias.dim(0) >= 0 && n >= 0 && bias.dim(0) != n))) {
    c.fail(internal::str_cat("bias must be a vector of the product's columns (", n, "), got shape ",
                             bias.to_string()));
  }
  return out;
}

std::vector<Tensor> fused_matmul_grad(const GradContext& g) {
  const Tensor &a = g.inputs[0], &b = g.inputs[1], &bias = g.inputs[2];
  const bool ta = g.attrs.get<bool>("transpose_a"), tb = g.attrs.get<bool>("transpose_b");
  const Tensor dz = fused::activation_grad(
      g.attrs.get<std::string>("activation"), g.attrs.get<double>("leakyrelu_alpha"), g.outputs[0],
      g.grads[0], [&] { return add(matmul(a, b, ta, tb), bias); });
  auto [da, db] = matmul_input_grads(a, b, ta, tb, dz, g.input_needed(0), g.input_needed(1));
  Tensor dbias;
  if (g.input_needed(2)) dbias = reduce_sum(dz, {0});
  return {da, db, dbias};
}

}  // namespace

void register_linalg_ops(OpRegistry& r) {
  r.add("MatMul")
      .input("a", "T")
      .input("b", "T")
      .output("product", "T")
      .type_attr("T", kMatMulTypes)
      .attr("transpose_a", AttrType::kBool, false)
      .attr("transpose_b", AttrType::kBool, false)
      .shape_fn(matmul_shape)
      .cpu_kernels(linalg_cpu_kernel)
      .gradient(matmul_grad);
  r.add("BatchMatMulV2")
      .input("x", "T")
      .input("y", "T")
      .output("output", "T")
      .type_attr("T", kMatMulTypes)
      .attr("adj_x", AttrType::kBool, false)
      .attr("adj_y", AttrType::kBool, false)
      .shape_fn(matmul_shape)
      .cpu_kernels(linalg_cpu_kernel)
      .gradient(matmul_grad);
  r.add("_FusedMatMul")
      .input("a", "T")
      .input("b", "T")
      .input("bias", "T")
      .output("product", "T")
      .type_attr("T", kFloatTypes)
      .attr("transpose_a", AttrType::kBool, false)
      .attr("transpose_b", AttrType::kBool, false)
      .attr("activation", AttrType::kString, std::string())
      .attr("leakyrelu_alpha", AttrType::kFloat, 0.2)
      .shape_fn(fused_matmul_shape)
      .cpu_kernels(linalg_cpu_kernel)
      .gradient(fused_matmul_grad);
}

Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b, Loc loc) {
  static const OpDef& mm = op_def("MatMul");
  static const OpDef& bmm = op_def("BatchMatMulV2");
  Tensor in[] = {a, b};
  const PartialShape sa = a.partial_shape(), sb = b.partial_shape();
  if (sa.rank_known() && sb.rank_known() && sa.rank() == 2 && sb.rank() == 2) {
    return dispatch1(mm, in, {{"transpose_a", transpose_a}, {"transpose_b", transpose_b}}, loc);
  }
  return dispatch1(bmm, in, {{"adj_x", transpose_a}, {"adj_y", transpose_b}}, loc);
}

}  // namespace tfcc

namespace tfcc {

Tensor fused_matmul(const Tensor& a, const Tensor& b, const Tensor& bias,
                    const std::string& activation, bool transpose_a, bool transpose_b,
                    double leakyrelu_alpha, Loc loc) {
  static const OpDef& op = op_def("_FusedMatMul");
  Tensor in[] = {a, b, bias};
  return dispatch1(op, in,
                   {{"transpose_a", transpose_a},
                    {"transpose_b", transpose_b},
                    {"activation", activation},
                    {"leakyrelu_alpha", leakyrelu_alpha}},
                   loc);
}

}  // namespace tfcc
