// keras::Model: a layer made of layers, with summary() and (training.h) compile / fit / evaluate /
// predict. Three ways to make one, as in Keras:
//
//   // Functional: layers called on keras::Input.
//   auto inputs = keras::Input({784});
//   auto x = layers::Dense(64, {.activation = "relu"})(inputs);
//   keras::Model model(inputs, layers::Dense(10)(x));
//
//   // Subclassed: override call().
//   class MyModel : public keras::Model {
//    public:
//     MyModel() {
//       dense1_ = track_layer(std::make_shared<layers::Dense>(64, layers::Dense::Options{
//                                                                  .activation = "relu"}));
//       dense2_ = track_layer(std::make_shared<layers::Dense>(10));
//     }
//    protected:
//     tfcc::Tensor call(const tfcc::Tensor& x, bool training) override {
//       return (*dense2_)((*dense1_)(x, {training}), {training});
//     }
//    private:
//     std::shared_ptr<layers::Dense> dense1_, dense2_;
//   };
//
//   // Sequential: see sequential.h.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/data/dataset.h"
#include "tfcc/distribute/strategy.h"
#include "tfcc/keras/callbacks/callback.h"
#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/models/fit_progress.h"
#include "tfcc/keras/models/training_options.h"

namespace tfcc::graph {
class Graph;
}

namespace tfcc::keras {

class BatchSource;

/// Arguments of a Model.
struct ModelArgs {
  std::string name;  ///< default "model" (functional), "sequential", or the subclass's snake_case
  bool trainable = true;
};

/// A layer composed of layers.
class Model : public Layer {
  TFCC_KERAS_LAYER(Model)
 public:
  /// A subclassed model: override call() (or call_n()) and track sublayers with track_layer.
  explicit Model(ModelArgs args = {});
  /// A functional model from its inputs to its outputs.
  Model(const KerasTensors& inputs, const KerasTensors& outputs, ModelArgs args = {});
  Model(const KerasTensor& input, const KerasTensor& output, ModelArgs args = {});
  Model(const KerasTensors& inputs, const KerasTensor& output, ModelArgs args = {});

  /// The model's layers: functional models list their InputLayers too, in graph order;
  /// Sequential models list the layers as added; subclassed models their tracked sublayers.
  virtual std::vector<std::shared_ptr<Layer>> layers() const;
  /// The layer called `name`; InvalidArgumentError if there is none.
  std::shared_ptr<Layer> get_layer(const std::string& name) const;
  /// Prints Keras' summary table (layer, output shape, parameter count, totals).
  void summary(std::ostream& os = std::cout) const;
  /// The summary as a string.
  std::string summary_string() const;
  /// True for a functional (or built Sequential) model.
  bool is_graph_network() const { return graph_.has_value(); }
  /// The functional graph's inputs and outputs (empty for subclassed models).
  KerasTensors inputs() const { return graph_ ? graph_->inputs : KerasTensors{}; }
  KerasTensors outputs() const { return graph_ ? graph_->outputs : KerasTensors{}; }

  // Training (training.cc). Data elements are (x, y) or (x, y, sample_weight).

  /// Configures the model for training (loss, optimizer, metrics).
  void compile(CompileOptions options);
  /// Trains on tensors: the first dimension indexes samples.
  callbacks::History fit(const Tensor& x, const Tensor& y, FitOptions options = {});
  /// Trains on a dataset of (x, y) or (x, y, sample_weight) batches.
  callbacks::History fit(const data::Dataset& dataset, FitOptions options = {});
  /// The loss and metrics on tensors: {loss, metric...} in compile order (by name with
  /// {.return_dict = true}).
  EvaluateResult evaluate(const Tensor& x, const Tensor& y, EvaluateOptions options = {});
  /// The loss and metrics on a dataset of batches.
  EvaluateResult evaluate(const data::Dataset& dataset, EvaluateOptions options = {});
  /// The outputs for tensors, batch by batch, concatenated.
  Tensor predict(const Tensor& x, PredictOptions options = {});
  /// The outputs for a dataset whose elements are (x, ...) batches.
  Tensor predict(const data::Dataset& dataset, PredictOptions options = {});

