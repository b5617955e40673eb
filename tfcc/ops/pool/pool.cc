// Definitions of the pool family: MaxPool, AvgPool, MaxPoolGrad, MaxPoolGradGrad, AvgPoolGrad,
// _MaxPoolGradReluGrad (what a graph pass makes of ReluGrad(MaxPoolGrad));
// TensorFlow's geometry and checks, gradient rules (each gradient op's gradient is another
// pooling op, so gradients of gradients work), the typed API and the global composites.
#include "tfcc/ops/pool/pool.h"

#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/pool/pool_fused.h"
#include "tfcc/ops/pool/pool_internal.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::string dims_string(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += internal::str_cat(i ? "," : "", d[i]);
  return s + "]";
}

Attrs pool_attrs(const Attrs& a) {
  return {{"ksize", a.get<std::vector<int64_t>>("ksize")},
          {"strides", a.get<std::vector<int64_t>>("strides")},
          {"padding", a.get<std::string>("padding")},
          {"data_format", a.get<std::string>("data_format")}};
}

void check_same_shape(const InferenceContext& c, int i, const std::vector<int64_t>& want,
                      const char* what) {
  const PartialShape s = c.shape(i);
  if (!s.rank_known()) return;
  bool ok = s.rank() == 4;
  for (int d = 0; ok && d < 4; ++d) {
    if (s.dim(d) >= 0 && want[size_t(d)] >= 0 && s.dim(d) != want[size_t(d)]) ok = false;
  }
  if (!ok) {
    c.fail(internal::str_cat(what, " must have shape ", dims_string(want), ", got ",
                             s.rank_known() ? dims_string(s.dims()) : "unknown"));
  }
}

std::vector<OutputSpec> pool_shape(const InferenceContext& c) {
  const PoolGeometry g = pool_geometry(c.op(), c.attrs(), c.shape(0));
  return {{c.dtype(0), PartialShape(g.output_dims())}};
}

// MaxPoolGrad / MaxPoolGradGrad: (orig_input, orig_output, grad).
std::vector<OutputSpec> max_grad_shape(const InferenceContext& c) {
  const PoolGeometry g = pool_geometry(c.op(), c.attrs(), c.shape(0));
  check_same_shape(c, 1, g.output_dims(), "orig_output");
  const bool gradgrad = c.op().name() == "MaxPoolGradGrad";
  check_same_shape(c, 2, gradgrad ? g.input_dims() : g.output_dims(), "grad");
  return {{c.dtype(0), PartialShape(gradgrad ? g.output_dims() : g.input_dims())}};
}

// orig_input_shape may have a -1 batch (a traced input's unknown batch): grad's batch.
std::vector<OutputSpec> avg_grad_shape(const InferenceContext& c) {
  std::vector<int64_t> shape = c.attr<std::vector<int64_t>>("orig_input_shape");
  if (shape.size() != 4) {
    c.fail(internal::str_cat("orig_input_shape must have 4 elements, got ", shape.size()));
  }
  for (size_t i = 0; i < 4; ++i) {
    if (shape[i] < 0 && !(i == 0 && shape[i] == -1)) {
      c.fail("orig_input_shape must be non-negative, got " + dims_string(shape));
    }
  }
  const PartialShape grad = c.shape(0);
  if (shape[0] == -1 && grad.rank_known() && grad.rank() == 4) shape[0] = grad.dim(0);
  const PoolGeometry g = pool_geometry(c.op(), c.attrs(), PartialShape(shape));
  check_same_shape(c, 0, g.output_dims(), "grad");
  return {{c.dtype(0), PartialShape(shape)}};
}

// The input's shape as an attribute; an unknown batch (traced code) becomes -1.
std::vector<int64_t> static_shape(const Tensor& t) {
  const PartialShape s = t.partial_shape();
  bool ok = s.rank_known();
  for (int i = 1; ok && i < s.rank(); ++i) ok = s.dim(i) >= 0;
  if (!ok) {
    throw InvalidArgumentError(
        "the gradient of AvgPool needs the static spatial and channel dims of its input, got " +
        (s.rank_known() ? s.to_string() : std::string("unknown rank")));
  }
  return s.dims();
}

Tensor call(const char* name, std::vector<Tensor> in, Attrs attrs) {
  return dispatch1(op_def(name), in, std::move(attrs));
}

std::vector<Tensor> max_pool_grad_rule(const GradContext& g) {
  return {call("MaxPoolGrad", {g.inputs[0], g.outputs[0], g.grads[0]}, pool_attrs(g.attrs))};
}

