#include "tfcc/keras/layers/merge_layers.h"

#include <numeric>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/matrix/matrix.h"

namespace tfcc::keras::layers {
namespace {

void check_at_least_two(const Layer& layer, const Tensors& inputs) {
  TFCC_CHECK_ARG(inputs.size() >= 2,
                 "A merge layer should be called on a list of at least 2 inputs. Got ",
                 inputs.size(), " inputs (layer '", layer.name(), "')");
}

template <typename F>
Tensor fold(const Tensors& inputs, F f) {
  Tensor out = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) out = f(out, inputs[i]);
  return out;
}

}  // namespace

Subtract::Subtract(LayerArgs args) : Layer(std::move(args), "subtract") {}

Tensors Subtract::call_n(const Tensors& inputs, bool) {
  TFCC_CHECK_ARG(inputs.size() == 2,
                 "A `Subtract` layer should be called on exactly 2 inputs. Received: ",
                 inputs.size(), " inputs (layer '", name(), "')");
  return {subtract(inputs[0], inputs[1])};
}

Average::Average(LayerArgs args) : Layer(std::move(args), "average") {}

Tensors Average::call_n(const Tensors& inputs, bool) {
  check_at_least_two(*this, inputs);
  Tensor sum = fold(inputs, [](const Tensor& a, const Tensor& b) { return add(a, b); });
  return {divide(sum, static_cast<double>(inputs.size()))};
}

Maximum::Maximum(LayerArgs args) : Layer(std::move(args), "maximum") {}

Tensors Maximum::call_n(const Tensors& inputs, bool) {
  check_at_least_two(*this, inputs);
  return {fold(inputs, [](const Tensor& a, const Tensor& b) { return maximum(a, b); })};
}

Minimum::Minimum(LayerArgs args) : Layer(std::move(args), "minimum") {}

Tensors Minimum::call_n(const Tensors& inputs, bool) {
  check_at_least_two(*this, inputs);
  return {fold(inputs, [](const Tensor& a, const Tensor& b) { return minimum(a, b); })};
}

Dot::Dot(std::vector<int64_t> axes, Options options)
    : Layer({.name = options.name, .trainable = options.trainable}, "dot"),
      axes_(std::move(axes)),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(axes_.size() == 1 || axes_.size() == 2,
                 "Invalid format for argument `axes`: expected an int or a list of 2 ints. "
                 "Received: axes=",
                 keras::config::repr(axes_));
}

namespace {

// x's axis `from` moved to position `to` (a permutation of the other axes kept in order).
Tensor move_axis(const Tensor& x, int64_t from, int64_t to) {
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != from) perm.push_back(i);
  }
  perm.insert(perm.begin() + to, from);
  return transpose(x, perm);
}

// The product of x's dimensions except 0 and `skip`; the dimensions kept in `rest`.
int64_t rest_size(const PartialShape& s, int64_t skip, std::vector<int64_t>& rest) {
  int64_t n = 1;
  for (int64_t i = 1; i < s.rank(); ++i) {
    if (i == skip) continue;
    rest.push_back(s.dim(i));
    n *= s.dim(i);
  }
  return n;
}

}  // namespace

Tensors Dot::call_n(const Tensors& inputs, bool) {
  TFCC_CHECK_ARG(inputs.size() == 2,
                 "A `Dot` layer should be called on exactly 2 inputs. Received: ", inputs.size(),
                 " inputs (layer '", name(), "')");
  Tensor x1 = inputs[0], x2 = inputs[1];
  const PartialShape s1 = x1.partial_shape(), s2 = x2.partial_shape();
  TFCC_CHECK_ARG(s1.rank_known() && s2.rank_known() && s1.rank() >= 2 && s2.rank() >= 2, "Dot '",
                 name(), "' needs two inputs of rank >= 2 (batch first), got ", s1.to_string(),
                 " and ", s2.to_string());
  for (const PartialShape* s : {&s1, &s2}) {
    for (int64_t i = 1; i < s->rank(); ++i) {
      TFCC_CHECK_ARG(s->dim(i) != PartialShape::kUnknown, "Dot '", name(),
                     "' needs the non-batch dimensions known, got ", s->to_string());
    }
  }
  auto resolve = [&](int64_t a, int64_t rank) {
    const int64_t r = a < 0 ? ((a % rank) + rank) % rank : a;
    TFCC_CHECK_ARG(r >= 1 && r < rank, "Dot '", name(), "': axis ", a,
                   " is out of range (or the batch axis) for an input of rank ", rank);
    return r;
  };
  const int64_t a1 = resolve(axes_[0], s1.rank());
  const int64_t a2 = resolve(axes_.size() == 2 ? axes_[1] : axes_[0], s2.rank());
  TFCC_CHECK_ARG(s1.dim(a1) == s2.dim(a2), "Incompatible input shapes for Dot '", name(),
                 "': axis ", a1, " of ", s1.to_string(), " and axis ", a2, " of ", s2.to_string(),
                 " differ");
  if (options_.normalize) {
    x1 = linalg::l2_normalize(x1, a1);
    x2 = linalg::l2_normalize(x2, a2);
  }
  std::vector<int64_t> out_dims = {-1};
  const int64_t m = rest_size(s1, a1, out_dims), n = rest_size(s2, a2, out_dims);
  const int64_t k = s1.dim(a1);
  Tensor lhs = reshape(move_axis(x1, a1, s1.rank() - 1), {-1, m, k});
  Tensor rhs = reshape(move_axis(x2, a2, 1), {-1, k, n});
  if (out_dims.size() == 1) out_dims.push_back(1);  // (b,) -> (b, 1), as Keras' batch_dot
  return {reshape(matmul(lhs, rhs), out_dims)};
}

namespace {
// One axis written as an int (Keras' `axes=1`), two as a tuple.
struct IntOrPair {
  static std::string repr(const std::vector<int64_t>& v) {
    return v.size() == 1 ? keras::config::repr(v[0]) : keras::config::repr(v);
  }
  static void read(const saving::Json& v, std::vector<int64_t>& out, std::string_view what) {
    keras::config::Codec<std::vector<int64_t>>::read(v, out, what);
  }
};
}  // namespace

const config::LayerSchema& Subtract::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Subtract>(&Subtract::args_);
  return schema;
}

const config::LayerSchema& Average::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Average>(&Average::args_);
  return schema;
}

const config::LayerSchema& Maximum::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Maximum>(&Maximum::args_);
  return schema;
}

const config::LayerSchema& Minimum::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Minimum>(&Minimum::args_);
  return schema;
}

const config::LayerSchema& Dot::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Dot>(&Dot::options_)
                                                .arg<IntOrPair>("axes", &Dot::axes_)
                                                .option("normalize", &Options::normalize);
  return schema;
}

}  // namespace tfcc::keras::layers
