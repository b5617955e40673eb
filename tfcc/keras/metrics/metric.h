// keras::metrics::Metric: stateful metrics whose state lives in tfcc::Variables, so that
// update_state works eagerly and inside tfcc::function (the updates are variable ops).
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::Mean train_loss({.name = "train_loss"});
//   metrics::SparseCategoricalAccuracy train_accuracy({.name = "train_accuracy"});
//   train_loss(loss);                      // update_state + result
//   train_accuracy(labels, logits);
//   std::cout << train_loss.result().item<float>();
//   train_loss.reset_state();              // at the end of an epoch
//
// Metric names are exactly as given: they become the keys of fit's history.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::metrics {

/// Base of the metric objects.
class Metric {
 public:
  /// A metric named `name` whose state variables have `dtype`.
  explicit Metric(std::string name, DType dtype = float32);
  virtual ~Metric() = default;
  /// Movable (compile moves metric values into shared_ptrs); not copyable, since a copy would
  /// share the state variables with the original.
  Metric(Metric&&) = default;
  Metric& operator=(Metric&&) = default;
  Metric(const Metric&) = delete;
  Metric& operator=(const Metric&) = delete;

  /// Accumulates statistics from one batch.
  virtual void update_state(const Tensor& y_true, const Tensor& y_pred,
                            const Tensor& sample_weight = {}) = 0;
  /// The metric value from the state accumulated so far.
  virtual Tensor result() const = 0;
  /// Sets every state variable back to zero (or its initial value).
  virtual void reset_state();
  /// update_state, then result() (a Keras metric's __call__).
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = {});

  /// The metric's name.
  const std::string& name() const { return name_; }
  /// Renames the metric (compile uses the string the user passed).
  void set_name(std::string name) { name_ = std::move(name); }
  /// The state variables, in creation order.
  const std::vector<Variable>& variables() const { return variables_; }
  /// The dtype of the state and the result.
  DType dtype() const { return dtype_; }
  /// Keras' class name for a metric with a config (metrics::serialize); "" for the others.
  virtual std::string class_name() const { return ""; }
  /// Keras' get_config(): {"name", "dtype"} then the class's own keys (serialization.h).
  virtual saving::Json get_config() const;

 protected:
  /// Tag of the constructor that accepts an integer state dtype (IoU's confusion matrix).
  struct IntegerStateAllowed {};
  /// A metric whose state may be integers as well as floats.
  Metric(std::string name, DType dtype, IntegerStateAllowed);
  /// Creates a non-trainable state variable filled with `initial_value`.
  Variable add_weight(const std::string& name, const Shape& shape = {}, double initial_value = 0);

 private:
  std::string name_;
  DType dtype_;
  std::vector<Variable> variables_;
  std::vector<double> initial_values_;
};

/// How a Reduce metric combines values (keras.utils.metrics_utils.Reduction).
enum class ReduceKind { kSum, kSumOverBatchSize, kWeightedMean };

/// Options shared by metrics that only take a name and a dtype.
struct MetricOptions {
  std::optional<std::string> name;  ///< default: the metric's Keras name
  DType dtype = float32;
};

/// A metric that reduces values into `total` (and `count`): the base of Sum and Mean.
class Reduce : public Metric {
 public:
  Reduce(ReduceKind kind, std::string name, DType dtype);
  /// Adds `values` (weighted by `sample_weight`, broadcast or reduced to match) to the state.
  void update_state(const Tensor& values, const Tensor& sample_weight = {});
  /// Keras' Reduce takes (values, sample_weight), so three arguments are an error.
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight) override;
  /// update_state(values, sample_weight), then result().
  Tensor operator()(const Tensor& values, const Tensor& sample_weight = {});
  Tensor result() const override;

 private:
  ReduceKind kind_;
  Variable total_, count_;
};

/// tf.keras.metrics.Sum: the (weighted) sum of the values.
class Sum : public Reduce {
 public:
  explicit Sum(MetricOptions options = {});
};

/// tf.keras.metrics.Mean: sum(values * w) / sum(w) (w = 1 when no weights).
class Mean : public Reduce {
 public:
  explicit Mean(MetricOptions options = {});
};

/// A per-sample metric function: (y_true, y_pred) -> one value per sample.
using MetricFn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;

/// The weighted mean of a per-sample function (tf.keras.metrics.MeanMetricWrapper): y_true and
/// y_pred get Keras' squeeze of a trailing size-1 dimension first.
class MeanMetricWrapper : public Mean {
 public:
  MeanMetricWrapper(MetricFn fn, std::string name, DType dtype = float32);
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  /// update_state, then result().
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = {}) {
    return Metric::operator()(y_true, y_pred, sample_weight);
  }

 protected:
  MetricFn fn_;  ///< may be set after construction by subclasses that pick it from shapes
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
