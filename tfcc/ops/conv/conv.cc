// Definitions of the conv family: Conv2D, DepthwiseConv2dNative, their backprop ops and
// _FusedConv2D; shape functions (TensorFlow's geometry, conv_geometry.cc), gradient rules
// (TensorFlow's nn_grad formulas: every backprop op's gradient is another conv op, so gradients
// of gradients work), and the typed API.
#include "tfcc/ops/conv/conv.h"

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/linalg/fused.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::string dims_string(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += internal::str_cat(i ? "," : "", d[i]);
  return s + "]";
}

bool depthwise(const OpDef& op) { return op.name().rfind("Depthwise", 0) == 0; }

// The common attributes of every conv op, copied from a call's attributes.
Attrs conv_attrs(const Attrs& a) {
  return {{"strides", a.get<std::vector<int64_t>>("strides")},
          {"padding", a.get<std::string>("padding")},
          {"explicit_paddings", a.get<std::vector<int64_t>>("explicit_paddings")},
          {"data_format", a.get<std::string>("data_format")},
          {"dilations", a.get<std::vector<int64_t>>("dilations")}};
}

std::vector<OutputSpec> forward_shape(const InferenceContext& c) {
  const ConvGeometry g =
      conv_geometry(c.op(), c.attrs(), c.shape(0), c.shape(1), depthwise(c.op()));
  if (c.op().name() == "_FusedConv2D") {
    const std::string& act = c.attr<std::string>("activation");
    if (!fused::is_activation(act)) c.fail(fused::unsupported_message(act));
    const PartialShape b = c.shape(2);
    if (b.rank_known() &&
        (b.rank() != 1 || (b.dim(0) >= 0 && g.out_c >= 0 && b.dim(0) != g.out_c))) {
      c.fail(internal::str_cat("bias must be a vector of the filter's output channels (", g.out_c,
                               "), got shape ", b.to_string()));
    }
  }
  return {{c.dtype(0), PartialShape(g.output_dims())}};
}

// Checks a backprop op's size attribute and out_backprop against the forward geometry; returns
// the geometry. `data`: input gradient (sizes are the input's), else the filter's.
ConvGeometry backprop_check(const InferenceContext& c, bool data) {
  const char* attr = data ? "input_sizes" : "filter_sizes";
  std::vector<int64_t> sizes = c.attr<std::vector<int64_t>>(attr);
  const std::string who = c.op().name();
  if (sizes.size() != 4) {
    c.fail(internal::str_cat(who, ": ", attr, " must have 4 elements, got ", sizes.size()));
  }
  const PartialShape dy = c.shape(1);
  if (dy.rank_known() && dy.rank() != 4) {
    c.fail(
        internal::str_cat(who, ": out_backprop must be 4-dimensional, got shape ", dy.to_string()));
  }
  for (size_t i = 0; i < 4; ++i) {
    if (sizes[i] < 0 && !(data && i == 0 && sizes[i] == -1)) {
      c.fail(internal::str_cat(who, ": ", attr, " must be non-negative, got ", dims_string(sizes)));
    }
  }
  if (data && sizes[0] == -1 && dy.rank_known()) sizes[0] = dy.dim(0);
  const PartialShape in = data ? PartialShape(sizes) : c.shape(0);
  const PartialShape f = data ? c.shape(0) : PartialShape(sizes);
  const ConvGeometry g = conv_geometry(c.op(), c.attrs(), in, f, depthwise(c.op()));
  if (dy.rank_known()) {
    const std::vector<int64_t> want = g.output_dims();
    const char* names[] = {"batch", "rows", "cols", "out_depth"};
    for (int i = 0; i < 4; ++i) {
      if (want[size_t(i)] >= 0 && dy.dim(i) >= 0 && want[size_t(i)] != dy.dim(i)) {
        c.fail(internal::str_cat(
            who, ": Size of out_backprop doesn't match computed: actual = ", dy.dim(i),
            ", computed = ", want[size_t(i)], " (", names[i], "); out_backprop ", dy.to_string(),
            ", expected ", dims_string(want)));
      }
    }
  }
  return g;
}

std::vector<OutputSpec> backprop_input_shape(const InferenceContext& c) {
  const ConvGeometry g = backprop_check(c, true);
  return {{c.dtype(0), PartialShape(g.input_dims())}};
}