std::vector<Tensor> avg_pool_grad_rule(const GradContext& g) {
  Attrs a = pool_attrs(g.attrs);
  a.set("orig_input_shape", static_shape(g.inputs[0]));
  return {call("AvgPoolGrad", {g.grads[0]}, std::move(a))};
}

// MaxPoolGrad is linear in grad with a piecewise-constant routing: zero gradient for the
// original tensors, MaxPoolGradGrad for grad (and the other way round).
std::vector<Tensor> max_pool_grad_grad_rule(const GradContext& g) {
  const bool of_grad = g.op.name() == "MaxPoolGrad";
  Tensor dgrad = call(of_grad ? "MaxPoolGradGrad" : "MaxPoolGrad",
                      {g.inputs[0], g.inputs[1], g.grads[0]}, pool_attrs(g.attrs));
  return {zeros_like(g.inputs[0]), zeros_like(g.inputs[1]), dgrad};
}

// _MaxPoolGradReluGrad = ReluGrad(MaxPoolGrad(x, y, g), x) is linear in g: its gradient for g
// is MaxPoolGradGrad of ReluGrad(dy, x); zero for x and y.
std::vector<Tensor> max_pool_grad_relu_grad_rule(const GradContext& g) {
  Tensor masked = call("ReluGrad", {g.grads[0], g.inputs[0]}, Attrs{});
  Tensor dgrad = call("MaxPoolGradGrad", {g.inputs[0], g.inputs[1], masked}, pool_attrs(g.attrs));
  return {zeros_like(g.inputs[0]), zeros_like(g.inputs[1]), dgrad};
}

std::vector<Tensor> avg_pool_grad_grad_rule(const GradContext& g) {
  return {call("AvgPool", {g.grads[0]}, pool_attrs(g.attrs))};
}

OpDef& pool_common(OpDef& d) {
  return d.type_attr("T", kFloatTypes)
      .attr("ksize", AttrType::kInts)
      .attr("strides", AttrType::kInts)
      .attr("padding", AttrType::kString)
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .cpu_kernels(pool_cpu_kernel);
}

std::vector<int64_t> nhwc_sequence(std::vector<int64_t> v, const char* name) {
  if (v.size() == 1) return {1, v[0], v[0], 1};
  if (v.size() == 2) return {1, v[0], v[1], 1};
  if (v.size() == 4) return v;
  throw InvalidArgumentError(
      internal::str_cat(name, " should be of length 1, 2 or 4 but was ", v.size()));
}

Attrs api_attrs(std::vector<int64_t> ksize, std::vector<int64_t> strides,
                const std::string& padding) {
  return {{"ksize", nhwc_sequence(std::move(ksize), "ksize")},
          {"strides", nhwc_sequence(std::move(strides), "strides")},
          {"padding", padding}};
}

void check_global(const Tensor& x, const char* fn) {
  const PartialShape s = x.partial_shape();
  if (s.rank_known() && s.rank() != 4) {
    throw InvalidArgumentError(
        internal::str_cat(fn, " expects a 4-D NHWC input, got shape ", s.to_string()));
  }
}

}  // namespace

PoolGeometry pool_geometry(const OpDef& op, const Attrs& attrs, const PartialShape& input) {
  const std::string& fmt = attrs.get<std::string>("data_format");
  if (fmt != "NHWC") {
    op_error(op, internal::str_cat("Default ", op.name(),
                                   " is only supported for NHWC on device type CPU; got ", fmt));
  }
  const auto& ksize = attrs.get<std::vector<int64_t>>("ksize");
  const auto& strides = attrs.get<std::vector<int64_t>>("strides");
  const std::string& padding = attrs.get<std::string>("padding");
  if (ksize.size() != 4) op_error(op, "Sliding window ksize field must specify 4 dimensions");
  if (strides.size() != 4) op_error(op, "Sliding window stride field must specify 4 dimensions");
  for (int i = 0; i < 4; ++i) {
    if (ksize[size_t(i)] <= 0) {
      op_error(op, internal::str_cat("Sliding window ksize for dimension ", i, " was ",
                                     ksize[size_t(i)], "; it must be positive."));
    }
    if (strides[size_t(i)] <= 0) {
      op_error(op, internal::str_cat("Sliding window stride for dimension ", i, " was ",
                                     strides[size_t(i)], "; it must be positive."));
    }
  }
  if (ksize[0] != 1 || strides[0] != 1) {
    op_error(op, "Pooling is not yet supported on the batch dimension.");
  }
  if (ksize[3] != 1 || strides[3] != 1) {
    op_error(op, "Pooling is not yet supported on the depth dimension.");
  }
  if (padding != "SAME" && padding != "VALID") {
    op_error(op, internal::str_cat("Value for attr 'padding' of \"", padding,
                                   "\" is not in the list of allowed values: \"SAME\", "
                                   "\"VALID\""));
  }
  PoolGeometry g;
  if (input.rank_known()) {
    if (input.rank() != 4) op_error(op, "input must be 4-dimensional" + dims_string(input.dims()));
    g.batch = input.dim(0);
    g.in_h = input.dim(1);
    g.in_w = input.dim(2);
    g.c = input.dim(3);
  }
  g.k_h = ksize[1];
  g.k_w = ksize[2];
  g.stride_h = strides[1];
  g.stride_w = strides[2];
  windowed_output_size(op, g.in_h, g.k_h, 1, g.stride_h, padding, &g.out_h, &g.pad_top,
                       &g.pad_bottom);
  windowed_output_size(op, g.in_w, g.k_w, 1, g.stride_w, padding, &g.out_w, &g.pad_left,
                       &g.pad_right);
  return g;
}

