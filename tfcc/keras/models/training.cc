// Model.compile / fit / evaluate / predict, following tf.keras 2's training loop
// (tf_keras/engine/training.py): a CallbackList with the ProgbarLogger first and History last,
// metrics reset at each epoch start, validation through evaluate with "val_" names.
#include <algorithm>
#include <cmath>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/graph/trace/function.h"
#include "tfcc/keras/callbacks/progbar.h"
#include "tfcc/keras/models/data_source.h"
#include "tfcc/keras/models/distributed.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc::keras {
namespace {

// The model's output on `x` and its Keras mask (undefined: none), which weights the loss and
// the metrics.
std::pair<Tensor, Tensor> forward(Model& model, const Tensor& x, bool training) {
  MaskedTensors out = model.call_masked({x}, {}, {.training = training});
  TFCC_CHECK_ARG(out.values.size() == 1, "Layer '", model.name(), "' returned ", out.values.size(),
                 " outputs; override train_step / test_step for a model with several outputs");
  return {out.values[0], out.masks[0]};
}

callbacks::Logs to_logs(const StepLogs& step) {
  callbacks::Logs logs;
  for (const auto& [name, value] : step) logs.set(name, value.item<double>());
  return logs;
}

callbacks::Logs metric_logs(const Model& m) {
  callbacks::Logs logs;
  for (const auto& metric : m.metrics()) logs.set(metric->name(), metric->result().item<double>());
  return logs;
}

void check_compiled(const Model& m, const char* what) {
  TFCC_REQUIRE(FailedPreconditionError, m.compiled(), "You must compile your model before ", what,
               " (model '", m.name(), "'): call `model.compile(...)`");
}

// The CallbackList fit / evaluate / predict use: the progress bar first, History last.
callbacks::CallbackList make_callbacks(const std::vector<callbacks::CallbackPtr>& user, int verbose,
                                       std::shared_ptr<callbacks::History> history) {
  callbacks::CallbackList list;
  bool has_progbar = false;
  for (const auto& c : user) {
    if (std::dynamic_pointer_cast<callbacks::ProgbarLogger>(c)) has_progbar = true;
    list.append(c);
  }
  if (verbose != 0 && !has_progbar) list.prepend(std::make_shared<callbacks::ProgbarLogger>());
  if (history) list.append(history);
  return list;
}

// train_step / test_step traced into one graph per batch signature. The metric names are
// recorded while tracing (C++ code runs only then) and paired with the graph's outputs.
std::function<StepLogs(const data::Element&)> traced_step(Model& model, bool train,
                                                          std::shared_ptr<const graph::Graph>* g) {
  auto names = std::make_shared<std::vector<std::string>>();
  auto fn = tfcc::function(
      [&model, names, train](std::vector<Tensor> batch) {
        StepLogs logs = train ? model.train_step(batch) : model.test_step(batch);
        names->clear();
        std::vector<Tensor> values;
        for (auto& [n, v] : logs) {
          names->push_back(n);
          values.push_back(v);
        }
        return values;
      },
      {.name = train ? "train_function" : "test_function", .warn_on_retrace = false});
  return [fn, names, g](const data::Element& batch) {
    std::vector<Tensor> values = fn(batch);
    if (!*g) *g = fn.get_concrete_function(batch).shared_graph();
    StepLogs logs;
    for (size_t i = 0; i < values.size() && i < names->size(); ++i) {
      logs.emplace_back((*names)[i], values[i]);
    }
    return logs;
  };
}

}  // namespace

StepLogs Model::run_step(StepFunction& fn, bool train, const data::Element& batch) {
  if (run_eagerly_ || !fn.warm) {
    // Eager: always with run_eagerly, else for the first batch, which creates the variables
    // (lazily built layers, optimizer slots) outside any trace.
    fn.warm = true;
    return train ? train_step(batch) : test_step(batch);
  }
  if (!fn.traced) fn.traced = traced_step(*this, train, &fn.graph);
  return fn.traced(batch);
}

