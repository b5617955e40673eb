// Overlap losses for segmentation masks (Dice, Tversky), with Keras 3's formulas and names.
//
//   namespace losses = tfcc::keras::losses;
//   losses::Dice dice({.axis = Axes({1, 2})});   // one value per image of a [B, H, W, 1] mask
//   Tensor loss = dice(masks, probabilities);
//
// Without an axis the sums run over every element (one value for the whole batch), as Keras.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>

#include "tfcc/core/tensor.h"
#include "tfcc/keras/losses/loss.h"
#include "tfcc/ops/axes.h"

namespace tfcc::keras::losses {

/// 1 - 2 sum(y_true y_pred) / (sum(y_true) + sum(y_pred) + eps), sums over `axis` (all: none).
Tensor dice(const Tensor& y_true, const Tensor& y_pred, const std::optional<Axes>& axis = {});
/// 1 - I / (I + alpha sum(y_true (1 - y_pred)) + beta sum((1 - y_true) y_pred) + eps), with
/// I = sum(y_true y_pred), sums over `axis` (all: none).
Tensor tversky(const Tensor& y_true, const Tensor& y_pred, double alpha = 0.5, double beta = 0.5,
               const std::optional<Axes>& axis = {});

/// Options of Dice.
struct DiceOptions {
  std::optional<Axes> axis;
  Reduction reduction = Reduction::kAuto;
  std::string name = "dice";
};
/// tf.keras.losses.Dice.
class Dice : public LossFunctionWrapper {
 public:
  explicit Dice(DiceOptions options = {});
  /// The options it was made with (its config).
  const DiceOptions& options() const { return options_; }

 private:
  DiceOptions options_;
};

/// Options of Tversky.
struct TverskyOptions {
  double alpha = 0.5;
  double beta = 0.5;
  std::optional<Axes> axis;
  Reduction reduction = Reduction::kAuto;
  std::string name = "tversky";
};
/// tf.keras.losses.Tversky.
class Tversky : public LossFunctionWrapper {
 public:
  explicit Tversky(TverskyOptions options = {});
  /// The options it was made with (its config).
  const TverskyOptions& options() const { return options_; }

 private:
  TverskyOptions options_;
};

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
