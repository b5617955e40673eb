// Keras' loss formulas (keras/losses.py, keras/backend.py), written with ops.
#include "tfcc/keras/losses/losses.h"

#include <map>
#include <vector>

#include "tfcc/keras/losses/loss_util.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::losses {
namespace {

using detail::as_pred_dtype;
using detail::dim_as;

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

namespace {

template <typename L>
std::shared_ptr<Loss> make_loss() {
  return std::make_shared<L>();
}

struct LossEntry {
  std::shared_ptr<Loss> (*make)();
  std::vector<std::string> aliases;  // the class name first
};

// Every loss get() knows, by its Keras function name.
const std::map<std::string, LossEntry>& loss_table() {
  static const std::map<std::string, LossEntry> kTable = {
      {"sparse_categorical_crossentropy",
       {make_loss<SparseCategoricalCrossentropy>, {"SparseCategoricalCrossentropy"}}},
      {"categorical_crossentropy",
       {make_loss<CategoricalCrossentropy>, {"CategoricalCrossentropy"}}},
      {"binary_crossentropy", {make_loss<BinaryCrossentropy>, {"BinaryCrossentropy"}}},
      {"mean_squared_error", {make_loss<MeanSquaredError>, {"MeanSquaredError", "mse", "MSE"}}},
      {"mean_absolute_error", {make_loss<MeanAbsoluteError>, {"MeanAbsoluteError", "mae", "MAE"}}},
      {"huber_loss", {make_loss<Huber>, {"Huber", "huber"}}},
      {"kl_divergence",
       {make_loss<KLDivergence>, {"KLDivergence", "kld", "KLD", "kullback_leibler_divergence"}}},
      {"mean_squared_logarithmic_error",
       {make_loss<MeanSquaredLogarithmicError>, {"MeanSquaredLogarithmicError", "msle", "MSLE"}}},
      {"mean_absolute_percentage_error",
       {make_loss<MeanAbsolutePercentageError>, {"MeanAbsolutePercentageError", "mape", "MAPE"}}},
      {"log_cosh", {make_loss<LogCosh>, {"LogCosh", "logcosh"}}},
      {"poisson", {make_loss<Poisson>, {"Poisson"}}},
      {"cosine_similarity", {make_loss<CosineSimilarity>, {"CosineSimilarity"}}},
      {"hinge", {make_loss<Hinge>, {"Hinge"}}},
      {"squared_hinge", {make_loss<SquaredHinge>, {"SquaredHinge"}}},
      {"categorical_hinge", {make_loss<CategoricalHinge>, {"CategoricalHinge"}}},
      {"binary_focal_crossentropy",
       {make_loss<BinaryFocalCrossentropy>, {"BinaryFocalCrossentropy"}}},
      {"categorical_focal_crossentropy",
       {make_loss<CategoricalFocalCrossentropy>, {"CategoricalFocalCrossentropy"}}},
      {"dice", {make_loss<Dice>, {"Dice"}}},
      {"tversky", {make_loss<Tversky>, {"Tversky"}}},
  };
  return kTable;
}

}  // namespace

std::shared_ptr<Loss> get(const std::string& identifier) {
  const auto& table = loss_table();
  if (auto it = table.find(identifier); it != table.end()) return it->second.make();
  std::string known;
  for (const auto& [name, entry] : table) {
    for (const std::string& alias : entry.aliases) {
      if (alias == identifier) return entry.make();
    }
    known += (known.empty() ? "" : ", ") + name;
  }
  throw InvalidArgumentError(
      internal::str_cat("Unknown loss function: '", identifier, "'. Known losses: ", known,
                        " (and their class names, e.g. 'MeanSquaredError', or 'mse')."));
}

}  // namespace tfcc::keras::losses