void Model::compile(CompileOptions options) {
  TFCC_CHECK_ARG(options.optimizer != nullptr, "compile: `optimizer` must not be null");
  optimizer_ = options.optimizer;
  loss_ = options.loss;
  compiled_metrics_.clear();
  for (auto& m : options.metrics) {
    TFCC_CHECK_ARG(m != nullptr, "compile: a metric is null");
    compiled_metrics_.push_back(m);
  }
  loss_tracker_ = std::make_shared<metrics::Mean>(metrics::MetricOptions{.name = "loss"});
  run_eagerly_ = options.run_eagerly;
  if (distribute::has_strategy()) strategy_ = &distribute::get_strategy();
  train_function_ = {};
  test_function_ = {};
  compiled_ = true;
}

std::vector<std::shared_ptr<metrics::Metric>> Model::metrics() const {
  std::vector<std::shared_ptr<metrics::Metric>> out;
  if (!compiled_) return out;
  if (loss_) out.push_back(loss_tracker_);
  out.insert(out.end(), compiled_metrics_.begin(), compiled_metrics_.end());
  return out;
}

void Model::reset_metrics() {
  for (auto& m : metrics()) m->reset_state();
}

Tensor Model::compute_loss(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight,
                           const Tensor& mask) {
  TFCC_REQUIRE(FailedPreconditionError, loss_ != nullptr, "Model '", name(),
               "' was compiled without a loss; pass `loss` to compile or override train_step");
  const DType dtype = is_floating(y_pred.dtype()) ? y_pred.dtype() : float32;
  Tensor loss =
      (*loss_)(y, y_pred, losses::apply_mask(sample_weight, mask, dtype, loss_->reduction()));
  auto reg = losses();
  if (!reg.empty()) {
    for (auto& r : reg) r = cast(r, loss.dtype());
    loss = add(loss, add_n(reg));
  }
  // Keras tracks the mean loss over batches weighted by the batch size.
  const int64_t batch = y_pred.rank() > 0 ? y_pred.shape()[0] : 1;
  loss_tracker_->update_state(loss, cast(constant(batch), loss.dtype()));
  return loss;
}

StepLogs Model::compute_metrics(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight,
                                const Tensor& mask) {
  // Keras' MeanMetricWrapper: the mask weighs each entry (reduction "sum").
  const DType dtype = is_floating(y_pred.dtype()) ? y_pred.dtype() : float32;
  const Tensor weight = losses::apply_mask(sample_weight, mask, dtype, losses::Reduction::kSum);
  for (auto& m : compiled_metrics_) m->update_state(y, y_pred, weight);
  StepLogs logs;
  for (auto& m : metrics()) logs.emplace_back(m->name(), m->result());
  return logs;
}

StepLogs Model::train_step(const data::Element& batch) {
  TFCC_CHECK_ARG(batch.size() >= 2, "train_step expects (x, y) or (x, y, sample_weight), got ",
                 batch.size(), " components");
  const Tensor& x = batch[0];
  const Tensor& y = batch[1];
  const Tensor sw = batch.size() > 2 ? batch[2] : Tensor();
  GradientTape tape;
  auto [y_pred, mask] = forward(*this, x, true);
  Tensor loss = compute_loss(y, y_pred, sw, mask);
  // Read after the forward pass: a subclassed model creates its weights on its first call.
  auto vars = trainable_variables();
  auto grads = distributed::gradients(*this, tape, loss, vars);
  optimizer_->apply_gradients(grads, vars);
  return compute_metrics(y, y_pred, sw, mask);
}

StepLogs Model::test_step(const data::Element& batch) {
  TFCC_CHECK_ARG(batch.size() >= 2, "test_step expects (x, y) or (x, y, sample_weight), got ",
                 batch.size(), " components");
  const Tensor sw = batch.size() > 2 ? batch[2] : Tensor();
  auto [y_pred, mask] = forward(*this, batch[0], false);
  compute_loss(batch[1], y_pred, sw, mask);
  return compute_metrics(batch[1], y_pred, sw, mask);
}

