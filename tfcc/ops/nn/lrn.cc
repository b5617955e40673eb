// LRN and LRNGrad (local response normalization over the channels of a 4-D tensor, as
// TensorFlow's ops): signatures, TensorFlow's checks, the gradient rule and the API.
// out = in / (bias + alpha * sum_{|j - c| <= depth_radius} in_j^2) ^ beta.
#include <limits>

#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

Attrs lrn_attrs(const Attrs& a) {
  return {{"depth_radius", a.get<int64_t>("depth_radius")},
          {"bias", a.get<double>("bias")},
          {"alpha", a.get<double>("alpha")},
          {"beta", a.get<double>("beta")}};
}

void check_radius(const InferenceContext& c) {
  const int64_t r = c.attr<int64_t>("depth_radius");
  if (r < 0 || r > std::numeric_limits<int32_t>::max()) {
    c.fail(internal::str_cat("depth_radius = ", r, " must be in [0, 2^31 - 1]"));
  }
}

std::vector<OutputSpec> lrn_shape(const InferenceContext& c) {
  check_radius(c);
  const PartialShape s = c.shape(0);
  if (s.rank_known() && s.rank() != 4) {
    c.fail("in must be 4-dimensional, got shape " + s.to_string());
  }
  return {{c.dtype(0), s.rank_known() ? s : PartialShape(std::vector<int64_t>(4, -1))}};
}

// LRNGrad(input_grads, input_image, output_image): three 4-D tensors of one shape.
std::vector<OutputSpec> lrn_grad_shape(const InferenceContext& c) {
  check_radius(c);
  PartialShape out(std::vector<int64_t>(4, -1));
  for (int i = 0; i < 3; ++i) {
    const PartialShape s = c.shape(i);
    if (!s.rank_known()) continue;
    if (s.rank() != 4) c.fail("inputs must be 4-dimensional, got shape " + s.to_string());
    for (int d = 0; d < 4; ++d) {
      if (s.dim(d) < 0) continue;
      if (out.dim(d) >= 0 && out.dim(d) != s.dim(d)) {
        c.fail(internal::str_cat(
            "input_grads, input_image, and out_image should have the same shape, got ",
            c.shape(0).to_string(), ", ", c.shape(1).to_string(), " and ", c.shape(2).to_string()));
      }
      std::vector<int64_t> d4 = out.dims();
      d4[size_t(d)] = s.dim(d);
      out = PartialShape(d4);
    }
  }
  return {{c.dtype(0), out}};
}

std::vector<Tensor> lrn_rule(const GradContext& g) {
  static const OpDef& op = op_def("LRNGrad");
  Tensor in[] = {g.grads[0], g.inputs[0], g.outputs[0]};
  return {dispatch1(op, in, lrn_attrs(g.attrs))};
}

OpDef& lrn_common(OpDef& d) {
  return d.type_attr("T", kFloatTypes)
      .attr("depth_radius", AttrType::kInt, int64_t{5})
      .attr("bias", AttrType::kFloat, 1.0)
      .attr("alpha", AttrType::kFloat, 1.0)
      .attr("beta", AttrType::kFloat, 0.5)
      .cpu_kernels(lrn_cpu_kernel);
}

Attrs api_attrs(int64_t depth_radius, double bias, double alpha, double beta) {
  return {{"depth_radius", depth_radius}, {"bias", bias}, {"alpha", alpha}, {"beta", beta}};
}

}  // namespace

void register_lrn_ops(OpRegistry& r) {
  lrn_common(r.add("LRN").input("input", "T").output("output", "T"))
      .shape_fn(lrn_shape)
      .gradient(lrn_rule);
  // TensorFlow registers no gradient for LRNGrad either.
  lrn_common(r.add("LRNGrad")
                 .input("input_grads", "T")
                 .input("input_image", "T")
                 .input("output_image", "T")
                 .output("output", "T"))
      .shape_fn(lrn_grad_shape)
      .not_differentiable();
}

namespace nn {

Tensor local_response_normalization(const Tensor& input, int64_t depth_radius, double bias,
                                    double alpha, double beta, Loc loc) {
  static const OpDef& op = op_def("LRN");
  Tensor in[] = {input};
  return dispatch1(op, in, api_attrs(depth_radius, bias, alpha, beta), loc);
}

Tensor lrn_grad(const Tensor& input_grads, const Tensor& input_image, const Tensor& output_image,
                int64_t depth_radius, double bias, double alpha, double beta, Loc loc) {
  static const OpDef& op = op_def("LRNGrad");
  Tensor in[] = {input_grads, input_image, output_image};
  return dispatch1(op, in, api_attrs(depth_radius, bias, alpha, beta), loc);
}

}  // namespace nn
}  // namespace tfcc
