// FusedBatchNormV3 / FusedBatchNormGradV3 (channels last): signatures, TensorFlow's shape checks
// and messages, the gradient rule, and the batch-norm API with its composites (moments,
// batch_normalization, layer_normalization).
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

std::string pshape(const PartialShape& s) {
  if (!s.rank_known()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ",";
    out += s.dim(i) < 0 ? std::string("?") : std::to_string(s.dim(i));
  }
  return out + "]";
}

void check_format(const InferenceContext& c) {
  const auto& f = c.attr<std::string>("data_format");
  if (f != "NHWC" && f != "NDHWC") {
    c.fail(
        internal::str_cat("tfcc supports channels-last data_format (NHWC, NDHWC) only, got ", f));
  }
}

// A rank-1 input of `what` whose size must match `channels` (when both are known).
void check_vector(const InferenceContext& c, int i, const char* rank_name, const char* size_name,
                  int64_t channels) {
  PartialShape s = c.shape(i);
  if (!s.rank_known()) return;
  if (s.rank() != 1) c.fail(internal::str_cat(rank_name, " must be 1-dimensional", pshape(s)));
  if (size_name != nullptr && channels >= 0 && s.dim(0) >= 0 && s.dim(0) != channels) {
    c.fail(internal::str_cat(size_name, " must have the same number of elements as the channels ",
                             "of x, got ", s.dim(0), " and ", channels));
  }
}

int64_t channels_of(const InferenceContext& c, const PartialShape& x, const char* what) {
  if (!x.rank_known()) return -1;
  if (x.rank() != 4 && x.rank() != 5) {
    c.fail(internal::str_cat(what, " must be 4 or 5-dimensional", pshape(x)));
  }
  return x.dim(x.rank() - 1);
}

std::vector<OutputSpec> fused_batch_norm_shape(const InferenceContext& c) {
  check_format(c);
  PartialShape x = c.shape(0);
  const int64_t ch = channels_of(c, x, "input");
  check_vector(c, 1, "scale", "scale", ch);
  check_vector(c, 2, "offset", "offset", ch);
  const bool training = c.attr<bool>("is_training");
  const bool blend = c.attr<double>("exponential_avg_factor") != 1.0;
  const char* mean_name = nullptr;
  const char* var_name = nullptr;
  if (!training) {
    mean_name = "When is_training=false, mean";
    var_name = "When is_training=false, variance";
  } else if (blend) {
    mean_name = "When exponential_avg_factor != 1, mean";
    var_name = "When exponential_avg_factor != 1, variance";
  }
  check_vector(c, 3, "estimated_mean", mean_name, ch);
  check_vector(c, 4, "estimated_variance", var_name, ch);
  const DType t = c.dtype(0);
  PartialShape vec(std::vector<int64_t>{ch});
  return {{t, x},   {t, vec}, {t, vec},
          {t, vec}, {t, vec}, {t, PartialShape(std::vector<int64_t>{0})}};
}

std::vector<OutputSpec> fused_batch_norm_grad_shape(const InferenceContext& c) {
  check_format(c);
  PartialShape dy = c.shape(0), x = c.shape(1);
  channels_of(c, dy, "input");
  const int64_t ch = channels_of(c, x, "input");
  if (!dy.is_compatible_with(x)) {
    c.fail("x and y_backprop must have same shape, but x has shape " + pshape(x) +
           " and y_backprop has shape " + pshape(dy));
  }
  check_vector(c, 2, "scale", "scale", ch);
  check_vector(c, 3, "saved mean", "reserve_space_1", ch);
  check_vector(c, 4, "saved variance", "reserve_space_2", ch);
  const DType t = c.dtype(0);
  PartialShape vec(std::vector<int64_t>{ch}), none(std::vector<int64_t>{0});
  return {{t, x}, {t, vec}, {t, vec}, {t, none}, {t, none}};
}

std::vector<Tensor> fused_batch_norm_grad(const GradContext& g) {
  static const OpDef& op = op_def("FusedBatchNormGradV3");
  Tensor in[] = {g.grads[0], g.inputs[0], g.inputs[1], g.outputs[3], g.outputs[4], g.outputs[5]};
  std::vector<Tensor> r = dispatch(op, in,
                                   {{"epsilon", g.attrs.get<double>("epsilon")},
                                    {"data_format", g.attrs.get<std::string>("data_format")},
                                    {"is_training", g.attrs.get<bool>("is_training")}});
  // Like TensorFlow, no gradient for the population mean and variance.
  return {r[0], r[1], r[2], Tensor(), Tensor()};
}

