// Options of Model::compile, fit, evaluate and predict (tf.keras 2 names and defaults).
//
//   model.compile({.optimizer = "adam",
//                  .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
//                  .metrics = {"accuracy"}});
//   auto history = model.fit(x, y, {.batch_size = 64, .epochs = 5, .validation_split = 0.1});
//   auto results = model.evaluate(x_test, y_test);     // {loss, accuracy}
//   auto named = model.evaluate(x_test, y_test, {.return_dict = true});
//   named["accuracy"];                                  // by name, as Keras' dict
//
// Losses, optimizers and metrics are accepted by name, as values (moved into shared_ptrs) or as
// shared_ptrs the caller keeps (the ownership model of tfcc/module/module.h).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

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
  /// Return the results by name ({"loss": ..., "accuracy": ...}) instead of as a list.
  bool return_dict = false;
};

/// What Model::evaluate returns: the loss and metric values in compile order, as a list
/// (Keras' default: `results[0]`, `results.size()`, a range of doubles, convertible to
/// std::vector<double>), or, with `return_dict`, as a dict keyed by metric name
/// (`results["loss"]`, `keys()`, `dict()`). Using the other form's accessors is an
/// InvalidArgumentError, as indexing a Python dict by position would be.
class EvaluateResult {
 public:
  EvaluateResult() = default;
  /// The values with their names; `is_dict` selects the form.
  EvaluateResult(std::vector<std::pair<std::string, double>> items, bool is_dict)
      : items_(std::move(items)), is_dict_(is_dict) {
    for (const auto& [name, value] : items_) values_.push_back(value);
  }

  /// True when evaluate was called with return_dict.
  bool is_dict() const { return is_dict_; }
  /// The number of values (loss and metrics).
  size_t size() const { return items_.size(); }

  // List form.
  /// The i-th value (list form); OutOfRangeError past the end.
  double operator[](size_t i) const;
  /// The values in order (list form).
  const std::vector<double>& values() const;
  /// A copy of the values (list form).
  operator std::vector<double>() const { return values(); }  // NOLINT: list-like
  /// Iteration over the values (list form).
  std::vector<double>::const_iterator begin() const { return values().begin(); }
  std::vector<double>::const_iterator end() const { return values().end(); }

  // Dict form.
  /// The value named `name` (dict form); NotFoundError listing the names when absent.
  double operator[](const std::string& name) const;
  /// The names in order ("loss", then the metrics as compiled; dict form).
  std::vector<std::string> keys() const;
  /// The values by name (dict form).
  std::map<std::string, double> dict() const;

 private:
  void require(bool dict_form) const;

  std::vector<std::pair<std::string, double>> items_;
  std::vector<double> values_;
  bool is_dict_ = false;
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
#pragma GCC visibility pop
