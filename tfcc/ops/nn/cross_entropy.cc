// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits: signatures, shape checks
// with TensorFlow's messages, gradient rules (first and second order), and the loss API
// including the sigmoid_cross_entropy_with_logits and l2_loss composites.
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/kernel_util.h"
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

std::vector<OutputSpec> sparse_xent_shape(const InferenceContext& c) {
  PartialShape f = c.shape(0), l = c.shape(1);
  if (f.rank_known() && f.rank() != 2) c.fail("logits must be 2-D, but got shape " + pshape(f));
  if (l.rank_known() && l.rank() != 1) c.fail("labels must be 1-D, but got shape " + pshape(l));
  int64_t batch = f.rank_known() ? f.dim(0) : -1, classes = f.rank_known() ? f.dim(1) : -1;
  if (l.rank_known()) {
    if (batch >= 0 && l.dim(0) >= 0 && batch != l.dim(0)) {
      c.fail("logits and labels must have the same first dimension, got logits shape " + pshape(f) +
             " and labels shape " + pshape(l));
    }
    if (batch < 0) batch = l.dim(0);
  }
  if (batch > 0 && classes == 0) {
    c.fail("Must have at least one class, but got logits shape " + pshape(f));
  }
  return {{c.dtype(0), PartialShape(std::vector<int64_t>{batch})},
          {c.dtype(0), PartialShape(std::vector<int64_t>{batch, classes})}};
}

std::vector<OutputSpec> xent_shape(const InferenceContext& c) {
  PartialShape f = c.shape(0), l = c.shape(1);
  if (!f.rank_known() || !l.rank_known()) {
    return {{c.dtype(0), PartialShape(std::vector<int64_t>{-1})},
            {c.dtype(0), PartialShape(std::vector<int64_t>{-1, -1})}};
  }
  std::vector<int64_t> out;
  const int rank = std::max(f.rank(), l.rank());
  for (int i = 0; i < rank; ++i) {
    const int fi = i - (rank - f.rank()), li = i - (rank - l.rank());
    const int64_t a = fi >= 0 ? f.dim(fi) : 1, b = li >= 0 ? l.dim(li) : 1;
    if (a >= 0 && b >= 0 && a != b && a != 1 && b != 1) {
      c.fail("logits and labels must be broadcastable: logits_size=" + pshape(f) +
             " labels_size=" + pshape(l));
    }
    out.push_back(a == 1 ? b : (b == 1 ? a : std::max(a, b)));
  }
  if (rank != 2) {
    c.fail("logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
  }
  return {{c.dtype(0), PartialShape(std::vector<int64_t>{out[0]})},
          {c.dtype(0), PartialShape(out)}};
}

// True if both shapes are fully known and equal.
bool same_static_shape(const Tensor& a, const Tensor& b) {
  PartialShape x = a.partial_shape(), y = b.partial_shape();
  if (!x.rank_known() || !y.rank_known() || x.rank() != y.rank()) return false;
  for (int i = 0; i < x.rank(); ++i) {
    if (x.dim(i) < 0 || x.dim(i) != y.dim(i)) return false;
  }
  return true;
}

// True if `t` is a concrete tensor of zeros (the tape fills missing output gradients so): then
// the second-order term is zero and skipped, like TensorFlow's _is_zeros_tensor check.
bool known_zero(const Tensor& t) {
  if (!t.defined()) return true;
  if (t.is_symbolic()) return false;
  const int64_t n = t.num_elements();
  if (t.dtype() == float32) {
    const float* p = t.data<float>();
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] != 0.0f) return false;
    }
    return true;
  }
  if (t.dtype() == float64) {
    const double* p = t.data<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] != 0.0) return false;
    }
    return true;
  }
  return false;
}

// The logits as broadcast against the labels (the shape of the backprop output).
Tensor broadcast_logits(const GradContext& g) {
  if (same_static_shape(g.inputs[0], g.outputs[1])) return g.inputs[0];
  return add(g.inputs[0], zeros_like(g.outputs[1]));
}

