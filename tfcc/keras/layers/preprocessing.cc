#include "tfcc/keras/layers/preprocessing.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/adapt_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::layers {
namespace {

// Normalization's axis: an int or a tuple of ints (-1 stays -1), as Keras writes either.
struct AxisList {
  static std::string repr(const std::vector<int64_t>& v) { return config::Ints::repr(v); }
  static void read(const saving::Json& v, std::vector<int64_t>& out, std::string_view what) {
    if (v.is_null()) return;
    if (v.type() == saving::Json::Type::kNumber) {
      out = {v.as_int(what)};
      return;
    }
    config::Ints::read(v, out, what);
  }
};

// Normalization's mean / variance: None, a number or a list of numbers.
struct Numbers {
  static std::string repr(const std::optional<std::vector<double>>& v) {
    if (!v) return "None";
    std::string s = "[";
    for (size_t i = 0; i < v->size(); ++i) s += (i ? ", " : "") + config::repr((*v)[i]);
    return s + "]";
  }
  static void read(const saving::Json& v, std::optional<std::vector<double>>& out,
                   std::string_view what) {
    if (v.is_null()) {
      out.reset();
      return;
    }
    if (v.type() != saving::Json::Type::kArray) {
      out = std::vector<double>{v.as_number(what)};
      return;
    }
    std::vector<double> values;
    for (const saving::Json& e : v.items(what)) values.push_back(e.as_number(what));
    out = std::move(values);
  }
};

}  // namespace

Rescaling::Rescaling(double scale, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "rescaling"),
      scale_(scale),
      options_(std::move(options)) {}

Tensor Rescaling::call(const Tensor& x, bool) {
  return add(multiply(cast(x, dtype()), scale_), options_.offset);
}

const config::LayerSchema& Rescaling::config_schema() {
  static const config::LayerSchema schema = config::schema<Rescaling>(&Rescaling::options_)
                                                .arg("scale", &Rescaling::scale_)
                                                .option("offset", &Options::offset);
  return schema;
}

Normalization::Normalization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "normalization"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.mean.has_value() == options_.variance.has_value(),
                 "Normalization: when providing `mean` or `variance`, both must be provided");
}

void Normalization::build(const PartialShape& input_shape) {
  const int rank = input_shape.rank();
  broadcast_shape_.assign(static_cast<size_t>(rank), 1);
  std::vector<int64_t> kept;
  for (int64_t a : options_.axis) {
    const int64_t axis = a < 0 ? a + rank : a;
    TFCC_CHECK_ARG(axis > 0 && axis < rank, "Normalization: axis ", a,
                   " is out of range (or the batch axis) for an input of shape ",
                   input_shape.to_string());
    const int64_t d = input_shape.dim(static_cast<int>(axis));
    TFCC_CHECK_ARG(d > 0, "Normalization: axis ", a, " of the input shape ",
                   input_shape.to_string(), " must be known");
    broadcast_shape_[static_cast<size_t>(axis)] = d;
    kept.push_back(d);
  }
  if (!options_.mean) {
    mean_var_ = add_weight("mean", Shape(kept), {.initializer = "zeros", .trainable = false});
    variance_var_ =
        add_weight("variance", Shape(kept), {.initializer = "ones", .trainable = false});
    count_ =
        add_weight("count", Shape{}, {.initializer = "zeros", .trainable = false, .dtype = int64});
    return;
  }
  const int64_t n = Shape(kept).num_elements();
  auto stat = [&](const std::vector<double>& v, const char* what) {
    TFCC_CHECK_ARG(v.size() == 1 || static_cast<int64_t>(v.size()) == n, "Normalization: `", what,
                   "` has ", v.size(), " values; expected 1 or ", n, " (the kept axes' size)");
    std::vector<double> full(static_cast<size_t>(n), v[0]);
    if (v.size() > 1) full = v;
    return cast(Tensor::from_vector<double>(full, Shape(broadcast_shape_)), dtype());
  };
  mean_ = stat(*options_.mean, "mean");
  variance_ = stat(*options_.variance, "variance");
}

void Normalization::adapt_batches(const std::vector<Tensor>& batches) {
  TFCC_REQUIRE(FailedPreconditionError, !options_.mean,
               "Normalization: cannot adapt a layer made with mean and variance");
  TFCC_CHECK_ARG(!batches.empty(), "Normalization: adapt needs data");
  std::vector<int64_t> dims = batches[0].shape().dims();
  if (!built()) {
    if (!dims.empty()) dims[0] = -1;
    maybe_build({PartialShape(dims)});
  }
  // Per kept element: sum and sum of squares (float64) over the other axes of every batch.
  std::vector<int64_t> reduce;
  for (size_t i = 0; i < broadcast_shape_.size(); ++i) {
    if (broadcast_shape_[i] == 1) reduce.push_back(static_cast<int64_t>(i));
  }
  Tensor sum, sum_sq;
  int64_t count = 0;
  for (const Tensor& b : batches) {
    TFCC_CHECK_ARG(b.rank() == static_cast<int>(broadcast_shape_.size()),
                   "Normalization: adapt batches must have rank ", broadcast_shape_.size(),
                   ", got ", b.shape().to_string());
    Tensor x = cast(b, float64);
    Tensor s = reduce_sum(x, Axes(reduce), true),
           q = reduce_sum(multiply(x, x), Axes(reduce), true);
    sum = sum.defined() ? add(sum, s) : s;
    sum_sq = sum_sq.defined() ? add(sum_sq, q) : q;
    count += b.num_elements() / std::max<int64_t>(s.num_elements(), 1);
  }
  TFCC_CHECK_ARG(count > 0, "Normalization: adapt needs at least one value");
  Tensor mean = divide(sum, static_cast<double>(count));
  Tensor variance =
      maximum(subtract(divide(sum_sq, static_cast<double>(count)), multiply(mean, mean)), 0.0);
  const Shape kept = mean_var_.shape();
  mean_var_.assign(cast(reshape(mean, kept.dims()), mean_var_.dtype()));
  variance_var_.assign(cast(reshape(variance, kept.dims()), variance_var_.dtype()));
  count_.assign(Tensor::scalar<int64_t>(count));
}

void Normalization::adapt(const Tensor& data) { adapt_batches({data}); }

void Normalization::adapt(const data::Dataset& data) {
  adapt_batches(internal::adapt_batches(data));
}

Tensor Normalization::call(const Tensor& inputs, bool) {
  Tensor x = cast(inputs, dtype());
  Tensor mean = options_.mean ? mean_ : reshape(mean_var_, broadcast_shape_);
  Tensor variance = options_.mean ? variance_ : reshape(variance_var_, broadcast_shape_);
  Tensor deviation = maximum(sqrt(variance), 1e-7);
  if (options_.invert) return add(mean, multiply(x, deviation));
  return divide(subtract(x, mean), deviation);
}

const config::LayerSchema& Normalization::config_schema() {
  static const config::LayerSchema schema = config::schema<Normalization>(&Normalization::options_)
                                                .option<AxisList>("axis", &Options::axis)
                                                .option("invert", &Options::invert)
                                                .option<Numbers>("mean", &Options::mean)
                                                .option<Numbers>("variance", &Options::variance);
  return schema;
}

}  // namespace tfcc::keras::layers
