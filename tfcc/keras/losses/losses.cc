// Keras' loss formulas (keras/losses.py, keras/backend.py), written with ops.
#include "tfcc/keras/losses/losses.h"

#include <map>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::losses {
namespace {

// y_true in y_pred's dtype (Keras casts targets to the prediction dtype).
Tensor as_pred_dtype(const Tensor& y_true, const Tensor& y_pred) {
  return y_true.dtype() == y_pred.dtype() ? y_true : cast(y_true, y_pred.dtype());
}

// The size of the `axis` dimension as a scalar of `dtype` (static when known).
Tensor dim_as(const Tensor& t, int64_t axis, DType dtype) {
  PartialShape s = t.partial_shape();
  int r = s.rank();
  int64_t a = axis < 0 ? axis + r : axis;
  TFCC_CHECK_ARG(a >= 0 && a < r, "axis ", axis, " is out of range for a tensor of rank ", r);
  if (s.dim(static_cast<int>(a)) >= 0) return scalar_tensor(double(s.dim(int(a))), dtype);
  return cast(shape(t, int32)(a), dtype);
}

// Labels of rank(logits) - 1 as int64, validating the shapes as TF does.
Tensor sparse_labels(const Tensor& y_true, const Tensor& y_pred) {
  PartialShape ls = y_true.partial_shape(), ps = y_pred.partial_shape();
  TFCC_CHECK_ARG(ps.rank_known() && ps.rank() >= 1,
                 "sparse_categorical_crossentropy needs predictions of rank >= 1, got shape ",
                 ps.to_string());
  Tensor labels = y_true;
  if (ls.rank_known() && ls.rank() == ps.rank() && ls.dim(ls.rank() - 1) == 1) {
    labels = squeeze(labels, {-1});
    ls = labels.partial_shape();
  }
  if (ls.rank_known()) {
    bool ok = ls.rank() == ps.rank() - 1;
    for (int i = 0; ok && i < ls.rank(); ++i) {
      ok = ls.dim(i) < 0 || ps.dim(i) < 0 || ls.dim(i) == ps.dim(i);
    }
    TFCC_CHECK_ARG(ok, "`labels.shape` must equal `logits.shape` except for the last dimension. ",
                   "Received: labels.shape=", y_true.partial_shape().to_string(),
                   " and logits.shape=", ps.to_string());
  }
  return labels.dtype() == int64 ? labels : cast(labels, int64);
}

}  // namespace

Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                                       std::optional<int64_t> ignore_class) {
  Tensor labels = sparse_labels(y_true, y_pred);
  Tensor valid;
  if (ignore_class) {
    valid = not_equal(labels, *ignore_class);
    labels = multiply(labels, cast(valid, int64));
  }
  // From probabilities Keras feeds log(clip(p)) to the logits op, which re-normalises.
  Tensor logits = from_logits ? y_pred : log(clip_by_value(y_pred, kEpsilon, 1.0 - kEpsilon));
  Tensor loss = nn::sparse_softmax_cross_entropy_with_logits(labels, logits);
  if (valid.defined()) loss = where(valid, loss, 0);
  return loss;
}

Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                                double label_smoothing, int64_t axis) {
  Tensor target = as_pred_dtype(y_true, y_pred);
  if (label_smoothing > 0) {
    Tensor num_classes = dim_as(target, -1, target.dtype());
    target = add(multiply(target, 1.0 - label_smoothing), divide(label_smoothing, num_classes));
  }
  if (from_logits) return nn::softmax_cross_entropy_with_logits(target, y_pred, axis);
  Tensor p = divide(y_pred, reduce_sum(y_pred, axis, true));
  p = clip_by_value(p, kEpsilon, 1.0 - kEpsilon);
  return negative(reduce_sum(multiply(target, log(p)), axis));
}

Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits,
                           double label_smoothing, int64_t axis) {
  Tensor z = as_pred_dtype(y_true, y_pred);
  if (label_smoothing > 0) z = add(multiply(z, 1.0 - label_smoothing), 0.5 * label_smoothing);
  Tensor bce;
  if (from_logits) {
    bce = nn::sigmoid_cross_entropy_with_logits(z, y_pred);
  } else {
    // Keras 3's formula: clip, then the plain logs (Keras 2 also added epsilon inside each log).
    Tensor p = clip_by_value(y_pred, kEpsilon, 1.0 - kEpsilon);
    Tensor pos = multiply(z, log(p));
    Tensor neg = multiply(subtract(1, z), log(subtract(1, p)));
    bce = negative(add(pos, neg));
  }
  return reduce_mean(bce, axis);
}

Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred) {
  return reduce_mean(squared_difference(y_pred, as_pred_dtype(y_true, y_pred)), -1);
}

Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred) {
  return reduce_mean(abs(subtract(y_pred, as_pred_dtype(y_true, y_pred))), -1);
}

