#include "tfcc/keras/layers/normalization.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {
namespace {

int64_t resolve_axis(int64_t axis, const PartialShape& shape, const std::string& layer) {
  TFCC_CHECK_ARG(shape.rank_known(), "Layer '", layer, "' needs an input of known rank");
  const int64_t rank = shape.rank();
  const int64_t a = axis < 0 ? axis + rank : axis;
  TFCC_CHECK_ARG(a >= 0 && a < rank, "Invalid axis: ", axis, " for input of rank ", rank,
                 " (layer '", layer, "')");
  TFCC_CHECK_ARG(shape.dim(static_cast<int>(a)) != PartialShape::kUnknown, "Axis ", axis,
                 " of input tensor should have a defined dimension but the layer received an "
                 "input with shape ",
                 shape.to_string());
  return a;
}

// Shape that broadcasts a per-channel vector against an input of `rank` along `axis`.
std::vector<int64_t> broadcast_shape(int64_t rank, int64_t axis, int64_t channels) {
  std::vector<int64_t> s(static_cast<size_t>(rank), 1);
  s[static_cast<size_t>(axis)] = channels;
  return s;
}

// Mean and biased variance over `axes` with kept dimensions (tf.nn.moments).
std::pair<Tensor, Tensor> moments(const Tensor& x, const Axes& axes) {
  Tensor mean = reduce_mean(x, axes, true);
  Tensor var = reduce_mean(squared_difference(x, stop_gradient(mean)), axes, true);
  return {mean, var};
}

// LayerNormalization's axis: an int; Keras 3 writes a built layer's as a list ([-1]), which
// tfcc reads when it holds one axis (several axes: InvalidArgumentError).
struct SingleAxis {
  static std::string repr(int64_t v) { return config::repr(v); }
  static void read(const saving::Json& v, int64_t& out, std::string_view what) {
    config::OneTuple::read(v, out, what);
  }
};

}  // namespace

BatchNormalization::BatchNormalization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "batch_normalization"),
      options_(std::move(options)) {
  set_supports_masking(true);
  TFCC_CHECK_ARG(options_.epsilon > 0, "BatchNormalization: epsilon must be positive, got ",
                 options_.epsilon);
}

void BatchNormalization::build(const PartialShape& input_shape) {
  axis_ = resolve_axis(options_.axis, input_shape, name());
  const int64_t c = input_shape.dim(static_cast<int>(axis_));
  if (options_.scale) {
    gamma_ = add_weight(
        "gamma", Shape{c},
        {.initializer = options_.gamma_initializer, .regularizer = options_.gamma_regularizer});
  }
  if (options_.center) {
    beta_ = add_weight(
        "beta", Shape{c},
        {.initializer = options_.beta_initializer, .regularizer = options_.beta_regularizer});
  }
  moving_mean_ = add_weight("moving_mean", Shape{c},
                            {.initializer = options_.moving_mean_initializer, .trainable = false});
  moving_variance_ =
      add_weight("moving_variance", Shape{c},
                 {.initializer = options_.moving_variance_initializer, .trainable = false});
}

Tensor BatchNormalization::call(const Tensor& x, bool training) {
  const int64_t rank = x.rank();
  // The static shape: inside a trace for a None batch size only the channels are known.
  TFCC_CHECK_ARG(
      axis_ < rank && x.partial_shape().dim(static_cast<int>(axis_)) == moving_mean_.shape()[0],
      "Layer '", name(), "' was built for ", moving_mean_.shape()[0], " channels on axis ", axis_,
      " but received input with shape ", x.partial_shape().to_string());
  if ((rank == 4 || rank == 5) && axis_ == rank - 1 &&
      (x.dtype() == float32 || x.dtype() == float64)) {
    return fused_call(x, training && trainable());
  }
  const auto bshape = broadcast_shape(rank, axis_, moving_mean_.shape()[0]);
  Tensor mean, var;
  // A frozen BatchNormalization runs in inference mode (Keras 2 behaviour).
  if (training && trainable()) {
    std::vector<int64_t> axes;
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis_) axes.push_back(i);
    }
    auto [m, v] = moments(x, Axes(axes));
    mean = m;
    var = v;
    Tensor batch_mean = reshape(stop_gradient(m), {-1});
    Tensor batch_var = reshape(stop_gradient(v), {-1});
    const double decay = 1.0 - options_.momentum;
    moving_mean_.assign_sub(multiply(subtract(moving_mean_, batch_mean), decay));
    moving_variance_.assign_sub(multiply(subtract(moving_variance_, batch_var), decay));
  } else {
    mean = reshape(moving_mean_, bshape);
    var = reshape(moving_variance_, bshape);
  }
  Tensor inv = rsqrt(add(var, options_.epsilon));
  if (options_.scale) inv = multiply(inv, reshape(gamma_, bshape));
  Tensor y = multiply(subtract(x, mean), inv);
  if (options_.center) y = add(y, reshape(beta_, bshape));
  return y;
}