  /// One training step on a batch: forward, loss, gradients, optimizer update, metrics. Override
  /// it to customise fit (Keras' "custom fit" guide); return the metric values to log. Under a
  /// strategy, an override averages its gradients with distributed::average_gradients
  /// (tfcc/keras/models/distributed.h) before applying them, as this one does.
  virtual StepLogs train_step(const data::Element& data);
  /// One evaluation step: forward, loss, metrics.
  virtual StepLogs test_step(const data::Element& data);
  /// One prediction step: the model's output in inference mode.
  virtual Tensor predict_step(const data::Element& data);
  /// The compiled loss plus the regularization losses (Keras' compute_loss). `mask`: the Keras
  /// mask of y_pred (call_masked's), which weights the per-step losses as Keras does
  /// (losses::apply_mask); train_step and test_step pass the model output's mask.
  Tensor compute_loss(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight = {},
                      const Tensor& mask = {});
  /// Updates the compiled metrics and returns every metric's result (Keras' compute_metrics);
  /// masked entries of y_pred get weight 0.
  StepLogs compute_metrics(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight = {},
                           const Tensor& mask = {});
  /// The loss tracker ("loss") then the compiled metrics, once compiled.
  std::vector<std::shared_ptr<metrics::Metric>> metrics() const;
  /// Resets every metric's state.
  void reset_metrics();
  /// The compiled optimizer (null before compile).
  const std::shared_ptr<optimizers::Optimizer>& optimizer() const { return optimizer_; }
  /// The compiled loss (null before compile).
  const std::shared_ptr<losses::Loss>& loss() const { return loss_; }
  /// True after compile.
  bool compiled() const { return compiled_; }
  /// Whether the steps run eagerly (compile's run_eagerly).
  bool run_eagerly() const { return run_eagerly_; }
  /// The graph of the traced train step, once fit has traced it (null before, and with
  /// run_eagerly); the TensorBoard callback writes it.
  std::shared_ptr<const graph::Graph> train_function_graph() const { return train_function_.graph; }
  /// The strategy active when the model was created or compiled (tf's model.distribute_strategy;
  /// the default strategy when none was). fit / evaluate replicate over it (distributed.h); it
  /// must outlive the model's training.
  distribute::Strategy& distribute_strategy() const {
    return strategy_ ? *strategy_ : distribute::get_strategy();
  }

  /// Set by a callback to end fit after the current batch / epoch (EarlyStopping does).
  bool stop_training = false;
  /// Where the running fit is, and how to resume it (fit_progress.h); null outside fit.
  FitProgress* fit_progress() const { return fit_progress_; }

  // Saving (tfcc/keras/saving/model_saving.cc).

  /// Writes the weights (and the optimizer's state, once compiled) as a TensorFlow checkpoint
  /// `<filepath>.index` + `<filepath>.data-00000-of-00001`, keyed by object path.
  void save_weights(const std::string& filepath) const;
  /// Restores weights written by save_weights (and the optimizer's state when compiled).
  /// NotFoundError if absent, DataLossError if damaged, FailedPreconditionError on a mismatch.
  void load_weights(const std::string& filepath);
  /// Saves architecture (config), compile config, weights and optimizer state in directory
  /// `filepath`; keras::models::load_model reads it back.
  void save(const std::string& filepath) const;

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;
  /// A graph network carries each layer's output mask to the layers it feeds.
  MaskedTensors call_n_masked(const Tensors& inputs, const Tensors& masks, bool training) override;
  /// Makes this model a graph network (the functional constructor and Sequential use it).
  void init_graph(const KerasTensors& inputs, const KerasTensors& outputs, bool track_layers);
  /// Whether summary() draws the one-chain table (no "Connected to" column).
  virtual bool sequential_like() const;

 private:
  struct Graph {
    KerasTensors inputs, outputs;
    std::vector<std::shared_ptr<Node>> nodes;  // topological order, inputs first
    std::vector<std::shared_ptr<Layer>> layers;
  };
  std::optional<Graph> graph_;

  callbacks::History run_fit(BatchSource& source, BatchSource* val_source,
                             const FitOptions& options);
  void resume_fit(BatchSource& source, const FitProgress::Resume& resume);
  FitProgress* fit_progress_ = nullptr;
  callbacks::Logs run_evaluate(BatchSource& source, std::optional<int64_t> steps,
                               callbacks::CallbackList* callbacks);
  EvaluateResult evaluate_source(BatchSource& source, const EvaluateOptions& options);
  Tensor predict_source(BatchSource& source, const PredictOptions& options);

  /// A train or test step, traced with tfcc::function unless run_eagerly (made by compile).
  struct StepFunction {
    std::function<StepLogs(const data::Element&)> traced;
    bool warm = false;  // the first call runs eagerly: it builds layers and optimizer slots
    std::shared_ptr<const graph::Graph> graph;  // the traced graph, once there is one
  };
  StepLogs run_step(StepFunction& fn, bool train, const data::Element& batch);

  bool compiled_ = false;
  bool run_eagerly_ = false;
  distribute::Strategy* strategy_ =
      distribute::has_strategy() ? &distribute::get_strategy() : nullptr;
  StepFunction train_function_, test_function_;
  std::shared_ptr<optimizers::Optimizer> optimizer_;
  std::shared_ptr<losses::Loss> loss_;
  std::shared_ptr<metrics::Mean> loss_tracker_;
  std::vector<std::shared_ptr<metrics::Metric>> compiled_metrics_;
};

}  // namespace tfcc::keras
#pragma GCC visibility pop