void register_pool_ops(OpRegistry& r) {
  pool_common(r.add("MaxPool").input("input", "T").output("output", "T"))
      .shape_fn(pool_shape)
      .gradient(max_pool_grad_rule);
  pool_common(r.add("AvgPool").input("value", "T").output("output", "T"))
      .shape_fn(pool_shape)
      .gradient(avg_pool_grad_rule);
  for (const char* name : {"MaxPoolGrad", "MaxPoolGradGrad"}) {
    pool_common(r.add(name)
                    .input("orig_input", "T")
                    .input("orig_output", "T")
                    .input("grad", "T")
                    .output("output", "T"))
        .shape_fn(max_grad_shape)
        .gradient(max_pool_grad_grad_rule);
  }
  pool_common(r.add("_MaxPoolGradReluGrad")
                  .input("orig_input", "T")
                  .input("orig_output", "T")
                  .input("grad", "T")
                  .output("output", "T"))
      .shape_fn(max_grad_shape)
      .gradient(max_pool_grad_relu_grad_rule);
  pool_common(r.add("AvgPoolGrad").input("grad", "T").output("output", "T"))
      .attr("orig_input_shape", AttrType::kInts)
      .shape_fn(avg_grad_shape)
      .gradient(avg_pool_grad_grad_rule);
}

Tensor max_pool2d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("MaxPool");
  Tensor in[] = {input};
  return dispatch1(op, in, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor avg_pool2d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("AvgPool");
  Tensor in[] = {input};
  return dispatch1(op, in, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor max_pool_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                     std::vector<int64_t> ksize, std::vector<int64_t> strides,
                     const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("MaxPoolGrad");
  Tensor in[] = {orig_input, orig_output, grad};
  return dispatch1(op, in, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor max_pool_grad_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                          std::vector<int64_t> ksize, std::vector<int64_t> strides,
                          const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("MaxPoolGradGrad");
  Tensor in[] = {orig_input, orig_output, grad};
  return dispatch1(op, in, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor max_pool_grad_relu_grad(const Tensor& orig_input, const Tensor& orig_output,
                               const Tensor& grad, std::vector<int64_t> ksize,
                               std::vector<int64_t> strides, const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("_MaxPoolGradReluGrad");
  Tensor in[] = {orig_input, orig_output, grad};
  return dispatch1(op, in, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor avg_pool_grad(std::vector<int64_t> orig_input_shape, const Tensor& grad,
                     std::vector<int64_t> ksize, std::vector<int64_t> strides,
                     const std::string& padding, Loc loc) {
  static const OpDef& op = op_def("AvgPoolGrad");
  Tensor in[] = {grad};
  Attrs a = api_attrs(std::move(ksize), std::move(strides), padding);
  a.set("orig_input_shape", std::move(orig_input_shape));
  return dispatch1(op, in, std::move(a), loc);
}

Tensor global_avg_pool2d(const Tensor& input, bool keepdims, Loc loc) {
  check_global(input, "global_avg_pool2d");
  return reduce_mean(input, {1, 2}, keepdims, loc);
}

Tensor global_max_pool2d(const Tensor& input, bool keepdims, Loc loc) {
  check_global(input, "global_max_pool2d");
  return reduce_max(input, {1, 2}, keepdims, loc);
}

}  // namespace tfcc