Tensor BatchNormalization::fused_call(const Tensor& x, bool training) {
  const std::vector<int64_t> c{moving_mean_.shape()[0]};
  // Without scale / center the op still takes them: ones and zeros (constants: no gradient).
  Tensor scale = options_.scale ? gamma_.read_value() : fill(c, 1.0, x.dtype());
  Tensor offset = options_.center ? beta_.read_value() : fill(c, 0.0, x.dtype());
  const double factor = 1.0 - options_.momentum;
  nn::FusedBatchNormResult r = nn::fused_batch_norm(
      x, scale, offset, moving_mean_.read_value(), moving_variance_.read_value(),
      {.epsilon = options_.epsilon, .exponential_avg_factor = factor, .is_training = training});
  if (training) {
    // The op's mean output is already (1 - f) * moving + f * batch mean. Its variance output is
    // Bessel-corrected (TensorFlow's op, and Keras 2); Keras 3 moves the moving variance towards
    // the biased batch variance, which the op returns as saved_variance.
    moving_mean_.assign(r.batch_mean);
    moving_variance_.assign_sub(multiply(subtract(moving_variance_, r.saved_variance), factor));
  }
  return r.y;
}

LayerNormalization::LayerNormalization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "layer_normalization"),
      options_(std::move(options)) {
  set_supports_masking(true);
  TFCC_CHECK_ARG(options_.epsilon > 0, "LayerNormalization: epsilon must be positive, got ",
                 options_.epsilon);
}

void LayerNormalization::build(const PartialShape& input_shape) {
  axis_ = resolve_axis(options_.axis, input_shape, name());
  const int64_t c = input_shape.dim(static_cast<int>(axis_));
  if (options_.scale)
    gamma_ = add_weight("gamma", Shape{c}, {.initializer = options_.gamma_initializer});
  if (options_.center)
    beta_ = add_weight("beta", Shape{c}, {.initializer = options_.beta_initializer});
}

Tensor LayerNormalization::call(const Tensor& x, bool) {
  const int64_t rank = x.rank();
  TFCC_CHECK_ARG(axis_ < rank, "Layer '", name(), "' received input of rank ", rank);
  auto [mean, var] = moments(x, Axes(std::vector<int64_t>{axis_}));
  // The weights' size: the input's dims may be unknown in a trace (a None batch).
  const int64_t c = x.partial_shape().dim(static_cast<int>(axis_));
  const auto bshape = broadcast_shape(rank, axis_, c);
  Tensor inv = rsqrt(add(var, options_.epsilon));
  if (options_.scale) inv = multiply(inv, reshape(gamma_, bshape));
  Tensor y = multiply(subtract(x, mean), inv);
  if (options_.center) y = add(y, reshape(beta_, bshape));
  return y;
}

const config::LayerSchema& BatchNormalization::config_schema() {
  static const config::LayerSchema schema =
      config::schema<BatchNormalization>(&BatchNormalization::options_)
          .option("axis", &Options::axis)
          .option("momentum", &Options::momentum)
          .option("epsilon", &Options::epsilon)
          .option("center", &Options::center)
          .option("scale", &Options::scale)
          .option("beta_initializer", &Options::beta_initializer)
          .option("gamma_initializer", &Options::gamma_initializer)
          .option("moving_mean_initializer", &Options::moving_mean_initializer)
          .option("moving_variance_initializer", &Options::moving_variance_initializer)
          .option("beta_regularizer", &Options::beta_regularizer)
          .option("gamma_regularizer", &Options::gamma_regularizer);
  return schema;
}

const config::LayerSchema& LayerNormalization::config_schema() {
  static const config::LayerSchema schema =
      config::schema<LayerNormalization>(&LayerNormalization::options_)
          .option<SingleAxis>("axis", &Options::axis)
          .option("epsilon", &Options::epsilon)
          .option("center", &Options::center)
          .option("scale", &Options::scale)
          .option("beta_initializer", &Options::beta_initializer)
          .option("gamma_initializer", &Options::gamma_initializer);
  return schema;
}

}  // namespace tfcc::keras::layers
