// Definitions of the attention family: ScaledDotProductAttention (outputs: the attention and the
// logsumexp of each query row's scores) and ScaledDotProductAttentionGrad (dq, dk, dv from the
// saved logsumexp), their shape checks, the gradient rule and the typed API.
#include "tfcc/ops/attention/attention.h"

#include <cmath>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/attention/attention_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace attention_internal {
namespace {

using internal::str_cat;

// Row-major strides of `x` broadcast into `full` (right-aligned; a size-1 dim repeats).
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& x, size_t full_rank) {
  std::vector<int64_t> strides(full_rank, 0);
  int64_t step = 1;
  for (size_t i = x.size(); i-- > 0;) {
    strides[full_rank - x.size() + i] = x[i] == 1 ? 0 : step;
    step *= x[i];
  }
  return strides;
}

Broadcast broadcast_of(const Shape& x, const std::vector<int64_t>& full) {
  const std::vector<int64_t> st = broadcast_strides(x.dims(), full.size());
  const size_t nb = full.size() - 2;
  Broadcast b;
  b.stride_q = st[nb];
  b.stride_k = st[nb + 1];
  int64_t count = 1;
  for (size_t i = 0; i < nb; ++i) count *= full[i];
  b.batch.resize(size_t(count));
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rem = flat, off = 0;
    for (size_t i = nb; i-- > 0;) {
      off += (rem % full[i]) * st[i];
      rem /= full[i];
    }
    b.batch[size_t(flat)] = off;
  }
  return b;
}

}  // namespace

std::string check_shapes(const PartialShape& q, const PartialShape& k, const PartialShape& v,
                         const PartialShape& bias, const PartialShape& mask) {
  if (!q.rank_known() || !k.rank_known() || !v.rank_known()) return "";
  const std::string shapes =
      str_cat("query ", q.to_string(), ", key ", k.to_string(), ", value ", v.to_string());
  const int r = q.rank();
  if (r < 2 || k.rank() != r || v.rank() != r) {
    return "query, key and value must have the same rank, at least 2: " + shapes;
  }
  auto differ = [](int64_t a, int64_t b) { return a >= 0 && b >= 0 && a != b; };
  for (int i = 0; i < r - 2; ++i) {
    if (differ(q.dim(i), k.dim(i)) || differ(q.dim(i), v.dim(i))) {
      return "query, key and value must have the same batch dimensions: " + shapes;
    }
  }
  if (differ(q.dim(r - 1), k.dim(r - 1))) {
    return "query and key must have the same depth (last dimension): " + shapes;
  }
  if (differ(k.dim(r - 2), v.dim(r - 2))) {
    return "key and value must have the same number of keys (dimension -2): " + shapes;
  }
  std::vector<int64_t> full(q.dims().begin(), q.dims().end() - 1);
  full.push_back(k.dim(r - 2));
  for (const auto& [name, s] : {std::pair{"bias", bias}, std::pair{"mask", mask}}) {
    if (!s.rank_known()) continue;
    bool ok = s.rank() <= r;
    for (int i = 0; ok && i < s.rank(); ++i) {
      const int64_t d = s.dim(i), f = full[size_t(r - s.rank() + i)];
      ok = d == 1 || !differ(d, f);
    }
    if (!ok) {
      return str_cat(name, " of shape ", s.to_string(), " does not broadcast to the scores' ",
                     PartialShape(full).to_string(), " [batch..., queries, keys]");
    }
  }
  return "";
}

Geometry geometry(const KernelContext& ctx) {
  const Shape &q = ctx.input(0).shape(), &k = ctx.input(1).shape(), &v = ctx.input(2).shape();
  const std::string bad = check_shapes(
      PartialShape(q.dims()), PartialShape(k.dims()), PartialShape(v.dims()),
      PartialShape(ctx.input(3).shape().dims()), PartialShape(ctx.input(4).shape().dims()));
  if (!bad.empty()) ctx.fail(bad);
  const int r = q.rank();
  Geometry g;
  for (int i = 0; i < r - 2; ++i) g.batch *= q.dim(i);
  g.tq = q.dim(r - 2);
  g.tk = k.dim(r - 2);
  g.d = q.dim(r - 1);
  g.dv = v.dim(r - 1);
  std::vector<int64_t> full(q.dims().begin(), q.dims().end() - 1);
  full.push_back(g.tk);
  g.bias = broadcast_of(ctx.input(3).shape(), full);
  g.mask = broadcast_of(ctx.input(4).shape(), full);
  return g;
}

}  // namespace attention_internal