std::vector<OutputSpec> backprop_filter_shape(const InferenceContext& c) {
  backprop_check(c, false);
  return {{c.dtype(0), PartialShape(c.attr<std::vector<int64_t>>("filter_sizes"))}};
}

// The static size of a tensor as a size attribute; a batch dim unknown at trace time becomes -1
// (resolved from out_backprop at run time).
std::vector<int64_t> sizes_of(const Tensor& t, const char* what, bool allow_batch) {
  const PartialShape s = t.partial_shape();
  if (!s.rank_known()) {
    throw InvalidArgumentError(
        internal::str_cat("the gradient of a convolution needs the rank of its ", what));
  }
  std::vector<int64_t> d = s.dims();
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] < 0 && !(allow_batch && i == 0)) {
      throw InvalidArgumentError(
          internal::str_cat("the gradient of a convolution needs static dimensions of its ", what,
                            ", got ", s.to_string()));
    }
  }
  return d;
}

const OpDef& conv_op(bool dw) {
  static const OpDef& c = op_def("Conv2D");
  static const OpDef& d = op_def("DepthwiseConv2dNative");
  return dw ? d : c;
}
const OpDef& input_op(bool dw) {
  static const OpDef& c = op_def("Conv2DBackpropInput");
  static const OpDef& d = op_def("DepthwiseConv2dNativeBackpropInput");
  return dw ? d : c;
}
const OpDef& filter_op(bool dw) {
  static const OpDef& c = op_def("Conv2DBackpropFilter");
  static const OpDef& d = op_def("DepthwiseConv2dNativeBackpropFilter");
  return dw ? d : c;
}

Tensor call_conv(bool dw, const Tensor& x, const Tensor& f, const Attrs& a) {
  Tensor in[] = {x, f};
  return dispatch1(conv_op(dw), in, conv_attrs(a));
}
Tensor call_input(bool dw, std::vector<int64_t> sizes, const Tensor& f, const Tensor& dy,
                  const Attrs& a) {
  Tensor in[] = {f, dy};
  Attrs attrs = conv_attrs(a);
  attrs.set("input_sizes", std::move(sizes));
  return dispatch1(input_op(dw), in, std::move(attrs));
}
Tensor call_filter(bool dw, const Tensor& x, std::vector<int64_t> sizes, const Tensor& dy,
                   const Attrs& a) {
  Tensor in[] = {x, dy};
  Attrs attrs = conv_attrs(a);
  attrs.set("filter_sizes", std::move(sizes));
  return dispatch1(filter_op(dw), in, std::move(attrs));
}

// y = conv(x, f): dx = BackpropInput(shape(x), f, dy), df = BackpropFilter(x, shape(f), dy).
std::vector<Tensor> conv_grad(const GradContext& g) {
  const bool dw = depthwise(g.op);
  const Tensor &x = g.inputs[0], &f = g.inputs[1], &dy = g.grads[0];
  Tensor dx, df;
  if (g.input_needed(0)) dx = call_input(dw, sizes_of(x, "input", true), f, dy, g.attrs);
  if (g.input_needed(1)) df = call_filter(dw, x, sizes_of(f, "filter", false), dy, g.attrs);
  return {dx, df};
}

// dx = BackpropInput(sizes, f, dy) is linear in f and dy: d f = BackpropFilter(grad, shape(f),
// dy), d dy = conv(grad, f).
std::vector<Tensor> backprop_input_grad(const GradContext& g) {
  const bool dw = depthwise(g.op);
  const Tensor &f = g.inputs[0], &dy = g.inputs[1], &gr = g.grads[0];
  Tensor df, ddy;
  if (g.input_needed(0)) df = call_filter(dw, gr, sizes_of(f, "filter", false), dy, g.attrs);
  if (g.input_needed(1)) ddy = call_conv(dw, gr, f, g.attrs);
  return {df, ddy};
}