// d logits = grad_loss[:, None] * backprop, plus the second-order term
// (gg - sum(gg * softmax)) * softmax when a gradient reaches the backprop output.
Tensor logits_grad(const GradContext& g) {
  Tensor grad = multiply(expand_dims(g.grads[0], -1), g.outputs[1]);
  if (!known_zero(g.grads[1])) {
    const Tensor& gg = g.grads[1];
    Tensor sm = softmax(broadcast_logits(g));
    grad = add(grad, multiply(subtract(gg, reduce_sum(multiply(gg, sm), -1, true)), sm));
  }
  return grad;
}

}  // namespace

void register_cross_entropy_ops(OpRegistry& r) {
  r.add("SparseSoftmaxCrossEntropyWithLogits")
      .input("features", "T")
      .input("labels", "Tlabels")
      .output("loss", "T")
      .output("backprop", "T")
      .type_attr("T", kFloatTypes)
      .type_attr("Tlabels", kIndexTypes)
      .shape_fn(sparse_xent_shape)
      .cpu_kernels(cross_entropy_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {logits_grad(g), Tensor()};
      });
  r.add("SoftmaxCrossEntropyWithLogits")
      .input("features", "T")
      .input("labels", "T")
      .output("loss", "T")
      .output("backprop", "T")
      .type_attr("T", kFloatTypes)
      .shape_fn(xent_shape)
      .cpu_kernels(cross_entropy_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        Tensor dlogits = logits_grad(g);
        Tensor dlabels;
        if (g.input_needed(1)) {
          dlabels =
              multiply(expand_dims(g.grads[0], -1), negative(log_softmax(broadcast_logits(g))));
          // backprop = softmax - labels also depends on the labels (TensorFlow's rule leaves
          // this term out, so its second derivatives through the labels are wrong).
          if (!known_zero(g.grads[1])) dlabels = subtract(dlabels, g.grads[1]);
        }
        // Broadcast inputs get their gradients summed back to their own shapes.
        if (!same_static_shape(g.inputs[0], g.outputs[1])) {
          dlogits = sum_to_shape_of(dlogits, g.inputs[0]);
        }
        if (dlabels.defined() && !same_static_shape(g.inputs[1], g.outputs[1])) {
          dlabels = sum_to_shape_of(dlabels, g.inputs[1]);
        }
        return {dlogits, dlabels};
      });
}

namespace nn {

std::vector<Tensor> sparse_softmax_cross_entropy_with_logits_op(const Tensor& features,
                                                                const Tensor& labels, Loc loc) {
  static const OpDef& op = op_def("SparseSoftmaxCrossEntropyWithLogits");
  Tensor in[] = {features, labels};
  return dispatch(op, in, {}, loc);
}

std::vector<Tensor> softmax_cross_entropy_with_logits_op(const Tensor& features,
                                                         const Tensor& labels, Loc loc) {
  static const OpDef& op = op_def("SoftmaxCrossEntropyWithLogits");
  Tensor in[] = {features, labels};
  return dispatch(op, in, {}, loc);
}

Tensor sparse_softmax_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits,
                                                Loc loc) {
  PartialShape ls = labels.partial_shape(), gs = logits.partial_shape();
  if (gs.rank_known() && gs.rank() == 0) {
    throw InvalidArgumentError("Logits cannot be scalars - received shape " + gs.to_string() + ".");
  }
  if (!gs.rank_known() || !ls.rank_known()) {
    throw UnimplementedError(
        "sparse_softmax_cross_entropy_with_logits needs labels and logits of known rank");
  }
  if (ls.rank() != gs.rank() - 1) {
    throw InvalidArgumentError(
        internal::str_cat("Rank mismatch: Rank of labels (received ", ls.rank(),
                          ") should equal rank of logits minus 1 (received ", gs.rank(), ")."));
  }
  std::vector<int64_t> outer(gs.dims().begin(), gs.dims().end() - 1);
  if (!ls.is_compatible_with(PartialShape(outer))) {
    throw InvalidArgumentError("Shape mismatch: The shape of labels (received " + ls.to_string() +
                               ") should equal the shape of logits except for the last "
                               "dimension (received " +
                               gs.to_string() + ").");
  }
  if (gs.rank() == 2) return sparse_softmax_cross_entropy_with_logits_op(logits, labels, loc)[0];
  const int64_t classes = gs.dim(gs.rank() - 1);
  Tensor loss = sparse_softmax_cross_entropy_with_logits_op(reshape(logits, {-1, classes}, loc),
                                                            reshape(labels, {-1}, loc), loc)[0];
  return reshape(loss, ls.dims(), loc);
}