Tensor Model::predict_step(const data::Element& batch) {
  TFCC_CHECK_ARG(!batch.empty(), "predict_step expects (x, ...)");
  return (*this)(batch[0], {.training = false});
}

callbacks::History Model::fit(const Tensor& x, const Tensor& y, FitOptions options) {
  check_compiled(*this, "training it");
  TFCC_CHECK_ARG(options.validation_split >= 0 && options.validation_split < 1,
                 "`validation_split` must be in [0, 1), got ", options.validation_split);
  TFCC_CHECK_ARG(!(options.validation_split > 0 && options.validation_data),
                 "Pass either `validation_split` or `validation_data`, not both");
  TensorData train{x, y, options.sample_weight};
  train.check("fit");
  std::optional<TensorData> val;
  if (options.validation_split > 0) {
    auto [t, v] = train.split(options.validation_split);
    train = t;
    val = v;
  } else if (options.validation_data) {
    val = TensorData{options.validation_data->x, options.validation_data->y,
                     options.validation_data->sample_weight};
    val->check("validation_data");
  }
  const int64_t batch_size = options.batch_size.value_or(32);
  TFCC_CHECK_ARG(batch_size > 0, "batch_size must be positive, got ", batch_size);
  auto source = make_tensor_source(train, batch_size, options.shuffle, options.class_weight,
                                   distributed::shuffle_seed(*this));
  std::shared_ptr<BatchSource> val_source;
  if (val) {
    val_source =
        make_tensor_source(*val, options.validation_batch_size.value_or(batch_size), false, {});
  }
  return run_fit(*source, val_source.get(), options);
}

callbacks::History Model::fit(const data::Dataset& dataset, FitOptions options) {
  check_compiled(*this, "training it");
  TFCC_CHECK_ARG(!options.batch_size,
                 "Do not specify `batch_size` if your data is a dataset: "
                 "datasets generate batches");
  TFCC_CHECK_ARG(options.validation_split == 0,
                 "`validation_split` is only supported for "
                 "tensors; pass `validation_data` or split the dataset");
  TFCC_CHECK_ARG(options.sample_weight.defined() == false,
                 "`sample_weight` is not supported "
                 "with a dataset: make it the third component of each element");
  auto source = make_dataset_source(dataset, options.class_weight, options.steps_per_epoch);
  std::shared_ptr<BatchSource> val_source;
  if (options.validation_data) {
    TensorData v{options.validation_data->x, options.validation_data->y,
                 options.validation_data->sample_weight};
    v.check("validation_data");
    val_source = make_tensor_source(v, options.validation_batch_size.value_or(32), false, {});
  }
  return run_fit(*source, val_source.get(), options);
}