// The gradient of FusedBatchNormGradV3 (dx, dscale, doffset as functions of dy, x, scale).
// Training: the saved statistics are recomputed from x, so the result is the second derivative
// of the whole normalisation (like TensorFlow's, the saved mean/variance inputs get none).
// With m the mean over the non-channel axes, xh = (x - mean) * inv, inv = rsqrt(var + eps):
//   dx = scale * inv * (dy - m(dy) - xh * m(dy * xh)),  dscale = sum(dy * xh),  doffset = sum(dy)
std::vector<Tensor> fused_batch_norm_grad_grad(const GradContext& g) {
  const Tensor &dy = g.inputs[0], &x = g.inputs[1], &scale = g.inputs[2];
  const Tensor &gx = g.grads[0], &gs = g.grads[1], &go = g.grads[2];
  const double eps = g.attrs.get<double>("epsilon");
  std::vector<int64_t> axes;
  for (int i = 0; i + 1 < x.partial_shape().rank(); ++i) axes.push_back(i);
  auto m = [&](const Tensor& t) { return reduce_mean(t, axes, true); };
  auto sum = [&](const Tensor& t) { return reduce_sum(t, axes, false); };
  if (!g.attrs.get<bool>("is_training")) {
    Tensor inv = rsqrt(add(g.inputs[4], eps));
    Tensor xh = multiply(subtract(x, g.inputs[3]), inv);
    Tensor d_dy = add(add(multiply(gx, multiply(scale, inv)), multiply(gs, xh)), go);
    Tensor d_x = multiply(multiply(gs, dy), inv);
    Tensor d_scale = sum(multiply(multiply(gx, dy), inv));
    return {d_dy, d_x, d_scale, Tensor(), Tensor(), Tensor()};
  }
  Tensor mean = m(x);
  Tensor centered = subtract(x, mean);
  Tensor inv = rsqrt(add(m(square(centered)), eps));
  Tensor xh = multiply(centered, inv);
  Tensor a = multiply(scale, inv);
  Tensor dyc = subtract(dy, m(dy));
  Tensor c = m(multiply(dy, xh));
  Tensor tm = m(multiply(gx, xh));
  // Projection P(v) = v - m(v) - xh * m(v * xh) (symmetric).
  auto project = [&](const Tensor& v) {
    return subtract(subtract(v, m(v)), multiply(xh, m(multiply(v, xh))));
  };
  Tensor d_dy = add(add(go, multiply(gs, xh)), multiply(a, project(gx)));
  Tensor d_scale = sum(multiply(multiply(gx, subtract(dyc, multiply(xh, c))), inv));
  // Through xh (holding inv) and through inv.
  Tensor u = add(negative(multiply(a, add(multiply(dy, tm), multiply(c, gx)))), multiply(gs, dy));
  Tensor via_inv = multiply(multiply(scale, subtract(m(multiply(gx, dyc)), multiply(c, tm))),
                            multiply(square(inv), xh));
  Tensor d_x = subtract(multiply(inv, project(u)), via_inv);
  return {d_dy, d_x, d_scale, Tensor(), Tensor(), Tensor()};
}

}  // namespace

void register_batch_norm_ops(OpRegistry& r) {
  r.add("FusedBatchNormV3")
      .input("x", "T")
      .input("scale", "T")
      .input("offset", "T")
      .input("mean", "T")
      .input("variance", "T")
      .output("y", "T")
      .output("batch_mean", "T")
      .output("batch_variance", "T")
      .output("reserve_space_1", "T")
      .output("reserve_space_2", "T")
      .output("reserve_space_3", "T")
      .type_attr("T", kFloatTypes)
      .attr("epsilon", AttrType::kFloat, 0.0001)
      .attr("exponential_avg_factor", AttrType::kFloat, 1.0)
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .attr("is_training", AttrType::kBool, true)
      .shape_fn(fused_batch_norm_shape)
      .cpu_kernels(batch_norm_cpu_kernel)
      .gradient(fused_batch_norm_grad);
  r.add("FusedBatchNormGradV3")
      .input("y_backprop", "T")
      .input("x", "T")
      .input("scale", "T")
      .input("reserve_space_1", "T")
      .input("reserve_space_2", "T")
      .input("reserve_space_3", "T")
      .output("x_backprop", "T")
      .output("scale_backprop", "T")
      .output("offset_backprop", "T")
      .output("reserve_space_4", "T")
      .output("reserve_space_5", "T")
      .type_attr("T", kFloatTypes)
      .attr("epsilon", AttrType::kFloat, 0.0001)
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .attr("is_training", AttrType::kBool, true)
      .shape_fn(fused_batch_norm_grad_shape)
      .cpu_kernels(batch_norm_cpu_kernel)
      .gradient(fused_batch_norm_grad_grad);
}