Tensor softmax_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits, int64_t axis,
                                         Loc loc) {
  PartialShape gs = logits.partial_shape(), ls = labels.partial_shape();
  if (!gs.rank_known() || !ls.rank_known()) {
    throw UnimplementedError(
        "softmax_cross_entropy_with_logits needs labels and logits of known rank");
  }
  const int64_t rank = gs.rank();
  if (rank == 0) {
    throw InvalidArgumentError("Logits cannot be scalars - received shape " + gs.to_string() + ".");
  }
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError(
        internal::str_cat("axis ", axis, " is out of range for logits of rank ", rank));
  }
  if (axis < 0) axis += rank;
  Tensor x = logits, z = labels;
  if (axis != rank - 1) {
    if (ls.rank() != rank) {
      throw InvalidArgumentError("logits and labels must have the same shape, got " +
                                 gs.to_string() + " and " + ls.to_string());
    }
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis) perm.push_back(i);
    }
    perm.push_back(axis);
    x = transpose(x, perm, loc);
    z = transpose(z, perm, loc);
  }
  if (rank == 2 && ls.rank() == 2) return softmax_cross_entropy_with_logits_op(x, z, loc)[0];
  if (!gs.is_compatible_with(ls)) {
    throw InvalidArgumentError("logits and labels must be broadcastable: logits_size=" +
                               pshape(gs) + " labels_size=" + pshape(ls));
  }
  std::vector<int64_t> xd = x.partial_shape().dims();
  const int64_t classes = xd.back();
  Tensor loss = softmax_cross_entropy_with_logits_op(reshape(x, {-1, classes}, loc),
                                                     reshape(z, {-1, classes}, loc), loc)[0];
  xd.pop_back();
  for (auto& d : xd) {
    if (d < 0) d = -1;
  }
  return reshape(loss, xd, loc);
}

Tensor sigmoid_cross_entropy_with_logits(const Tensor& labels, const Tensor& logits, Loc loc) {
  PartialShape ls = labels.partial_shape(), gs = logits.partial_shape();
  if (!ls.is_compatible_with(gs)) {
    throw InvalidArgumentError("logits and labels must have the same shape (" + gs.to_string() +
                               " vs " + ls.to_string() + ")");
  }
  // max(x, 0) - x * z + log(1 + exp(-|x|)), with where() so the gradient at 0 is TF's.
  Tensor zeros = zeros_like(logits, std::nullopt, loc);
  Tensor cond = greater_equal(logits, zeros, loc);
  Tensor relu_logits = where(cond, logits, zeros, loc);
  Tensor neg_abs = where(cond, negative(logits, loc), logits, loc);
  return add(subtract(relu_logits, multiply(logits, labels, loc), loc),
             log1p(exp(neg_abs, loc), loc), loc);
}

Tensor l2_loss(const Tensor& t, Loc loc) {
  if (!is_floating(t.dtype())) {
    throw InvalidArgumentError(
        internal::str_cat("l2_loss needs a floating-point tensor, got ", dtype_name(t.dtype())));
  }
  return multiply(reduce_sum(square(t, loc), {}, false, loc), 0.5, loc);
}

}  // namespace nn
}  // namespace tfcc
