// Definitions of the conv3d family's convolutions: Conv3D, Conv3DBackpropInputV2 and
// Conv3DBackpropFilterV2 (TensorFlow's names; the size argument, a tensor input in TensorFlow,
// is an attribute here as in every tfcc op), their shape functions, gradient rules (each
// backprop op's gradient is another conv3d op, so gradients of gradients work) and the API.
// The family registers its pooling ops too (pool3d.cc).
#include "tfcc/ops/conv3d/conv3d.h"

#include "tfcc/ops/conv3d/conv3d_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

void register_pool3d_ops(OpRegistry& r);

namespace {

Attrs conv_attrs(const Attrs& a) {
  return {{"strides", a.get<std::vector<int64_t>>("strides")},
          {"padding", a.get<std::string>("padding")},
          {"data_format", a.get<std::string>("data_format")},
          {"dilations", a.get<std::vector<int64_t>>("dilations")}};
}

std::vector<OutputSpec> forward_shape(const InferenceContext& c) {
  const Window3D g = conv3d_geometry(c.op(), c.attrs(), c.shape(0), c.shape(1));
  return {{c.dtype(0), PartialShape(g.output_dims())}};
}

// Checks a backprop op's size attribute and out_backprop against the forward geometry.
// `data`: input gradient (sizes are the input's), else the filter's.
Window3D backprop_check(const InferenceContext& c, bool data) {
  const char* attr = data ? "input_sizes" : "filter_sizes";
  std::vector<int64_t> sizes = c.attr<std::vector<int64_t>>(attr);
  const std::string who = c.op().name();
  if (sizes.size() != 5) {
    c.fail(internal::str_cat(who, ": ", attr, " must have 5 elements, got ", sizes.size()));
  }
  for (size_t i = 0; i < 5; ++i) {
    if (sizes[i] < 0 && !(data && i == 0 && sizes[i] == -1)) {
      c.fail(
          internal::str_cat(who, ": ", attr, " must be non-negative, got ", dims3d_string(sizes)));
    }
  }
  const PartialShape dy = c.shape(1);
  if (dy.rank_known() && dy.rank() != 5) {
    c.fail(
        internal::str_cat(who, ": out_backprop must be 5-dimensional, got shape ", dy.to_string()));
  }
  if (data && sizes[0] == -1 && dy.rank_known()) sizes[0] = dy.dim(0);
  const PartialShape in = data ? PartialShape(sizes) : c.shape(0);
  const PartialShape f = data ? c.shape(0) : PartialShape(sizes);
  const Window3D g = conv3d_geometry(c.op(), c.attrs(), in, f);
  if (dy.rank_known()) {
    const std::vector<int64_t> want = g.output_dims();
    const char* names[] = {"batch", "planes", "rows", "cols", "out_depth"};
    for (int i = 0; i < 5; ++i) {
      if (want[size_t(i)] >= 0 && dy.dim(i) >= 0 && want[size_t(i)] != dy.dim(i)) {
        c.fail(internal::str_cat(
            who, ": Size of out_backprop doesn't match computed: actual = ", dy.dim(i),
            ", computed = ", want[size_t(i)], " (", names[i], "); out_backprop ", dy.to_string(),
            ", expected ", dims3d_string(want)));
      }
    }
  }
  return g;
}

std::vector<OutputSpec> backprop_input_shape(const InferenceContext& c) {
  return {{c.dtype(0), PartialShape(backprop_check(c, true).input_dims())}};
}

std::vector<OutputSpec> backprop_filter_shape(const InferenceContext& c) {
  backprop_check(c, false);
  return {{c.dtype(0), PartialShape(c.attr<std::vector<int64_t>>("filter_sizes"))}};
}

// The static shape of a tensor as a size attribute; an unknown batch (traced code) becomes -1.
std::vector<int64_t> sizes_of(const Tensor& t, const char* what, bool allow_batch) {
  const PartialShape s = t.partial_shape();
  bool ok = s.rank_known();
  for (int i = allow_batch ? 1 : 0; ok && i < s.rank(); ++i) ok = s.dim(i) >= 0;
  if (!ok) {
    throw InvalidArgumentError(
        internal::str_cat("the gradient of a 3-D convolution needs static dimensions of its ", what,
                          ", got ", s.rank_known() ? s.to_string() : std::string("unknown rank")));
  }
  return s.dims();
}

const OpDef& conv_op() {
  static const OpDef& d = op_def("Conv3D");
  return d;
}
const OpDef& input_op() {
  static const OpDef& d = op_def("Conv3DBackpropInputV2");
  return d;
}
const OpDef& filter_op() {
  static const OpDef& d = op_def("Conv3DBackpropFilterV2");
  return d;
}

Tensor call_conv(const Tensor& x, const Tensor& f, Attrs a, Loc loc = Loc::current()) {
  Tensor in[] = {x, f};
  return dispatch1(conv_op(), in, std::move(a), loc);
}
Tensor call_input(std::vector<int64_t> sizes, const Tensor& f, const Tensor& dy, Attrs a,
                  Loc loc = Loc::current()) {
  Tensor in[] = {f, dy};
  a.set("input_sizes", std::move(sizes));
  return dispatch1(input_op(), in, std::move(a), loc);
}
Tensor call_filter(const Tensor& x, std::vector<int64_t> sizes, const Tensor& dy, Attrs a,
                   Loc loc = Loc::current()) {
  Tensor in[] = {x, dy};
  a.set("filter_sizes", std::move(sizes));
  return dispatch1(filter_op(), in, std::move(a), loc);
}

// y = conv(x, f): dx = BackpropInput(shape(x), f, dy), df = BackpropFilter(x, shape(f), dy).
std::vector<Tensor> conv_grad(const GradContext& g) {
  const Tensor &x = g.inputs[0], &f = g.inputs[1], &dy = g.grads[0];
  Tensor dx, df;
  if (g.input_needed(0)) dx = call_input(sizes_of(x, "input", true), f, dy, conv_attrs(g.attrs));
  if (g.input_needed(1)) df = call_filter(x, sizes_of(f, "filter", false), dy, conv_attrs(g.attrs));
  return {dx, df};
}

// BackpropInput(sizes, f, dy) is linear in f and dy.
std::vector<Tensor> backprop_input_grad(const GradContext& g) {
  const Tensor &f = g.inputs[0], &dy = g.inputs[1], &gr = g.grads[0];
  Tensor df, ddy;
  if (g.input_needed(0)) {
    df = call_filter(gr, sizes_of(f, "filter", false), dy, conv_attrs(g.attrs));
  }
  if (g.input_needed(1)) ddy = call_conv(gr, f, conv_attrs(g.attrs));
  return {df, ddy};
}

// BackpropFilter(x, sizes, dy) is linear in x and dy.
std::vector<Tensor> backprop_filter_grad(const GradContext& g) {
  const Tensor &x = g.inputs[0], &dy = g.inputs[1], &gr = g.grads[0];
  Tensor dx, ddy;
  if (g.input_needed(0)) dx = call_input(sizes_of(x, "input", true), gr, dy, conv_attrs(g.attrs));
  if (g.input_needed(1)) ddy = call_conv(x, gr, conv_attrs(g.attrs));
  return {dx, ddy};
}

OpDef& conv_common(OpDef& d) {
  return d.type_attr("T", kFloatTypes)
      .attr("strides", AttrType::kInts)
      .attr("padding", AttrType::kString)
      .attr("data_format", AttrType::kString, std::string("NDHWC"))
      .attr("dilations", AttrType::kInts, std::vector<int64_t>{1, 1, 1, 1, 1})
      .cpu_kernels(conv3d_cpu_kernel);
}

// TensorFlow's NDHWC window vector from 1 (every spatial dim), 3 or 5 values.
std::vector<int64_t> ndhwc(std::vector<int64_t> v, const char* name) {
  if (v.size() == 1) return {1, v[0], v[0], v[0], 1};
  if (v.size() == 3) return {1, v[0], v[1], v[2], 1};
  if (v.size() == 5) return v;
  throw InvalidArgumentError(
      internal::str_cat(name, " should be of length 1, 3 or 5 but was ", v.size()));
}

Attrs api_attrs(std::vector<int64_t> strides, const std::string& padding,
                std::vector<int64_t> dilations) {
  return {{"strides", ndhwc(std::move(strides), "strides")},
          {"padding", padding},
          {"dilations", ndhwc(std::move(dilations), "dilations")}};
}

}  // namespace

