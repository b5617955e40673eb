// Data-parallel fit / evaluate under a distribution strategy: the hooks training.cc calls.
// Users only create the model inside `strategy.scope()` (and, in a train_step override, pass the
// gradients through average_gradients as the default train_step does):
//
//   tfcc::distribute::MultiWorkerMirroredStrategy strategy;   // mpirun -np 2 ./train
//   auto scope = strategy.scope();
//   keras::Sequential model({...});                          // captures the strategy
//   model.compile({.optimizer = "adam", .loss = ..., .metrics = {"accuracy"}});
//   model.fit(train.shuffle(10000, /*seed=*/7).batch(64), {.epochs = 5});   // 64: global batch
//
// What fit does under a strategy with R > 1 replicas (tf.distribute.MultiWorkerMirroredStrategy):
// - Mirrored variables: at the first batch of fit / evaluate the model is built (if it was not)
//   and its weights and the optimizer's variables are broadcast from rank 0.
// - Input: every rank reads the same global batch stream (the batch size given to the dataset,
//   or fit's batch_size, is the global batch); rank r takes rows [N*r/R, N*(r+1)/R) of each
//   global batch of N rows (TF's per-replica batches of global_batch / num_replicas). So every
//   step sees exactly the global batch a single process would see. A global batch with fewer
//   rows than replicas is skipped with a warning. The first batch of every epoch is compared
//   across ranks; ranks that read different data (a dataset shuffled without a seed) stop with
//   FailedPreconditionError. fit's own shuffling of tensors uses a seed broadcast from rank 0.
// - Gradients are averaged (ReduceOp::kMean, TF Keras' scaling of the loss by 1/replicas) inside
//   the traced train step, through Strategy::gradient: each bucket's all-reduce starts as soon as
//   the backward pass has produced it, one wait before the optimizer applies (see
//   tfcc/distribute/strategy.h).
// - Loss and metrics: each metric's state variables are summed across ranks before result(),
//   so the logs are the global metrics and identical on every rank (callbacks decide alike).
//   Other log entries of a custom train_step are averaged.
// - Non-trainable float variables (BatchNormalization's moving statistics, which each rank
//   updates from its own rows) are averaged at the end of every epoch (TF's ON_READ / MEAN).
// - Only the chief (rank 0) prints: other ranks' verbose is forced to 0. Callbacks that write
//   files consult Callback::is_chief().
// - predict is not distributed: each rank predicts all of its input locally (the weights are
//   mirrored, so every rank gets the same, complete result, like TF's gathered predict output).
#pragma once

#include <memory>
#include <optional>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/keras/models/data_source.h"

namespace tfcc::distribute {
class Strategy;
}

namespace tfcc::keras {
class Model;
}

namespace tfcc::keras::distributed {

/// The model's strategy when it has more than one replica, else null (nothing to do).
distribute::Strategy* replicated(const Model& model);

/// The verbosity a rank uses: `verbose` on the chief, 0 elsewhere.
int verbose_for(const Model& model, int verbose);

/// Rows [N*rank/replicas, N*(rank+1)/replicas) of every component of a global batch of N rows.
data::Element shard_batch(const data::Element& batch, int rank, int replicas);

/// A BatchSource yielding this rank's part of each global batch of `global` (see the file
/// comment). With one replica it passes batches through unchanged.
class ReplicaSource : public BatchSource {
 public:
  /// `mirror`: build and broadcast the model at the first batch (fit and evaluate).
  ReplicaSource(Model& model, BatchSource& global, bool mirror);
  void start_epoch() override;
  std::optional<data::Element> next() override;
  std::optional<int64_t> steps() const override { return global_.steps(); }
  /// The global source's position (every rank reads the same global stream).
  std::string save_state() override { return global_.save_state(); }
  void restore_state(const std::string& state) override { global_.restore_state(state); }

 private:
  Model& model_;
  BatchSource& global_;
  distribute::Strategy* strategy_;
  bool mirror_;
  bool first_of_epoch_ = true;
};

/// Averages defined gradients across replicas (inside a trace: a CollectiveAllReduce node);
/// undefined ones stay undefined. Returns `grads` unchanged with one replica.
std::vector<Tensor> average_gradients(const Model& model, std::vector<Tensor> grads);

/// tape.gradient(loss, vars) averaged across replicas, each bucket's all-reduce started while
/// the tape computes the remaining gradients (distribute::Strategy::gradient). Plain
/// tape.gradient with one replica.
std::vector<Tensor> gradients(const Model& model, GradientTape& tape, const Tensor& loss,
                              const std::vector<Variable>& vars);

/// Step logs with every compiled metric's result computed from its state summed over the
/// replicas, and other entries averaged. Unchanged with one replica.
std::vector<std::pair<std::string, Tensor>> sync_logs(
    Model& model, std::vector<std::pair<std::string, Tensor>> logs);

/// Averages the model's non-trainable floating-point variables across replicas.
void sync_non_trainable(Model& model);

/// A seed every rank agrees on (rank 0's), for fit's per-epoch shuffling of tensors; nullopt
/// with one replica (fit then shuffles with the global random state, as before).
std::optional<uint64_t> shuffle_seed(const Model& model);

}  // namespace tfcc::keras::distributed
