// Regression and count losses beyond MSE / MAE / Huber, with Keras 3's formulas and names.
//
//   namespace losses = tfcc::keras::losses;
//   model.compile({.optimizer = "adam", .loss = std::make_shared<losses::LogCosh>()});
//   Tensor per_sample = losses::poisson(counts, rates);        // [batch]
//   losses::CosineSimilarity cos({.axis = 1});                  // -cos(angle), mean over the batch
//
// eps below is keras.backend.epsilon() (1e-7).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>
#include <string>

#include "tfcc/keras/losses/loss.h"

namespace tfcc::keras::losses {

/// mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2, axis=-1).
Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred);
/// 100 * mean(|(y_true - y_pred) / max(|y_true|, eps)|, axis=-1).
Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred);
/// mean(log(cosh(y_pred - y_true)), axis=-1), computed as x + softplus(-2x) - log 2.
Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred);
/// mean(y_pred - y_true * log(y_pred + eps), axis=-1).
Tensor poisson(const Tensor& y_true, const Tensor& y_pred);
/// -sum(l2_normalize(y_true) * l2_normalize(y_pred), axis); a zero vector gives 0.
Tensor cosine_similarity(const Tensor& y_true, const Tensor& y_pred, int64_t axis = -1);

/// tf.keras.losses.MeanSquaredLogarithmicError ("mean_squared_logarithmic_error").
class MeanSquaredLogarithmicError : public LossFunctionWrapper {
 public:
  explicit MeanSquaredLogarithmicError(SimpleLossOptions options = {});
};
/// tf.keras.losses.MeanAbsolutePercentageError ("mean_absolute_percentage_error").
class MeanAbsolutePercentageError : public LossFunctionWrapper {
 public:
  explicit MeanAbsolutePercentageError(SimpleLossOptions options = {});
};
/// tf.keras.losses.LogCosh ("log_cosh").
class LogCosh : public LossFunctionWrapper {
 public:
  explicit LogCosh(SimpleLossOptions options = {});
};
/// tf.keras.losses.Poisson ("poisson").
class Poisson : public LossFunctionWrapper {
 public:
  explicit Poisson(SimpleLossOptions options = {});
};

/// Options of CosineSimilarity.
struct CosineSimilarityOptions {
  int64_t axis = -1;
  Reduction reduction = Reduction::kAuto;
  std::string name = "cosine_similarity";
};
/// tf.keras.losses.CosineSimilarity.
class CosineSimilarity : public LossFunctionWrapper {
 public:
  explicit CosineSimilarity(CosineSimilarityOptions options = {});
  /// The options it was made with (its config).
  const CosineSimilarityOptions& options() const { return options_; }

 private:
  CosineSimilarityOptions options_;
};

}  // namespace tfcc::keras::losses
#pragma GCC visibility pop
