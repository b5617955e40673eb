// Options of Model::compile, fit, evaluate and predict (tf.keras 2 names and defaults).
//
//   model.compile({.optimizer = "adam",
//                  .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
//                  .metrics = {"accuracy"}});
//   auto history = model.fit(x, y, {.batch_size = 64, .epochs = 5, .validation_split = 0.1});
//   auto results = model.evaluate(x_test, y_test);     // {loss, accuracy}
//
// Losses, optimizers and metrics are accepted by name, as values (moved into shared_ptrs) or as
// shared_ptrs the caller keeps (the ownership model of tfcc/module/module.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tfcc/keras/callbacks/callback.h"
#include "tfcc/keras/losses/losses.h"
#include "tfcc/keras/metrics/metrics.h"
#include "tfcc/keras/optimizers/optimizers.h"

namespace tfcc::keras {

namespace detail {
/// A shared_ptr<Base> made from a name (via `get`), a value (moved) or a shared_ptr.
template <typename Base, std::shared_ptr<Base> (*Get)(const std::string&)>
class Spec : public std::shared_ptr<Base> {
 public:
  Spec() = default;
  Spec(const char* name) : std::shared_ptr<Base>(Get(name)) {}         // NOLINT: implicit
  Spec(const std::string& name) : std::shared_ptr<Base>(Get(name)) {}  // NOLINT
  template <typename T>
  requires(std::is_base_of_v<Base, std::decay_t<T>> && !std::is_lvalue_reference_v<T>)
      Spec(T&& value)  // NOLINT
      : std::shared_ptr<Base>(std::make_shared<std::decay_t<T>>(std::move(value))) {}
  template <typename T>
  requires std::is_base_of_v<Base, T> Spec(std::shared_ptr<T> p)  // NOLINT
      : std::shared_ptr<Base>(std::move(p)) {}
};
}  // namespace detail

/// A loss: name ("sparse_categorical_crossentropy", "mse", ...), Loss value or shared_ptr.
using LossSpec = detail::Spec<losses::Loss, &losses::get>;
/// An optimizer: name ("adam", "sgd", ...), Optimizer value or shared_ptr.
using OptimizerSpec = detail::Spec<optimizers::Optimizer, &optimizers::get>;
/// A metric: name ("accuracy", "acc", "mse", ...; the metric is named exactly so), Metric value
/// or shared_ptr.
using MetricSpec = detail::Spec<metrics::Metric, &metrics::get>;

/// Options of Model::compile.
struct CompileOptions {
  OptimizerSpec optimizer = "rmsprop";
  LossSpec loss;
  std::vector<MetricSpec> metrics;
  /// Run train_step / test_step / predict_step eagerly instead of tracing them.
  bool run_eagerly = false;
};

/// Validation data given explicitly to fit.
struct ValidationData {
  Tensor x, y, sample_weight;
};

/// Options of Model::fit.
struct FitOptions {
  std::optional<int64_t> batch_size;  ///< tensors only; default 32
  int epochs = 1;
  int verbose = 1;  ///< 0 silent, 1 progress bar, 2 one line per epoch
  std::vector<callbacks::CallbackPtr> callbacks;
  double validation_split = 0.0;  ///< tensors only: the last fraction of the samples
  std::optional<ValidationData> validation_data;
  bool shuffle = true;  ///< tensors only: reshuffle the samples every epoch
  std::map<int64_t, double> class_weight;
  Tensor sample_weight;
  int initial_epoch = 0;
  std::optional<int64_t> steps_per_epoch;
  std::optional<int64_t> validation_steps;
  std::optional<int64_t> validation_batch_size;
  int validation_freq = 1;
};

/// Options of Model::evaluate.
struct EvaluateOptions {
  std::optional<int64_t> batch_size;
  int verbose = 1;
  Tensor sample_weight;
  std::optional<int64_t> steps;
  std::vector<callbacks::CallbackPtr> callbacks;
};

/// Options of Model::predict.
struct PredictOptions {
  std::optional<int64_t> batch_size;
  int verbose = 0;
  std::optional<int64_t> steps;
  std::vector<callbacks::CallbackPtr> callbacks;
};

/// Metric values by name as train_step / test_step return them (Keras' logs of tensors).
using StepLogs = std::vector<std::pair<std::string, Tensor>>;

}  // namespace tfcc::keras