std::vector<int64_t> conv3d_window_vector(std::vector<int64_t> v, const char* name) {
  return ndhwc(std::move(v), name);
}

void register_conv3d_ops(OpRegistry& r) {
  conv_common(r.add("Conv3D").input("input", "T").input("filter", "T").output("output", "T"))
      .shape_fn(forward_shape)
      .gradient(conv_grad);
  conv_common(r.add("Conv3DBackpropInputV2")
                  .input("filter", "T")
                  .input("out_backprop", "T")
                  .output("output", "T"))
      .attr("input_sizes", AttrType::kInts)
      .shape_fn(backprop_input_shape)
      .gradient(backprop_input_grad);
  conv_common(r.add("Conv3DBackpropFilterV2")
                  .input("input", "T")
                  .input("out_backprop", "T")
                  .output("output", "T"))
      .attr("filter_sizes", AttrType::kInts)
      .shape_fn(backprop_filter_shape)
      .gradient(backprop_filter_grad);
  register_pool3d_ops(r);
}

Tensor conv3d(const Tensor& input, const Tensor& filters, std::vector<int64_t> strides,
              const std::string& padding, std::vector<int64_t> dilations, Loc loc) {
  return call_conv(input, filters, api_attrs(std::move(strides), padding, std::move(dilations)),
                   loc);
}

Tensor conv3d_backprop_input(std::vector<int64_t> input_sizes, const Tensor& filter,
                             const Tensor& out_backprop, std::vector<int64_t> strides,
                             const std::string& padding, std::vector<int64_t> dilations, Loc loc) {
  return call_input(std::move(input_sizes), filter, out_backprop,
                    api_attrs(std::move(strides), padding, std::move(dilations)), loc);
}

Tensor conv3d_transpose(const Tensor& input, const Tensor& filters,
                        std::vector<int64_t> output_shape, std::vector<int64_t> strides,
                        const std::string& padding, std::vector<int64_t> dilations, Loc loc) {
  return conv3d_backprop_input(std::move(output_shape), filters, input, std::move(strides), padding,
                               std::move(dilations), loc);
}

Tensor conv3d_backprop_filter(const Tensor& input, std::vector<int64_t> filter_sizes,
                              const Tensor& out_backprop, std::vector<int64_t> strides,
                              const std::string& padding, std::vector<int64_t> dilations, Loc loc) {
  return call_filter(input, std::move(filter_sizes), out_backprop,
                     api_attrs(std::move(strides), padding, std::move(dilations)), loc);
}

}  // namespace tfcc
