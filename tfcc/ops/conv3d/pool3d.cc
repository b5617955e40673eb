// Definitions of the conv3d family's pooling: MaxPool3D, AvgPool3D and their gradient ops
// MaxPool3DGrad, MaxPool3DGradGrad, AvgPool3DGrad (TensorFlow's names; AvgPool3DGrad's shape,
// a tensor input in TensorFlow, is an attribute), with TensorFlow's geometry and checks,
// gradient rules (each gradient op's gradient is another pooling op) and the API.
#include "tfcc/ops/conv3d/conv3d.h"
#include "tfcc/ops/conv3d/conv3d_internal.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

Attrs pool_attrs(const Attrs& a) {
  return {{"ksize", a.get<std::vector<int64_t>>("ksize")},
          {"strides", a.get<std::vector<int64_t>>("strides")},
          {"padding", a.get<std::string>("padding")},
          {"data_format", a.get<std::string>("data_format")}};
}

void check_shape(const InferenceContext& c, int i, const std::vector<int64_t>& want,
                 const char* what) {
  const PartialShape s = c.shape(i);
  if (!s.rank_known()) return;
  bool ok = s.rank() == 5;
  for (int d = 0; ok && d < 5; ++d) {
    if (s.dim(d) >= 0 && want[size_t(d)] >= 0 && s.dim(d) != want[size_t(d)]) ok = false;
  }
  if (!ok) {
    c.fail(
        internal::str_cat(what, " must have shape ", dims3d_string(want), ", got ", s.to_string()));
  }
}

std::vector<OutputSpec> pool_shape(const InferenceContext& c) {
  return {{c.dtype(0), PartialShape(pool3d_geometry(c.op(), c.attrs(), c.shape(0)).output_dims())}};
}

// MaxPool3DGrad / MaxPool3DGradGrad: (orig_input, orig_output, grad).
std::vector<OutputSpec> max_grad_shape(const InferenceContext& c) {
  const Window3D g = pool3d_geometry(c.op(), c.attrs(), c.shape(0));
  check_shape(c, 1, g.output_dims(), "orig_output");
  const bool gradgrad = c.op().name() == "MaxPool3DGradGrad";
  check_shape(c, 2, gradgrad ? g.input_dims() : g.output_dims(), "grad");
  return {{c.dtype(0), PartialShape(gradgrad ? g.output_dims() : g.input_dims())}};
}

// orig_input_shape may have a -1 batch (a traced input's unknown batch): grad's batch.
std::vector<OutputSpec> avg_grad_shape(const InferenceContext& c) {
  std::vector<int64_t> shape = c.attr<std::vector<int64_t>>("orig_input_shape");
  if (shape.size() != 5) {
    c.fail(internal::str_cat("orig_input_shape must have 5 elements, got ", shape.size()));
  }
  for (size_t i = 0; i < 5; ++i) {
    if (shape[i] < 0 && !(i == 0 && shape[i] == -1)) {
      c.fail("orig_input_shape must be non-negative, got " + dims3d_string(shape));
    }
  }
  const PartialShape grad = c.shape(0);
  if (shape[0] == -1 && grad.rank_known() && grad.rank() == 5) shape[0] = grad.dim(0);
  const Window3D g = pool3d_geometry(c.op(), c.attrs(), PartialShape(shape));
  check_shape(c, 0, g.output_dims(), "grad");
  return {{c.dtype(0), PartialShape(shape)}};
}

// The input's shape as an attribute; an unknown batch (traced code) becomes -1.
std::vector<int64_t> static_shape(const Tensor& t) {
  const PartialShape s = t.partial_shape();
  bool ok = s.rank_known();
  for (int i = 1; ok && i < s.rank(); ++i) ok = s.dim(i) >= 0;
  if (!ok) {
    throw InvalidArgumentError(
        "the gradient of AvgPool3D needs the static spatial and channel dims of its input, got " +
        (s.rank_known() ? s.to_string() : std::string("unknown rank")));
  }
  return s.dims();
}

Tensor call(const char* name, std::vector<Tensor> in, Attrs attrs, Loc loc = Loc::current()) {
  return dispatch1(op_def(name), in, std::move(attrs), loc);
}