Tensor huber(const Tensor& y_true, const Tensor& y_pred, double delta) {
  Tensor error = subtract(y_pred, as_pred_dtype(y_true, y_pred));
  Tensor abs_error = abs(error);
  Tensor quadratic = multiply(square(error), 0.5);
  Tensor linear = subtract(multiply(abs_error, delta), 0.5 * delta * delta);
  return reduce_mean(where(less_equal(abs_error, delta), quadratic, linear), -1);
}

Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = clip_by_value(as_pred_dtype(y_true, y_pred), kEpsilon, 1);
  Tensor p = clip_by_value(y_pred, kEpsilon, 1);
  return reduce_sum(multiply(t, log(divide(t, p))), -1);
}

SparseCategoricalCrossentropy::SparseCategoricalCrossentropy(
    SparseCategoricalCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {}

Tensor SparseCategoricalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  return sparse_categorical_crossentropy(y_true, y_pred, options_.from_logits,
                                         options_.ignore_class);
}

Tensor SparseCategoricalCrossentropy::valid_mask(const Tensor& y_true, const Tensor& y_pred) const {
  if (!options_.ignore_class) return {};
  return not_equal(sparse_labels(y_true, y_pred), *options_.ignore_class);
}

CategoricalCrossentropy::CategoricalCrossentropy(CategoricalCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {}

Tensor CategoricalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return categorical_crossentropy(t, p, options_.from_logits, options_.label_smoothing,
                                  options_.axis);
}

BinaryCrossentropy::BinaryCrossentropy(BinaryCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {}

Tensor BinaryCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return binary_crossentropy(t, p, options_.from_logits, options_.label_smoothing, options_.axis);
}

MeanSquaredError::MeanSquaredError(SimpleLossOptions options)
    : Loss(options.name.value_or("mean_squared_error"), options.reduction) {}
Tensor MeanSquaredError::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return mean_squared_error(t, p);
}

MeanAbsoluteError::MeanAbsoluteError(SimpleLossOptions options)
    : Loss(options.name.value_or("mean_absolute_error"), options.reduction) {}
Tensor MeanAbsoluteError::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return mean_absolute_error(t, p);
}

KLDivergence::KLDivergence(SimpleLossOptions options)
    : Loss(options.name.value_or("kl_divergence"), options.reduction) {}
Tensor KLDivergence::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return kl_divergence(t, p);
}

Huber::Huber(HuberOptions options) : Loss(options.name, options.reduction), delta_(options.delta) {}
Tensor Huber::call(const Tensor& y_true, const Tensor& y_pred) const {
  Tensor t = y_true, p = y_pred;
  squeeze_or_expand_dimensions(p, t);
  return huber(t, p, delta_);
}

std::shared_ptr<Loss> get(const std::string& identifier) {
  using Factory = std::shared_ptr<Loss> (*)();
  static const std::map<std::string, Factory> kFactories = {
      {"sparse_categorical_crossentropy",
       []() -> std::shared_ptr<Loss> { return std::make_shared<SparseCategoricalCrossentropy>(); }},
      {"categorical_crossentropy",
       []() -> std::shared_ptr<Loss> { return std::make_shared<CategoricalCrossentropy>(); }},
      {"binary_crossentropy",
       []() -> std::shared_ptr<Loss> { return std::make_shared<BinaryCrossentropy>(); }},
      {"mean_squared_error",
       []() -> std::shared_ptr<Loss> { return std::make_shared<MeanSquaredError>(); }},
      {"mean_absolute_error",
       []() -> std::shared_ptr<Loss> { return std::make_shared<MeanAbsoluteError>(); }},
      {"huber_loss", []() -> std::shared_ptr<Loss> { return std::make_shared<Huber>(); }},
      {"kl_divergence", []() -> std::shared_ptr<Loss> { return std::make_shared<KLDivergence>(); }},
  };
  static const std::map<std::string, std::string> kAliases = {
      {"SparseCategoricalCrossentropy", "sparse_categorical_crossentropy"},
      {"CategoricalCrossentropy", "categorical_crossentropy"},
      {"BinaryCrossentropy", "binary_crossentropy"},
      {"MeanSquaredError", "mean_squared_error"},
      {"mse", "mean_squared_error"},
      {"MSE", "mean_squared_error"},
      {"MeanAbsoluteError", "mean_absolute_error"},
      {"mae", "mean_absolute_error"},
      {"MAE", "mean_absolute_error"},
      {"Huber", "huber_loss"},
      {"huber", "huber_loss"},
      {"KLDivergence", "kl_divergence"},
      {"kld", "kl_divergence"},
      {"KLD", "kl_divergence"},
      {"kullback_leibler_divergence", "kl_divergence"},
  };
  std::string key = identifier;
  if (auto a = kAliases.find(key); a != kAliases.end()) key = a->second;
  auto f = kFactories.find(key);
  if (f == kFactories.end()) {
    throw InvalidArgumentError(internal::str_cat(
        "Unknown loss function: '", identifier,
        "'. Known losses: sparse_categorical_crossentropy, categorical_crossentropy, "
        "binary_crossentropy, mean_squared_error (mse), mean_absolute_error (mae), huber_loss "
        "(huber), kl_divergence (kld)."));
  }
  return f->second();
}

}  // namespace tfcc::keras::losses
