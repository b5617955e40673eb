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
// Gradients are fused into buckets (`bucket_bytes`) so many small tensors cost few collectives,
// and each element is summed in rank order, so every rank gets the same bits on every run. If a
// rank dies or stalls, the others raise DeadlineExceededError after `timeout_seconds` and the MPI
// job is aborted when they exit: training never hangs. Mismatched calls across ranks (different
// shapes or a different collective) raise FailedPreconditionError.
#pragma once

#include <string>

#include "tfcc/distribute/strategy.h"

namespace tfcc::distribute {

/// Options of MultiWorkerMirroredStrategy.
struct MultiWorkerMirroredOptions {
  /// How long a collective may wait for the other workers before failing.
  double timeout_seconds = 60;
  /// Tensors are packed into collectives of at most this many bytes.
  size_t bucket_bytes = size_t{4} << 20;
};

/// Data parallelism over the processes of an MPI job (tf.distribute.MultiWorkerMirroredStrategy).
class MultiWorkerMirroredStrategy final : public Strategy {
 public:
  explicit MultiWorkerMirroredStrategy(MultiWorkerMirroredOptions options = {});

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
  int64_t num_collectives() const { return num_collectives_; }

 protected:
  std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp op) override;

 private:
  MultiWorkerMirroredOptions options_;
  uint64_t sequence_ = 0;
  int64_t num_collectives_ = 0;
  CollectiveStats stats_;
  double wait_at_reset_ = 0;
};

}  // namespace tfcc::distribute