namespace nn_internal {

std::vector<Tensor> fused_batch_norm_v3(const Tensor& x, const Tensor& scale, const Tensor& offset,
                                        const Tensor& mean, const Tensor& variance, double epsilon,
                                        double exponential_avg_factor,
                                        const std::string& data_format, bool is_training,
                                        std::source_location loc) {
  static const OpDef& op = op_def("FusedBatchNormV3");
  Tensor in[] = {x, scale, offset, mean, variance};
  return dispatch(op, in,
                  {{"epsilon", epsilon},
                   {"exponential_avg_factor", exponential_avg_factor},
                   {"data_format", data_format},
                   {"is_training", is_training}},
                  loc);
}

}  // namespace nn_internal

namespace nn {

FusedBatchNormResult fused_batch_norm(const Tensor& x, const Tensor& scale, const Tensor& offset,
                                      const Tensor& mean, const Tensor& variance,
                                      const FusedBatchNormOptions& o, Loc loc) {
  PartialShape xs = x.partial_shape();
  if (!xs.rank_known() || xs.rank() < 2 || xs.rank() > 5) {
    throw InvalidArgumentError(internal::str_cat(
        "fused_batch_norm: x must have rank 2 to 5 (channels last), got shape ", pshape(xs)));
  }
  const int rank = xs.rank();
  Tensor x4 = x;
  if (rank < 4) {
    std::vector<int64_t> d = xs.dims();
    for (size_t i = 1; i < d.size(); ++i) {
      if (d[i] < 0) {
        throw InvalidArgumentError(
            "fused_batch_norm: dimensions after the first must be known, "
            "got shape " +
            pshape(xs));
      }
    }
    d[0] = -1;
    d.insert(d.begin() + 1, static_cast<size_t>(4 - rank), int64_t{1});
    x4 = reshape(x, d, loc);
  }
  auto none = [&](const Tensor& t) { return t.defined() ? t : Tensor::empty(x.dtype(), Shape{0}); };
  std::vector<Tensor> r =
      nn_internal::fused_batch_norm_v3(x4, scale, offset, none(mean), none(variance), o.epsilon,
                                       o.exponential_avg_factor, o.data_format, o.is_training, loc);
  Tensor y = r[0];
  if (rank < 4) {
    std::vector<int64_t> d = xs.dims();
    d[0] = -1;
    y = reshape(y, d, loc);
  }
  return {y, r[1], r[2], r[3], r[4]};
}

Tensor batch_normalization(const Tensor& x, const Tensor& mean, const Tensor& variance,
                           const Tensor& offset, const Tensor& scale, double variance_epsilon,
                           Loc loc) {
  Tensor inv = rsqrt(add(variance, variance_epsilon, loc), loc);
  if (scale.defined()) inv = multiply(inv, scale, loc);
  Tensor shift = offset.defined() ? subtract(offset, multiply(mean, inv, loc), loc)
                                  : negative(multiply(mean, inv, loc), loc);
  return add(multiply(x, inv, loc), shift, loc);
}

Moments moments(const Tensor& x, const std::vector<int64_t>& axes, bool keepdims, Loc loc) {
  Tensor mean = reduce_mean(x, axes, true, loc);
  // The mean's gradient through the variance is zero; stop it, as TensorFlow does.
  Tensor variance =
      reduce_mean(squared_difference(x, stop_gradient(mean, loc), loc), axes, true, loc);
  if (!keepdims) {
    mean = squeeze(mean, axes, loc);
    variance = squeeze(variance, axes, loc);
  }
  return {mean, variance};
}

Tensor layer_normalization(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                           const std::vector<int64_t>& axes, double epsilon, Loc loc) {
  Moments m = moments(x, axes, true, loc);
  return batch_normalization(x, m.mean, m.variance, beta, gamma, epsilon, loc);
}

}  // namespace nn
}  // namespace tfcc