namespace {

using internal::str_cat;

std::vector<OutputSpec> attention_shape(const InferenceContext& c) {
  const PartialShape q = c.shape(0), k = c.shape(1), v = c.shape(2);
  const std::string bad = attention_internal::check_shapes(q, k, v, c.shape(3), c.shape(4));
  if (!bad.empty()) c.fail(bad);
  for (int i = 1; i < 4; ++i) {
    if (c.dtype(i) != c.dtype(0)) {
      c.fail(str_cat("query, key, value and bias must have one dtype, got ", dtype_name(c.dtype(0)),
                     " and ", dtype_name(c.dtype(i))));
    }
  }
  if (!q.rank_known() || !v.rank_known()) {
    return {{c.dtype(0), PartialShape::unknown_rank()}, {c.dtype(0), PartialShape::unknown_rank()}};
  }
  std::vector<int64_t> out(q.dims().begin(), q.dims().end() - 1);
  const std::vector<int64_t> lse = out;
  out.push_back(v.dim(v.rank() - 1));
  if (c.op().name() == "ScaledDotProductAttention") {
    return {{c.dtype(0), PartialShape(out)}, {c.dtype(0), PartialShape(lse)}};
  }
  return {{c.dtype(0), q}, {c.dtype(0), k}, {c.dtype(0), v}};
}

// d bias = the score gradient (zero where a key is excluded), summed to the bias' shape. Only
// here does a [queries, keys] matrix exist, and only when a bias needs its gradient.
Tensor bias_grad(const GradContext& g, const Tensor& dout, const Tensor& dlse) {
  const Tensor &q = g.inputs[0], &k = g.inputs[1], &v = g.inputs[2], &bias = g.inputs[3];
  const double scale = g.attrs.get<double>("scale");
  Tensor s = add(multiply(matmul(q, k, false, true), scale), bias);
  Tensor keep = logical_and(ones_like(s, bool_), g.inputs[4]);
  if (g.attrs.get<bool>("causal")) {
    const int r = s.shape().rank();
    const int64_t tq = s.shape().dim(r - 2), tk = s.shape().dim(r - 1);
    std::vector<double> tri(size_t(tq * tk));
    for (int64_t i = 0; i < tq; ++i) {
      for (int64_t j = 0; j < tk; ++j) tri[size_t(i * tk + j)] = j <= i;
    }
    keep = logical_and(keep, detail::make_constant(tri, Shape{tq, tk}, bool_));
  }
  Tensor p = exp(subtract(s, expand_dims(g.outputs[1], -1)));
  Tensor delta =
      subtract(reduce_sum(multiply(dout, g.outputs[0]), {-1}, true), expand_dims(dlse, -1));
  Tensor ds = multiply(p, subtract(matmul(dout, v, false, true), delta));
  return sum_to_shape_of(where(keep, ds, zeros_like(ds)), bias);
}

std::vector<Tensor> attention_grad(const GradContext& g) {
  static const OpDef& op = op_def("ScaledDotProductAttentionGrad");
  const Tensor dout = g.grads[0].defined() ? g.grads[0] : zeros_like(g.outputs[0]);
  const Tensor dlse = g.grads[1].defined() ? g.grads[1] : zeros_like(g.outputs[1]);
  Tensor in[] = {g.inputs[0],  g.inputs[1],  g.inputs[2], g.inputs[3], g.inputs[4],
                 g.outputs[0], g.outputs[1], dout,        dlse};
  std::vector<Tensor> d = dispatch(op, in, g.attrs);
  d.push_back(g.input_needed(3) ? bias_grad(g, dout, dlse) : Tensor());
  d.push_back(Tensor());
  return d;
}

}  // namespace

void register_attention_ops(OpRegistry& r) {
  r.add("ScaledDotProductAttention")
      .input("query", "T")
      .input("key", "T")
      .input("value", "T")
      .input("bias", "T")
      .input("mask", bool_)
      .output("output", "T")
      .output("logsumexp", "T")
      .type_attr("T", kFloatTypes)
      .attr("scale", AttrType::kFloat, 1.0)
      .attr("causal", AttrType::kBool, false)
      .shape_fn(attention_shape)
      .cpu_kernels(attention_cpu_kernel)
      .gradient(attention_grad);
  r.add("ScaledDotProductAttentionGrad")
      .input("query", "T")
      .input("key", "T")
      .input("value", "T")
      .input("bias", "T")
      .input("mask", bool_)
      .input("output", "T")
      .input("logsumexp", "T")
      .input("grad_output", "T")
      .input("grad_logsumexp", "T")
      .output("grad_query", "T")
      .output("grad_key", "T")
      .output("grad_value", "T")
      .type_attr("T", kFloatTypes)
      .attr("scale", AttrType::kFloat, 1.0)
      .attr("causal", AttrType::kBool, false)
      .shape_fn(attention_shape)
      .cpu_kernels(attention_cpu_kernel)
      .not_differentiable();
}

std::pair<Tensor, Tensor> scaled_dot_product_attention_with_lse(const Tensor& query,
                                                                const Tensor& key,
                                                                const Tensor& value,
                                                                const AttentionOptions& options,
                                                                Loc loc) {
  static const OpDef& op = op_def("ScaledDotProductAttention");
  if (options.mask.defined() && options.mask.dtype() != bool_) {
    throw InvalidArgumentError(
        str_cat("scaled_dot_product_attention: mask must be bool (true = attend), got ",
                dtype_name(options.mask.dtype()), "; pass an additive mask as `bias`"));
  }
  double scale = 1.0;
  if (options.scale) {
    scale = *options.scale;
  } else {
    const PartialShape q = query.partial_shape();
    const int64_t depth = q.rank_known() && q.rank() > 0 ? q.dim(q.rank() - 1) : -1;
    if (depth < 0) {
      throw InvalidArgumentError(
          "scaled_dot_product_attention: the query's depth is unknown; pass options.scale");
    }
    scale = 1.0 / std::sqrt(double(std::max<int64_t>(depth, 1)));
  }
  const DType t = query.dtype();
  Tensor bias = options.bias.defined()
                    ? (options.bias.dtype() == t || !is_floating(t) ? options.bias
                                                                    : cast(options.bias, t, loc))
                    : detail::make_constant({0.0}, Shape{}, is_floating(t) ? t : float32);
  Tensor mask =
      options.mask.defined() ? options.mask : detail::make_constant({1.0}, Shape{}, bool_);
  Tensor in[] = {query, key, value, bias, mask};
  std::vector<Tensor> out =
      dispatch(op, in, {{"scale", scale}, {"causal", options.is_causal}}, loc);
  return {out[0], out[1]};
}

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const AttentionOptions& options, Loc loc) {
  return scaled_dot_product_attention_with_lse(query, key, value, options, loc).first;
}

}  // namespace tfcc