// df = BackpropFilter(x, sizes, dy): d x = BackpropInput(shape(x), grad, dy), d dy = conv(x, grad).
std::vector<Tensor> backprop_filter_grad(const GradContext& g) {
  const bool dw = depthwise(g.op);
  const Tensor &x = g.inputs[0], &dy = g.inputs[1], &gr = g.grads[0];
  Tensor dx, ddy;
  if (g.input_needed(0)) dx = call_input(dw, sizes_of(x, "input", true), gr, dy, g.attrs);
  if (g.input_needed(1)) ddy = call_conv(dw, x, gr, g.attrs);
  return {dx, ddy};
}

// y = act(conv(x, f) + b): dz from the activation, then Conv2D's rule and db = sum(dz).
std::vector<Tensor> fused_conv_grad(const GradContext& g) {
  const Tensor &x = g.inputs[0], &f = g.inputs[1], &b = g.inputs[2];
  const std::string& act = g.attrs.get<std::string>("activation");
  const Tensor dz =
      fused::activation_grad(act, g.attrs.get<double>("leakyrelu_alpha"), g.outputs[0], g.grads[0],
                             [&] { return call_conv(false, x, f, g.attrs) + b; });
  Tensor dx, df, db;
  if (g.input_needed(0)) dx = call_input(false, sizes_of(x, "input", true), f, dz, g.attrs);
  if (g.input_needed(1)) df = call_filter(false, x, sizes_of(f, "filter", false), dz, g.attrs);
  if (g.input_needed(2)) db = reduce_sum(dz, {0, 1, 2});
  return {dx, df, db};
}

OpDef& conv_common(OpDef& d) {
  return d.type_attr("T", kFloatTypes)
      .attr("strides", AttrType::kInts)
      .attr("padding", AttrType::kString)
      .attr("explicit_paddings", AttrType::kInts, std::vector<int64_t>{})
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .attr("dilations", AttrType::kInts, std::vector<int64_t>{1, 1, 1, 1})
      .cpu_kernels(conv_cpu_kernel);
}

// TensorFlow's normalisation of strides / dilations: 1 value -> [1, s, s, 1], 2 -> [1, a, b, 1].
std::vector<int64_t> nhwc_sequence(std::vector<int64_t> v, const char* name) {
  if (v.size() == 1) return {1, v[0], v[0], 1};
  if (v.size() == 2) return {1, v[0], v[1], 1};
  if (v.size() == 4) return v;
  throw InvalidArgumentError(
      internal::str_cat(name, " should be of length 1, 2 or 4 but was ", v.size()));
}

Attrs api_attrs(std::vector<int64_t> strides, const Padding& p, std::vector<int64_t> dilations) {
  return {{"strides", nhwc_sequence(std::move(strides), "strides")},
          {"padding", p.mode},
          {"explicit_paddings", p.explicit_pads},
          {"dilations", nhwc_sequence(std::move(dilations), "dilations")}};
}

}  // namespace

Padding::Padding(std::initializer_list<std::pair<int64_t, int64_t>> pairs) : mode("EXPLICIT") {
  if (pairs.size() != 4) {
    throw InvalidArgumentError(internal::str_cat(
        "explicit padding must have 4 (before, after) pairs (NHWC), got ", pairs.size()));
  }
  for (const auto& [a, b] : pairs) {
    explicit_pads.push_back(a);
    explicit_pads.push_back(b);
  }
}

void register_conv_ops(OpRegistry& r) {
  for (const char* name : {"Conv2D", "DepthwiseConv2dNative"}) {
    conv_common(r.add(name).input("input", "T").input("filter", "T").output("output", "T"))
        .shape_fn(forward_shape)
        .gradient(conv_grad);
  }
  for (const char* name : {"Conv2DBackpropInput", "DepthwiseConv2dNativeBackpropInput"}) {
    conv_common(r.add(name).input("filter", "T").input("out_backprop", "T").output("output", "T"))
        .attr("input_sizes", AttrType::kInts)
        .shape_fn(backprop_input_shape)
        .gradient(backprop_input_grad);
  }
  for (const char* name : {"Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"}) {
    conv_common(r.add(name).input("input", "T").input("out_backprop", "T").output("output", "T"))
        .attr("filter_sizes", AttrType::kInts)
        .shape_fn(backprop_filter_shape)
        .gradient(backprop_filter_grad);
  }
  conv_common(r.add("_FusedConv2D")
                  .input("input", "T")
                  .input("filter", "T")
                  .input("bias", "T")
                  .output("output", "T"))
      .attr("activation", AttrType::kString, std::string())
      .attr("leakyrelu_alpha", AttrType::kFloat, 0.2)
      .shape_fn(forward_shape)
      .gradient(fused_conv_grad);
}