std::vector<Tensor> max_pool_rule(const GradContext& g) {
  return {call("MaxPool3DGrad", {g.inputs[0], g.outputs[0], g.grads[0]}, pool_attrs(g.attrs))};
}

std::vector<Tensor> avg_pool_rule(const GradContext& g) {
  Attrs a = pool_attrs(g.attrs);
  a.set("orig_input_shape", static_shape(g.inputs[0]));
  return {call("AvgPool3DGrad", {g.grads[0]}, std::move(a))};
}

// MaxPool3DGrad is linear in grad with a piecewise-constant routing: zero gradient for the
// original tensors, MaxPool3DGradGrad for grad (and the other way round).
std::vector<Tensor> max_grad_rule(const GradContext& g) {
  const bool of_grad = g.op.name() == "MaxPool3DGrad";
  Tensor dgrad = call(of_grad ? "MaxPool3DGradGrad" : "MaxPool3DGrad",
                      {g.inputs[0], g.inputs[1], g.grads[0]}, pool_attrs(g.attrs));
  return {zeros_like(g.inputs[0]), zeros_like(g.inputs[1]), dgrad};
}

std::vector<Tensor> avg_grad_rule(const GradContext& g) {
  return {call("AvgPool3D", {g.grads[0]}, pool_attrs(g.attrs))};
}

OpDef& pool_common(OpDef& d) {
  return d.type_attr("T", kFloatTypes)
      .attr("ksize", AttrType::kInts)
      .attr("strides", AttrType::kInts)
      .attr("padding", AttrType::kString)
      .attr("data_format", AttrType::kString, std::string("NDHWC"))
      .cpu_kernels(pool3d_cpu_kernel);
}

Attrs api_attrs(std::vector<int64_t> ksize, std::vector<int64_t> strides,
                const std::string& padding) {
  return {{"ksize", conv3d_window_vector(std::move(ksize), "ksize")},
          {"strides", conv3d_window_vector(std::move(strides), "strides")},
          {"padding", padding}};
}

}  // namespace

void register_pool3d_ops(OpRegistry& r) {
  pool_common(r.add("MaxPool3D").input("input", "T").output("output", "T"))
      .shape_fn(pool_shape)
      .gradient(max_pool_rule);
  pool_common(r.add("AvgPool3D").input("input", "T").output("output", "T"))
      .shape_fn(pool_shape)
      .gradient(avg_pool_rule);
  for (const char* name : {"MaxPool3DGrad", "MaxPool3DGradGrad"}) {
    pool_common(r.add(name)
                    .input("orig_input", "T")
                    .input("orig_output", "T")
                    .input("grad", "T")
                    .output("output", "T"))
        .shape_fn(max_grad_shape)
        .gradient(max_grad_rule);
  }
  pool_common(r.add("AvgPool3DGrad").input("grad", "T").output("output", "T"))
      .attr("orig_input_shape", AttrType::kInts)
      .shape_fn(avg_grad_shape)
      .gradient(avg_grad_rule);
}

Tensor max_pool3d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc) {
  return call("MaxPool3D", {input}, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor avg_pool3d(const Tensor& input, std::vector<int64_t> ksize, std::vector<int64_t> strides,
                  const std::string& padding, Loc loc) {
  return call("AvgPool3D", {input}, api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor max_pool3d_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                       std::vector<int64_t> ksize, std::vector<int64_t> strides,
                       const std::string& padding, Loc loc) {
  return call("MaxPool3DGrad", {orig_input, orig_output, grad},
              api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor max_pool3d_grad_grad(const Tensor& orig_input, const Tensor& orig_output, const Tensor& grad,
                            std::vector<int64_t> ksize, std::vector<int64_t> strides,
                            const std::string& padding, Loc loc) {
  return call("MaxPool3DGradGrad", {orig_input, orig_output, grad},
              api_attrs(std::move(ksize), std::move(strides), padding), loc);
}

Tensor avg_pool3d_grad(std::vector<int64_t> orig_input_shape, const Tensor& grad,
                       std::vector<int64_t> ksize, std::vector<int64_t> strides,
                       const std::string& padding, Loc loc) {
  Attrs a = api_attrs(std::move(ksize), std::move(strides), padding);
  a.set("orig_input_shape", std::move(orig_input_shape));
  return call("AvgPool3DGrad", {grad}, std::move(a), loc);
}

}  // namespace tfcc
