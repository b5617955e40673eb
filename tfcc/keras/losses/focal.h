// Focal cross-entropies (Lin et al., 2017): cross-entropy down-weighted where the prediction is
// already confident, with Keras 3's formulas, names and defaults.
//
//   namespace losses = tfcc::keras::losses;
//   losses::BinaryFocalCrossentropy focal({.apply_class_balancing = true, .gamma = 2.0});
//   Tensor loss = focal(labels, probabilities);
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>

#include "tfcc/keras/losses/loss.h"

namespace tfcc::keras::losses {

/// mean over `axis` of (1 - p_t)^gamma * bce, p_t = y p + (1 - y)(1 - p), bce Keras 3's
/// clipped binary cross-entropy; with class balancing also times y alpha + (1 - y)(1 - alpha).
/// from_logits applies a sigmoid first; smoothing: y (1 - s) + s / 2.
Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                 bool apply_class_balancing = false, double alpha = 0.25,
                                 double gamma = 2.0, bool from_logits = false,
                                 double label_smoothing = 0, int64_t axis = -1);
/// sum over `axis` of -alpha (1 - p)^gamma y log(p), p the clipped, re-normalised prediction
/// (a softmax first with from_logits); smoothing: y (1 - s) + s / num_classes.
Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred,
                                      double alpha = 0.25, double gamma = 2.0,
                                      bool from_logits = false, double label_smoothing = 0,
                                      int64_t axis = -1);

/// Options of BinaryFocalCrossentropy.
struct BinaryFocalCrossentropyOptions {
  bool apply_class_balancing = false;
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0;
  int64_t axis = -1;
  Reduction reduction = Reduction::kAuto;
  std::string name = "binary_focal_crossentropy";
};
/// tf.keras.losses.BinaryFocalCrossentropy.
class BinaryFocalCrossentropy : public LossFunctionWrapper {
 public:
  explicit BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options = {});
  /// The options it was made with (its config).
  const BinaryFocalCrossentropyOptions& options() const { return options_; }

 private:
  BinaryFocalCrossentropyOptions options_;
};

/// Options of CategoricalFocalCrossentropy.
struct CategoricalFocalCrossentropyOptions {
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0;
  int64_t axis = -1;
  Reduction reduction = Reduction::kAuto;
  std::string name = "categorical_focal_crossentropy";
};
/// tf.keras.losses.CategoricalFocalCrossentropy.
class CategoricalFocalCrossentropy : public LossFunctionWrapper {
 public:
  explicit CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions options = {});
  /// The options it was made with (its config).
  const CategoricalFocalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalFocalCrossentropyOptions options_;
};

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
