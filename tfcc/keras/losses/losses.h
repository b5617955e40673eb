// Keras losses: the per-sample functions and the loss objects that weight and reduce them, with
// Keras 3's names, defaults and formulas (docs/keras3.md: where they differ from Keras 2). The
// other families: regression.h, hinge.h, focal.h, overlap.h.
//
//   namespace losses = tfcc::keras::losses;
//   auto loss_fn = losses::SparseCategoricalCrossentropy({.from_logits = true});
//   tfcc::Tensor loss = loss_fn(labels, logits);          // mean over the batch
//   auto bce = losses::get("binary_crossentropy");        // std::shared_ptr<Loss>
//
// Probabilities (from_logits = false) are clipped to [1e-7, 1 - 1e-7] before the log, as Keras
// does. The cross-entropies run on the fused tfcc::nn ops
// (sparse_softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
// sigmoid_cross_entropy_with_logits), like tf.keras.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <optional>
#include <string>

#include "tfcc/keras/losses/focal.h"
#include "tfcc/keras/losses/hinge.h"
#include "tfcc/keras/losses/loss.h"
#include "tfcc/keras/losses/overlap.h"
#include "tfcc/keras/losses/regression.h"

namespace tfcc::keras::losses {

// ---- Per-sample functions (tf.keras.losses.<name>): one value per sample, no reduction. ----

/// Cross-entropy of integer labels against class scores on the last axis of `y_pred`; labels
/// have y_pred's rank minus one (or a trailing size-1 dimension). Labels equal to `ignore_class`
/// give 0.
Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                       bool from_logits = false,
                                       std::optional<int64_t> ignore_class = std::nullopt);
/// -sum(y_true * log(p), axis) with one-hot (or soft) targets; label smoothing mixes the targets
/// with the uniform distribution: y * (1 - s) + s / num_classes.
Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                bool from_logits = false, double label_smoothing = 0,
                                int64_t axis = -1);
/// Mean over `axis` of the element-wise binary cross-entropy; smoothing: y * (1 - s) + s / 2.
Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                           double label_smoothing = 0, int64_t axis = -1);
/// mean((y_pred - y_true)^2, axis=-1).
Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred);
/// mean(|y_pred - y_true|, axis=-1).
Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred);
/// mean over the last axis of 0.5 e^2 where |e| <= delta, else delta |e| - 0.5 delta^2.
Tensor huber(const Tensor& y_true, const Tensor& y_pred, double delta = 1.0);
/// sum(t * log(t / p), axis=-1) with t, p clipped to [1e-7, 1].
Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred);

// ---- Loss objects. ----

/// Options of SparseCategoricalCrossentropy.
struct SparseCategoricalCrossentropyOptions {
  bool from_logits = false;
  std::optional<int64_t> ignore_class;
  Reduction reduction = Reduction::kAuto;
  std::string name = "sparse_categorical_crossentropy";
};
/// tf.keras.losses.SparseCategoricalCrossentropy.
class SparseCategoricalCrossentropy : public Loss {
 public:
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  /// The options it was made with (its config).
  const SparseCategoricalCrossentropyOptions& options() const { return options_; }

 protected:
  Tensor valid_mask(const Tensor& y_true, const Tensor& y_pred) const override;

 private:
  SparseCategoricalCrossentropyOptions options_;
};

/// Options of CategoricalCrossentropy.
struct CategoricalCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0;
  int64_t axis = -1;
  Reduction reduction = Reduction::kAuto;
  std::string name = "categorical_crossentropy";
};
/// tf.keras.losses.CategoricalCrossentropy.
class CategoricalCrossentropy : public Loss {
 public:
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  /// The options it was made with (its config).
  const CategoricalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalCrossentropyOptions options_;
};

/// Options of BinaryCrossentropy.
struct BinaryCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0;
  int64_t axis = -1;
  Reduction reduction = Reduction::kAuto;
  std::string name = "binary_crossentropy";
};
/// tf.keras.losses.BinaryCrossentropy.
class BinaryCrossentropy : public Loss {
 public:
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  /// The options it was made with (its config).
  const BinaryCrossentropyOptions& options() const { return options_; }

 private:
  BinaryCrossentropyOptions options_;
};

/// tf.keras.losses.MeanSquaredError ("mean_squared_error").
class MeanSquaredError : public Loss {
 public:
  explicit MeanSquaredError(SimpleLossOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
};
/// tf.keras.losses.MeanAbsoluteError ("mean_absolute_error").
class MeanAbsoluteError : public Loss {
 public:
  explicit MeanAbsoluteError(SimpleLossOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
};
/// tf.keras.losses.KLDivergence ("kl_divergence").
class KLDivergence : public Loss {
 public:
  explicit KLDivergence(SimpleLossOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
};

/// Options of Huber.
struct HuberOptions {
  double delta = 1.0;
  Reduction reduction = Reduction::kAuto;
  std::string name = "huber_loss";
};
/// tf.keras.losses.Huber.
class Huber : public Loss {
 public:
  explicit Huber(HuberOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;

 private:
  double delta_;
};

/// A loss object by Keras name or alias ("sparse_categorical_crossentropy", "mse", "mae",
/// "huber", "kld", class names such as "BinaryCrossentropy", ...), with default options.
/// InvalidArgumentError for an unknown name.
std::shared_ptr<Loss> get(const std::string& identifier);

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
