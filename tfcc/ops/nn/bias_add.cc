// BiasAdd and BiasAddGrad: signatures, shape checks (TensorFlow's messages), gradients and API.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/array/array_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/nn/nn_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

// The channel axis of `rank`-dimensional data in `format` (TensorFlow: NCHW puts channels at
// axis 1 only from rank 3 on).
int64_t channel_axis(const std::string& format, int64_t rank) {
  return format == "NCHW" && rank >= 3 ? 1 : rank - 1;
}

void check_format(const InferenceContext& c) {
  const auto& f = c.attr<std::string>("data_format");
  if (f != "NHWC" && f != "NCHW") {
    c.fail(internal::str_cat("Invalid data format: ", f, " (expected NHWC or NCHW)"));
  }
}

std::string shape_str(const PartialShape& s) {
  if (!s.rank_known()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ",";
    out += s.dim(i) < 0 ? std::string("?") : std::to_string(s.dim(i));
  }
  return out + "]";
}

std::vector<OutputSpec> bias_add_shape(const InferenceContext& c) {
  check_format(c);
  PartialShape x = c.shape(0), b = c.shape(1);
  if (x.rank_known() && x.rank() < 2) {
    c.fail("Input tensor must be at least 2D: " + shape_str(x));
  }
  if (b.rank_known() && b.rank() != 1) c.fail("Biases must be 1D: " + shape_str(b));
  if (x.rank_known() && b.rank_known()) {
    int64_t ch =
        x.dim(static_cast<int>(channel_axis(c.attr<std::string>("data_format"), x.rank())));
    if (ch >= 0 && b.dim(0) >= 0 && ch != b.dim(0)) {
      c.fail(
          internal::str_cat("Must provide as many biases as the last dimension of the input "
                            "tensor: ",
                            shape_str(b), " vs. ", shape_str(x)));
    }
  }
  return {{c.dtype(0), x}};
}

std::vector<OutputSpec> bias_add_grad_shape(const InferenceContext& c) {
  check_format(c);
  PartialShape g = c.shape(0);
  if (!g.rank_known()) return {{c.dtype(0), PartialShape(std::vector<int64_t>{-1})}};
  if (g.rank() < 2) c.fail("Input tensor must be at least 2D: " + shape_str(g));
  int64_t ch = g.dim(static_cast<int>(channel_axis(c.attr<std::string>("data_format"), g.rank())));
  return {{c.dtype(0), PartialShape(std::vector<int64_t>{ch})}};
}

Tensor bias_add_grad(const Tensor& dy, const std::string& format, Loc loc) {
  static const OpDef& op = op_def("BiasAddGrad");
  Tensor in[] = {dy};
  return dispatch1(op, in, {{"data_format", format}}, loc);
}

}  // namespace

void register_bias_add_ops(OpRegistry& r) {
  r.add("BiasAdd")
      .input("value", "T")
      .input("bias", "T")
      .output("output", "T")
      .type_attr("T", kNumericTypes)
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .shape_fn(bias_add_shape)
      .cpu_kernels(bias_add_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        const auto& f = g.attrs.get<std::string>("data_format");
        return {g.grads[0],
                g.input_needed(1) ? bias_add_grad(g.grads[0], f, Loc::current()) : Tensor()};
      });
  declare_in_place(*r.find("BiasAdd"), 0, {0});
  // Its gradient broadcasts the [C] gradient back over the input's shape.
  r.add("BiasAddGrad")
      .input("out_backprop", "T")
      .output("output", "T")
      .type_attr("T", kNumericTypes)
      .attr("data_format", AttrType::kString, std::string("NHWC"))
      .shape_fn(bias_add_grad_shape)
      .cpu_kernels(bias_add_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        std::vector<int64_t> xd = static_dims(g.inputs[0], "The gradient of BiasAddGrad");
        int64_t rank = static_cast<int64_t>(xd.size());
        int64_t axis = channel_axis(g.attrs.get<std::string>("data_format"), rank);
        std::vector<int64_t> dims(static_cast<size_t>(rank), 1);
        dims[static_cast<size_t>(axis)] = -1;
        return {broadcast_to(reshape(g.grads[0], dims), xd)};
      });
}

namespace nn {

Tensor bias_add(const Tensor& value, const Tensor& bias, const std::string& data_format, Loc loc) {
  static const OpDef& op = op_def("BiasAdd");
  Tensor in[] = {value, bias};
  return dispatch1(op, in, {{"data_format", data_format}}, loc);
}

}  // namespace nn
}  // namespace tfcc
