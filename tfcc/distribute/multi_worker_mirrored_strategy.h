// MultiWorkerMirroredStrategy: synchronous data parallelism over MPI, one replica per process.
//
// Launch the same program on several processes with Debian's OpenMPI:
//
//   mpirun -np 2 ./train            # add --oversubscribe --allow-run-as-root as needed
//
//   tfcc::distribute::MultiWorkerMirroredStrategy strategy({.timeout_seconds = 60});
//   auto scope = strategy.scope();
//   strategy.broadcast_variables(vars);           // identical start on every rank
//   for (...) {                                    // each rank reads its own shard of the data
//     auto grads = tape.gradient(loss, vars);
//     grads = strategy.all_reduce(grads, tfcc::distribute::ReduceOp::kMean);
//     optimizer.apply_gradients(grads, vars);     // weights stay equal on every rank
//   }
//
// Collectives run on one background communication thread per process, in the order the program
// issues them (the same on every rank). strategy.gradient(tape, loss, vars) (what Keras' fit
// uses) starts each gradient bucket's all-reduce there as soon as the backward pass has produced
// it, and waits once, before the optimizer applies them.
//
// Gradients are fused into buckets (`bucket_bytes`) so many small tensors cost few collectives,
// and each element is summed in rank order, so every rank gets the same bits on every run. If a
// rank dies or stalls, the others raise DeadlineExceededError after `timeout_seconds` and the MPI
// job is aborted when they exit: training never hangs. Mismatched calls across ranks (different
// shapes or a different collective) raise FailedPreconditionError.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "tfcc/distribute/strategy.h"

namespace tfcc::distribute {

/// Options of MultiWorkerMirroredStrategy.
struct MultiWorkerMirroredOptions {
  /// How long a collective may wait for the other workers before failing.
  double timeout_seconds = 60;
  /// Tensors are packed into collectives of at most this many bytes.
  size_t bucket_bytes = size_t{4} << 20;
  /// Gradients reduced by gradient() are packed into buckets of at most this many bytes, each
  /// started as soon as the backward pass has produced it: smaller buckets start earlier (more
  /// overlap), larger ones cost fewer collectives. 0: bucket_bytes, and no overlap.
  size_t gradient_bucket_bytes = size_t{1} << 20;
};

/// Data parallelism over the processes of an MPI job (tf.distribute.MultiWorkerMirroredStrategy).
class MultiWorkerMirroredStrategy final : public Strategy {
 public:
  explicit MultiWorkerMirroredStrategy(MultiWorkerMirroredOptions options = {});
  /// Waits for the collectives this strategy queued (their jobs refer to it).
  ~MultiWorkerMirroredStrategy() override;

  int num_replicas_in_sync() const override;
  int rank() const override;
  void broadcast_variables(std::span<const Variable> variables) override;
  void barrier() override;
  std::string to_string() const override;

  CollectiveStats stats() const override;
  void reset_stats() override;

  /// Seconds this process has spent in collectives (waiting included).
  double collective_seconds() const;
  /// Number of collectives issued for tensor data so far (after bucketing).
  int64_t num_collectives() const { return num_collectives_.load(); }

 protected:
  std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp op) override;
  size_t gradient_bucket_bytes() const override { return options_.gradient_bucket_bytes; }
  int64_t start_bucket(int64_t step, std::span<const Tensor> tensors, ReduceOp op,
                       uint64_t signature) override;
  std::vector<Tensor> finish_buckets(int64_t step) override;
  void drop_buckets(int64_t step) override;

 private:
  struct PendingStep;
  // Runs `fn` on the communication thread and waits for it (the caller is blocked meanwhile).
  void run_collective(std::function<void()> fn);
  void add_stats(double all_reduce_seconds, double blocked_seconds);

  MultiWorkerMirroredOptions options_;
  uint64_t sequence_ = 0;  // collectives issued (training thread only)
  std::atomic<int64_t> num_collectives_{0};
  mutable std::mutex stats_mu_;  // stats_ is updated on the communication thread too
  CollectiveStats stats_;
  double wait_at_reset_ = 0;
  std::map<int64_t, std::shared_ptr<PendingStep>> steps_;  // gradient() reductions in flight
  int64_t next_step_ = 1;
};

}  // namespace tfcc::distribute
#pragma GCC visibility pop