callbacks::History Model::run_fit(BatchSource& global_source, BatchSource* val_source,
                                  const FitOptions& options) {
  TFCC_CHECK_ARG(options.epochs >= 0 && options.initial_epoch >= 0,
                 "epochs and initial_epoch must be >= 0");
  TFCC_CHECK_ARG(options.verbose >= 0 && options.verbose <= 2, "verbose must be 0, 1 or 2");
  distributed::ReplicaSource source(*this, global_source, true);
  const int verbose = distributed::verbose_for(*this, options.verbose);
  auto history = std::make_shared<callbacks::History>();
  auto cbs = make_callbacks(options.callbacks, verbose, history);
  std::optional<int64_t> steps = options.steps_per_epoch ? options.steps_per_epoch : source.steps();
  cbs.configure(this, {.verbose = verbose, .epochs = options.epochs, .steps = steps});
  stop_training = false;
  FitProgress progress{.epoch = options.initial_epoch,
                       .save_data_state = [&source] { return source.save_state(); }};
  fit_progress_ = &progress;
  struct ClearProgress {
    Model* model;
    ~ClearProgress() { model->fit_progress_ = nullptr; }
  } clear_progress{this};
  callbacks::Logs logs;
  callbacks::Logs training_logs;
  cbs.on_train_begin(logs);
  const std::optional<FitProgress::Resume> resume = std::move(progress.resume);
  if (resume) resume_fit(source, *resume);
  for (int epoch = resume ? resume->epoch : options.initial_epoch; epoch < options.epochs;
       ++epoch) {
    // A run resumed mid-epoch keeps the epoch's restored metrics and data position.
    const bool mid_epoch = resume && epoch == resume->epoch && resume->step > 0;
    progress.epoch = epoch;
    progress.step = mid_epoch ? resume->step : 0;
    if (!mid_epoch) reset_metrics();
    // Resumed at an epoch's last batch, the epoch's logs are the restored metrics' values.
    if (mid_epoch) logs = metric_logs(*this);
    callbacks::Logs epoch_begin;
    cbs.on_epoch_begin(epoch, epoch_begin);
    if (!mid_epoch) source.start_epoch();
    int64_t step = progress.step;
    while (!steps || step < *steps) {
      auto batch = source.next();
      if (!batch) {
        TFCC_REQUIRE(OutOfRangeError, step > 0 || epoch > options.initial_epoch,
                     "fit: the training data produced no batches");
        break;
      }
      callbacks::Logs batch_begin;
      cbs.on_train_batch_begin(static_cast<int>(step), batch_begin);
      logs = to_logs(distributed::sync_logs(*this, run_step(train_function_, true, *batch)));
      progress.step = step + 1;
      cbs.on_train_batch_end(static_cast<int>(step), logs);
      ++step;
      if (stop_training) break;
    }
    distributed::sync_non_trainable(*this);
    callbacks::Logs epoch_logs = logs;
    if (val_source && options.validation_freq > 0 && (epoch + 1) % options.validation_freq == 0) {
      auto val_logs = run_evaluate(*val_source, options.validation_steps, &cbs);
      for (const auto& [k, v] : val_logs.items()) epoch_logs.set("val_" + k, v);
    }
    cbs.on_epoch_end(epoch, epoch_logs);
    training_logs = epoch_logs;
    if (stop_training) break;
  }
  cbs.on_train_end(training_logs);
  return *history;
}

void Model::resume_fit(BatchSource& source, const FitProgress::Resume& resume) {
  TFCC_CHECK_ARG(resume.epoch >= 0 && resume.step >= 0, "fit: cannot resume at epoch ",
                 resume.epoch, ", step ", resume.step);
  source.restore_state(resume.data);
  // The variables (optimizer slots included) exist, restored: the first step may run traced, as
  // it did in the interrupted run, instead of eagerly.
  train_function_.warm = true;
}

callbacks::Logs Model::run_evaluate(BatchSource& global_source, std::optional<int64_t> steps_opt,
                                    callbacks::CallbackList* cbs) {
  distributed::ReplicaSource source(*this, global_source, true);
  reset_metrics();
  callbacks::Logs logs;
  if (cbs) cbs->on_test_begin(logs);
  source.start_epoch();
  std::optional<int64_t> steps = steps_opt ? steps_opt : source.steps();
  int64_t step = 0;
  while (!steps || step < *steps) {
    auto batch = source.next();
    if (!batch) break;
    callbacks::Logs batch_begin;
    if (cbs) cbs->on_test_batch_begin(static_cast<int>(step), batch_begin);
    logs = to_logs(distributed::sync_logs(*this, run_step(test_function_, false, *batch)));
    if (cbs) cbs->on_test_batch_end(static_cast<int>(step), logs);
    ++step;
  }
  if (cbs) cbs->on_test_end(logs);
  return logs;
}

EvaluateResult Model::evaluate(const Tensor& x, const Tensor& y, EvaluateOptions options) {
  check_compiled(*this, "evaluating it");
  TensorData d{x, y, options.sample_weight};
  d.check("evaluate");
  auto source = make_tensor_source(d, options.batch_size.value_or(32), false, {});
  return evaluate_source(*source, options);
}

EvaluateResult Model::evaluate(const data::Dataset& dataset, EvaluateOptions options) {
  check_compiled(*this, "evaluating it");
  TFCC_CHECK_ARG(!options.batch_size, "Do not specify `batch_size` if your data is a dataset");
  auto source = make_dataset_source(dataset, {}, std::nullopt);
  return evaluate_source(*source, options);
}

