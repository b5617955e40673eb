// keras::losses::Loss: the base of every Keras loss object, and the reductions they share.
//
// A loss object is called as loss(y_true, y_pred, sample_weight): it computes one loss value per
// sample (the subclass's `call`), multiplies by the sample weights and reduces them. As in
// tf.keras 2, the default reduction (kAuto = kSumOverBatchSize) divides the weighted sum by the
// number of per-sample values, not by the sum of the weights.
//
//   namespace losses = tfcc::keras::losses;
//   losses::MeanSquaredError mse;
//   auto l = mse(y_true, y_pred);                        // scalar
//   losses::MeanSquaredError per_sample({.reduction = losses::Reduction::kNone});
//   auto v = per_sample(y_true, y_pred, weights);        // [batch]
//
// Everything is written with ops, so losses trace inside tfcc::function and differentiate.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::losses {

/// How per-sample losses are combined (tf.keras.losses.Reduction).
enum class Reduction {
  kAuto,              ///< AUTO: kSumOverBatchSize outside distribution strategies.
  kNone,              ///< NONE: the weighted per-sample losses as they are.
  kSum,               ///< SUM: the sum of the weighted losses.
  kSumOverBatchSize,  ///< SUM_OVER_BATCH_SIZE: the sum divided by the number of elements.
};

/// Keras' string for a reduction ("auto", "none", "sum", "sum_over_batch_size").
std::string reduction_name(Reduction r);

/// Keras' epsilon() (1e-7): the clipping margin for probabilities.
inline constexpr double kEpsilon = 1e-7;

/// Keras' apply_mask: merges the Keras mask of the predictions (bool, true = valid; e.g.
/// (batch, time)) into the sample weights. For the mean reductions valid entries weigh
/// total / valid, so the mean runs over the valid entries only; for kSum / kNone (and metrics)
/// the weight is the mask itself. A sample_weight of lower rank gets trailing axes first
/// ((batch,) weights a (batch, time) mask per sample). Returns sample_weight when the mask is
/// undefined.
Tensor apply_mask(const Tensor& sample_weight, const Tensor& mask, DType dtype,
                  Reduction reduction);

/// Base of the loss objects.
class Loss {
 public:
  /// A loss named `name` reducing with `reduction`.
  Loss(std::string name, Reduction reduction);
  virtual ~Loss() = default;

  /// The reduced, weighted loss. `sample_weight` (optional) is a scalar or broadcasts against
  /// the per-sample losses after Keras' squeeze/expand of a trailing size-1 dimension.
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) const;

  /// The per-sample losses (before weighting and reduction).
  virtual Tensor call(const Tensor& y_true, const Tensor& y_pred) const = 0;

  /// The loss's name ("sparse_categorical_crossentropy", ...).
  const std::string& name() const { return name_; }
  /// The reduction applied by operator().
  Reduction reduction() const { return reduction_; }

 protected:
  /// A 0/1 mask of valid per-sample entries, or an undefined tensor (all valid). Masked-out
  /// entries get weight 0 and the mean runs over the valid ones (Keras' ignore_class).
  virtual Tensor valid_mask(const Tensor& y_true, const Tensor& y_pred) const;

 private:
  std::string name_;
  Reduction reduction_;
};

/// Options of the losses that take only a reduction and a name.
struct SimpleLossOptions {
  Reduction reduction = Reduction::kAuto;
  std::optional<std::string> name;  ///< default: the loss's Keras name
};

/// A per-sample loss function: (y_true, y_pred) -> losses.
using LossFn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;

/// Options of a LossFunctionWrapper.
struct LossFunctionWrapperOptions {
  Reduction reduction = Reduction::kAuto;
  std::string name = "loss";
};

/// Turns a per-sample function into a loss object (tf.keras.losses.LossFunctionWrapper); y_true
/// and y_pred get Keras' squeeze/expand of a trailing size-1 dimension first.
class LossFunctionWrapper : public Loss {
 public:
  explicit LossFunctionWrapper(LossFn fn, LossFunctionWrapperOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;

 private:
  LossFn fn_;
};

/// Weights per-sample `losses` by `sample_weight` (undefined: 1) and reduces them
/// (keras.utils.losses_utils.compute_weighted_loss).
Tensor compute_weighted_loss(const Tensor& losses, const Tensor& sample_weight,
                             Reduction reduction);

/// Keras' squeeze_or_expand_dimensions for (y_pred, y_true): when the ranks differ by one and the
/// extra trailing dimension has size 1, it is squeezed away. Either tensor may be undefined.
void squeeze_or_expand_dimensions(Tensor& y_pred, Tensor& y_true);

/// Keras' rule for sample weights against values: a trailing size-1 dimension too many is
/// squeezed, one too few is added.
Tensor match_weight_rank(const Tensor& values, const Tensor& sample_weight);

/// x / y, 0 where y == 0 (tf.math.divide_no_nan).
Tensor divide_no_nan(const Tensor& x, const Tensor& y);

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
