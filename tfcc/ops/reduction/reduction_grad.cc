// Gradient rules of the reduction family, written with ops (they trace and differentiate again).
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/reduction/reduction_internal.h"

namespace tfcc {
namespace {

/// Which dims of the op's input were reduced (the input's rank must be known).
std::vector<bool> grad_mask(const GradContext& g) {
  PartialShape s = g.inputs[0].partial_shape();
  if (!s.rank_known()) {
    throw UnimplementedError("Gradient of " + g.op.name() + " for an input of unknown rank");
  }
  return reduced_dims(g.op, g.attrs, s.rank());
}

/// `t`, shaped like the op's output, with the reduced dims restored as size 1 (keepdims shape),
/// so that it broadcasts against the input.
Tensor keep_reduced(const Tensor& t, const GradContext& g, const std::vector<bool>& mask) {
  if (g.attrs.get<bool>("keepdims")) return t;
  PartialShape s = g.inputs[0].partial_shape();
  if (s.is_fully_defined()) {
    std::vector<int64_t> dims = s.dims();
    for (size_t i = 0; i < mask.size(); ++i) {
      if (mask[i]) dims[i] = 1;
    }
    return reshape(t, dims);
  }
  Tensor r = t;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) r = expand_dims(r, static_cast<int64_t>(i));
  }
  return r;
}

/// `t` (keepdims shape) broadcast to the shape of `x`.
Tensor broadcast_like(const Tensor& t, const Tensor& x) {
  PartialShape s = x.partial_shape();
  if (s.is_fully_defined()) return broadcast_to(t, s.dims());
  return add(t, zeros_like(x));  // zeros_like reads no values, so inf/nan in x do not leak
}

bool float_grad(const GradContext& g) {
  return g.grads[0].defined() && is_floating(g.inputs[0].dtype());
}

}  // namespace

std::vector<Tensor> sum_grad(const GradContext& g) {
  if (!float_grad(g)) return {Tensor()};
  return {broadcast_like(keep_reduced(g.grads[0], g, grad_mask(g)), g.inputs[0])};
}

// The gradient goes to the positions equal to the extreme value, split evenly among ties (as
// TF). Where the extreme is NaN, no position equals it and the gradient is NaN, also as TF.
std::vector<Tensor> max_min_grad(const GradContext& g) {
  if (!float_grad(g)) return {Tensor()};
  const Tensor& x = g.inputs[0];
  std::vector<bool> mask = grad_mask(g);
  Tensor pick = cast(equal(x, keep_reduced(g.outputs[0], g, mask)), x.dtype());
  static const OpDef& sum = op_def("Sum");
  Tensor in[] = {pick};
  Attrs attrs{{"axis", g.attrs.get<std::vector<int64_t>>("axis")},
              {"keepdims", true},
              {"reduce_all", g.attrs.get<bool>("reduce_all")}};
  Tensor count = dispatch1(sum, in, std::move(attrs));
  return {multiply(divide(keep_reduced(g.grads[0], g, mask), count), pick)};
}

// Exact at zeros, as TF: d prod / d x_i is the product of the other elements, computed as the
// exclusive cumulative product from the left times the one from the right along the reduced
// elements (no division). Several reduced axes are first moved last and merged into one.
std::vector<Tensor> prod_grad(const GradContext& g) {
  if (!float_grad(g)) return {Tensor()};
  const Tensor& x = g.inputs[0];
  std::vector<bool> mask = grad_mask(g);
  Tensor dy = keep_reduced(g.grads[0], g, mask);
  std::vector<int64_t> kept, red;
  for (size_t i = 0; i < mask.size(); ++i) (mask[i] ? red : kept).push_back(int64_t(i));
  if (red.empty()) return {dy};
  if (red.size() == 1) {
    Tensor others = multiply(cumprod(x, red[0], true, false), cumprod(x, red[0], true, true));
    return {multiply(dy, others)};
  }
  PartialShape s = x.partial_shape();
  if (!s.is_fully_defined()) {
    // Without static dims the merge needs dynamic shapes; fall back to prod / x, which is exact
    // away from zeros (at a zero it gives inf or nan instead of the product of the others).
    return {multiply(dy, divide(keep_reduced(g.outputs[0], g, mask), x))};
  }
  std::vector<int64_t> perm = kept, moved_dims, merged;
  perm.insert(perm.end(), red.begin(), red.end());
  int64_t r = 1;
  for (int64_t a : perm) moved_dims.push_back(s.dim(static_cast<int>(a)));
  for (int64_t a : kept) merged.push_back(s.dim(static_cast<int>(a)));
  for (int64_t a : red) r *= s.dim(static_cast<int>(a));
  merged.push_back(r);
  const int64_t last = static_cast<int64_t>(kept.size());
  Tensor flat = reshape(transpose(x, perm), merged);
  Tensor others = multiply(cumprod(flat, last, true, false), cumprod(flat, last, true, true));
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = int64_t(i);
  return {multiply(dy, transpose(reshape(others, moved_dims), inverse))};
}

std::vector<Tensor> cumsum_grad(const GradContext& g) {
  if (!float_grad(g)) return {Tensor()};
  return {cumsum(g.grads[0], g.attrs.get<int64_t>("axis"), g.attrs.get<bool>("exclusive"),
                 !g.attrs.get<bool>("reverse"))};
}

// TF's formula: cumsum(y * dy) in the opposite direction, divided by x. Exact away from zeros;
// at a zero of x it gives inf or nan (TF has the same limitation).
std::vector<Tensor> cumprod_grad(const GradContext& g) {
  if (!float_grad(g)) return {Tensor()};
  Tensor out = cumsum(multiply(g.outputs[0], g.grads[0]), g.attrs.get<int64_t>("axis"),
                      g.attrs.get<bool>("exclusive"), !g.attrs.get<bool>("reverse"));
  return {divide(out, g.inputs[0])};
}

}  // namespace tfcc