EvaluateResult Model::evaluate_source(BatchSource& source, const EvaluateOptions& options) {
  const int verbose = distributed::verbose_for(*this, options.verbose);
  auto cbs = make_callbacks(options.callbacks, verbose, nullptr);
  cbs.configure(
      this,
      {.verbose = verbose, .epochs = 1, .steps = options.steps ? options.steps : source.steps()});
  auto logs = run_evaluate(source, options.steps, &cbs);
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [k, v] : logs.items()) out.emplace_back(k, v);
  return EvaluateResult(std::move(out), options.return_dict);
}

void EvaluateResult::require(bool dict_form) const {
  if (dict_form == is_dict_) return;
  throw InvalidArgumentError(
      dict_form ? "This evaluate result is a list (evaluate was called without return_dict): "
                  "index it by position"
                : "This evaluate result is a dict (evaluate was called with return_dict = "
                  "true): index it by name, e.g. result[\"loss\"]");
}

double EvaluateResult::operator[](size_t i) const {
  require(false);
  TFCC_REQUIRE(OutOfRangeError, i < values_.size(), "evaluate result index ", i, " out of range (",
               values_.size(), " values)");
  return values_[i];
}

const std::vector<double>& EvaluateResult::values() const {
  require(false);
  return values_;
}

double EvaluateResult::operator[](const std::string& name) const {
  require(true);
  for (const auto& [k, v] : items_) {
    if (k == name) return v;
  }
  std::string known;
  for (const auto& [k, v] : items_) known.append(known.empty() ? "" : ", ").append(k);
  throw NotFoundError(
      internal::str_cat("evaluate result has no value named '", name, "' (it has: ", known, ")"));
}

std::vector<std::string> EvaluateResult::keys() const {
  require(true);
  std::vector<std::string> out;
  for (const auto& [k, v] : items_) out.push_back(k);
  return out;
}

std::map<std::string, double> EvaluateResult::dict() const {
  require(true);
  return {items_.begin(), items_.end()};
}

Tensor Model::predict(const Tensor& x, PredictOptions options) {
  TFCC_CHECK_ARG(x.defined() && x.rank() >= 1, "predict expects a tensor of rank >= 1");
  TensorData d{x, Tensor(), Tensor()};
  auto source = make_tensor_source(d, options.batch_size.value_or(32), false, {});
  return predict_source(*source, options);
}

Tensor Model::predict(const data::Dataset& dataset, PredictOptions options) {
  TFCC_CHECK_ARG(!options.batch_size, "Do not specify `batch_size` if your data is a dataset");
  auto source = make_dataset_source(dataset, {}, std::nullopt);
  return predict_source(*source, options);
}

Tensor Model::predict_source(BatchSource& source, const PredictOptions& options) {
  const int verbose = distributed::verbose_for(*this, options.verbose);
  auto cbs = make_callbacks(options.callbacks, verbose, nullptr);
  cbs.configure(
      this,
      {.verbose = verbose, .epochs = 1, .steps = options.steps ? options.steps : source.steps()});
  callbacks::Logs logs;
  cbs.on_predict_begin(logs);
  source.start_epoch();
  std::vector<Tensor> outputs;
  int64_t step = 0;
  while (!options.steps || step < *options.steps) {
    auto batch = source.next();
    if (!batch) break;
    callbacks::Logs batch_logs;
    cbs.on_predict_batch_begin(static_cast<int>(step), batch_logs);
    outputs.push_back(predict_step(*batch));
    cbs.on_predict_batch_end(static_cast<int>(step), batch_logs);
    ++step;
  }
  cbs.on_predict_end(logs);
  TFCC_REQUIRE(OutOfRangeError, !outputs.empty(), "predict: the input produced no batches");
  return outputs.size() == 1 ? outputs[0] : concat(outputs, 0);
}

}  // namespace tfcc::keras