Tensor conv2d(const Tensor& input, const Tensor& filters, std::vector<int64_t> strides,
              const Padding& padding, std::vector<int64_t> dilations, Loc loc) {
  Tensor in[] = {input, filters};
  return dispatch1(conv_op(false), in, api_attrs(std::move(strides), padding, std::move(dilations)),
                   loc);
}

Tensor conv1d(const Tensor& input, const Tensor& filters, int64_t stride, const Padding& padding,
              int64_t dilation, Loc loc) {
  Padding p = padding;
  if (p.mode == "EXPLICIT") {
    throw InvalidArgumentError("conv1d takes padding \"SAME\" or \"VALID\"");
  }
  const Tensor y = conv2d(expand_dims(input, 1, loc), expand_dims(filters, 0, loc), {1, stride}, p,
                          {1, dilation}, loc);
  return squeeze(y, {1}, loc);
}

Tensor depthwise_conv2d(const Tensor& input, const Tensor& filter, std::vector<int64_t> strides,
                        const Padding& padding, std::vector<int64_t> dilations, Loc loc) {
  Tensor in[] = {input, filter};
  return dispatch1(conv_op(true), in, api_attrs(std::move(strides), padding, std::move(dilations)),
                   loc);
}

Tensor conv2d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                             const Tensor& out_backprop, std::vector<int64_t> strides,
                             const Padding& padding, std::vector<int64_t> dilations, Loc loc) {
  Tensor in[] = {filter, out_backprop};
  Attrs a = api_attrs(std::move(strides), padding, std::move(dilations));
  a.set("input_sizes", std::move(input_sizes));
  return dispatch1(input_op(false), in, std::move(a), loc);
}

Tensor conv2d_transpose(const Tensor& input, const Tensor& filters,
                        std::vector<int64_t> output_shape, std::vector<int64_t> strides,
                        const Padding& padding, std::vector<int64_t> dilations, Loc loc) {
  return conv2d_backprop_input(std::move(output_shape), filters, input, std::move(strides), padding,
                               std::move(dilations), loc);
}

Tensor conv2d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                              const Tensor& out_backprop, std::vector<int64_t> strides,
                              const Padding& padding, std::vector<int64_t> dilations, Loc loc) {
  Tensor in[] = {input, out_backprop};
  Attrs a = api_attrs(std::move(strides), padding, std::move(dilations));
  a.set("filter_sizes", std::move(filter_sizes));
  return dispatch1(filter_op(false), in, std::move(a), loc);
}

Tensor depthwise_conv2d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                                       const Tensor& out_backprop, std::vector<int64_t> strides,
                                       const Padding& padding, std::vector<int64_t> dilations,
                                       Loc loc) {
  Tensor in[] = {filter, out_backprop};
  Attrs a = api_attrs(std::move(strides), padding, std::move(dilations));
  a.set("input_sizes", std::move(input_sizes));
  return dispatch1(input_op(true), in, std::move(a), loc);
}

Tensor depthwise_conv2d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                                        const Tensor& out_backprop, std::vector<int64_t> strides,
                                        const Padding& padding, std::vector<int64_t> dilations,
                                        Loc loc) {
  Tensor in[] = {input, out_backprop};
  Attrs a = api_attrs(std::move(strides), padding, std::move(dilations));
  a.set("filter_sizes", std::move(filter_sizes));
  return dispatch1(filter_op(true), in, std::move(a), loc);
}

Tensor fused_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                    std::vector<int64_t> strides, const Padding& padding,
                    const std::string& activation, std::vector<int64_t> dilations,
                    double leakyrelu_alpha, Loc loc) {
  static const OpDef& op = op_def("_FusedConv2D");
  Tensor in[] = {input, filter, bias};
  Attrs a = api_attrs(std::move(strides), padding, std::move(dilations));
  a.set("activation", activation);
  a.set("leakyrelu_alpha", leakyrelu_alpha);
  return dispatch1(op, in, std::move(a), loc);
}

}  // namespace tfcc
