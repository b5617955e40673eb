#include "tfcc/keras/layers/group_normalization.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/matrix/matrix.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {

GroupNormalization::GroupNormalization(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "group_normalization"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.groups == -1 || options_.groups >= 1, "GroupNormalization '", name(),
                 "': groups must be positive or -1, got ", options_.groups);
  TFCC_CHECK_ARG(options_.epsilon >= 0, "GroupNormalization '", name(),
                 "': epsilon must be >= 0, got ", options_.epsilon);
}

void GroupNormalization::build(const PartialShape& s) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() >= 2, "GroupNormalization '", name(),
                 "' needs inputs of rank >= 2, got ", s.to_string());
  const int64_t axis = options_.axis < 0 ? options_.axis + s.rank() : options_.axis;
  if (axis != s.rank() - 1) {
    throw UnimplementedError(internal::str_cat("GroupNormalization '", name(), "': axis ",
                                               options_.axis,
                                               " is not supported; only the last axis (-1)"));
  }
  const int64_t dim = s.dim(axis);
  TFCC_CHECK_ARG(dim != PartialShape::kUnknown, "Axis ", options_.axis,
                 " of input tensor should have a defined dimension but the layer received an "
                 "input with shape ",
                 s.to_string());
  groups_ = options_.groups == -1 ? dim : options_.groups;
  TFCC_CHECK_ARG(dim >= groups_, "Number of groups (", groups_,
                 ") cannot be more than the number of channels (", dim, ").");
  TFCC_CHECK_ARG(dim % groups_ == 0, "Number of groups (", groups_,
                 ") must be a multiple of the number of channels (", dim, ").");
  if (options_.scale) {
    gamma_ = add_weight(
        "gamma", Shape{dim},
        {.initializer = options_.gamma_initializer, .regularizer = options_.gamma_regularizer});
  }
  if (options_.center) {
    beta_ = add_weight(
        "beta", Shape{dim},
        {.initializer = options_.beta_initializer, .regularizer = options_.beta_regularizer});
  }
}

Tensor GroupNormalization::call(const Tensor& x, bool) {
  const PartialShape s = x.partial_shape();
  TFCC_CHECK_ARG(s.rank_known() && s.rank() >= 2, "GroupNormalization '", name(),
                 "' needs inputs of rank >= 2, got ", s.to_string());
  const int64_t rank = s.rank(), dim = s.dim(rank - 1), per_group = dim / groups_;
  // (b, ..., dim) -> (b, ..., groups, per_group); statistics over all but batch and group.
  std::vector<int64_t> grouped = {-1};
  for (int64_t i = 1; i < rank - 1; ++i) {
    TFCC_CHECK_ARG(s.dim(i) != PartialShape::kUnknown, "GroupNormalization '", name(),
                   "' needs the non-batch dimensions known, got ", s.to_string());
    grouped.push_back(s.dim(i));
  }
  grouped.push_back(groups_);
  grouped.push_back(per_group);
  Tensor r = reshape(x, grouped);
  std::vector<int64_t> axes;
  for (int64_t i = 1; i < rank + 1; ++i) {
    if (i != rank - 1) axes.push_back(i);
  }
  nn::Moments m = nn::moments(r, axes, /*keepdims=*/true);
  Tensor inv = rsqrt(add(m.variance, options_.epsilon));
  const std::vector<int64_t> param_shape = {groups_, per_group};
  if (options_.scale)
    inv = multiply(inv, reshape(cast(gamma_.read_value(), x.dtype()), param_shape));
  Tensor shift = multiply(negative(m.mean), inv);
  if (options_.center)
    shift = add(shift, reshape(cast(beta_.read_value(), x.dtype()), param_shape));
  std::vector<int64_t> out_dims = s.dims();
  out_dims[0] = -1;
  return reshape(add(multiply(r, inv), shift), out_dims);
}

UnitNormalization::UnitNormalization(Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "unit_normalization"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(!options_.axis.empty(), "UnitNormalization '", name(), "': axis is empty");
}

Tensor UnitNormalization::call(const Tensor& x, bool) {
  return linalg::l2_normalize(x, options_.axis, 1e-12);
}

namespace {
// One axis written as an int (Keras' `axis=-1`), several as a list.
struct IntOrList {
  static std::string repr(const std::vector<int64_t>& v) {
    if (v.size() == 1) return keras::config::repr(v[0]);
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
    return out + "]";
  }
  static void read(const saving::Json& v, std::vector<int64_t>& out, std::string_view what) {
    keras::config::Codec<std::vector<int64_t>>::read(v, out, what);
  }
};
}  // namespace

const config::LayerSchema& GroupNormalization::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<GroupNormalization>(&GroupNormalization::options_)
          .option("groups", &Options::groups)
          .option("axis", &Options::axis)
          .option("epsilon", &Options::epsilon)
          .option("center", &Options::center)
          .option("scale", &Options::scale)
          .option("beta_initializer", &Options::beta_initializer)
          .option("gamma_initializer", &Options::gamma_initializer)
          .option("beta_regularizer", &Options::beta_regularizer)
          .option("gamma_regularizer", &Options::gamma_regularizer);
  return schema;
}

const config::LayerSchema& UnitNormalization::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<UnitNormalization>(&UnitNormalization::options_)
          .option<IntOrList>("axis", &Options::axis);
  return schema;
}

}  // namespace tfcc::keras::layers
