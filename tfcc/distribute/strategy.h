// Distribution strategies: one training step replicated over several workers, gradients averaged.
//
// A strategy is chosen once, before the model is built, and found again by code that needs it
// (Keras' fit, custom loops) through get_strategy():
//
//   tfcc::distribute::MultiWorkerMirroredStrategy strategy;   // run under `mpirun -np 2`
//   auto scope = strategy.scope();                           // get_strategy() is `strategy` now
//   std::vector<tfcc::Variable> vars = make_model();
//   strategy.broadcast_variables(vars);                      // every rank starts from rank 0's
//   ...
//   auto grads = tape.gradient(loss, vars);
//   grads = strategy.all_reduce(grads, tfcc::distribute::ReduceOp::kMean);
//   optimizer.apply_gradients(grads, vars);
//
// Without a scope, get_strategy() is the default strategy: one process, one replica, collectives
// that return their input. Each process is one replica (MultiWorkerMirroredStrategy with one CPU
// device per worker), so `run(fn)` calls fn once, in this process.
//
// Collectives inside tfcc::function. all_reduce() called while a function is traced (symbolic
// tensors, e.g. the gradients of a traced train step) adds one "CollectiveAllReduce" node to the
// graph: a host callback that, each time the graph runs, hands the concrete tensors to this
// strategy's eager all_reduce (fused buckets, rank-ordered sums). So a whole training step,
// gradient averaging included, is one traced function, and the result is bit-identical to the
// eager call. This is faster than splitting the step into a traced gradient function, a host
// all-reduce and a traced apply function (one graph run instead of two, no extra argument
// marshalling) and keeps user train_step overrides in one piece. The node keeps a weak reference:
// running it after the strategy is destroyed raises FailedPreconditionError.
//
// Gradients overlapped with the backward pass (Horovod's DistributedGradientTape):
//
//   auto grads = strategy.gradient(tape, loss, vars);   // = all_reduce(tape.gradient(...)), kMean
//
// plans buckets over the variables in reverse order (the order backprop produces their
// gradients), and starts each bucket's all-reduce on the process's communication thread as soon
// as all its gradients are final, while the tape still computes the earlier layers' gradients;
// one wait at the end collects the results. Buckets start in that fixed order on every rank, and
// each element is still summed in rank order, so the result is bit for bit the all_reduce() one.
// Traced, this is one "CollectiveAllReduceStart" host node per bucket, emitted right after the
// node that completes the bucket (so the executor, running nodes in order, starts the collective
// there), chained by a token, and one "CollectiveAllReduceWait" node whose outputs are the
// reduced gradients. Keras' fit uses it.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <vector>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc::distribute {

/// How values from the replicas are combined (tf.distribute.ReduceOp).
enum class ReduceOp { kSum, kMean };

class StrategyScope;

/// Counters of the collectives a strategy issued (for profiling; see benchmarks/).
struct CollectiveStats {
  int64_t all_reduce_calls = 0;  ///< all_reduce() calls that communicated
  int64_t tensors_reduced = 0;   ///< tensors passed to those calls
  int64_t bytes_reduced = 0;     ///< their bytes
  int64_t collectives = 0;       ///< collectives on tensor data, after bucketing
  /// Wall time of the all-reduce work (packing, waiting for the peers, summing), most of it on
  /// the communication thread, where gradient buckets overlap the backward pass.
  double all_reduce_seconds = 0;
  double wait_seconds = 0;  ///< time spent waiting in MPI (a subset of the above)
  /// Time the calling thread was blocked until all-reduce results were ready: the part of
  /// all_reduce_seconds that the backward pass did not hide (exposed communication).
  double blocked_seconds = 0;
  int64_t gradient_buckets = 0;  ///< buckets started by gradient() (overlapped reduction)
  /// Of those, the buckets whose all-reduce had completed before the training thread waited for
  /// them: entirely hidden behind the backward pass.
  int64_t hidden_buckets = 0;
};

/// The interface every strategy implements (tf.distribute.Strategy).
class Strategy {
 public:
  virtual ~Strategy() = default;
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;

  /// Number of replicas that take part in each step (tf's num_replicas_in_sync).
  virtual int num_replicas_in_sync() const = 0;
  /// This process's replica index, 0 .. num_replicas_in_sync() - 1.
  virtual int rank() const = 0;
  /// True on the replica that prints progress and writes checkpoints and logs (rank 0).
  bool is_chief() const { return rank() == 0; }

  /// Combines each tensor over all replicas. Every replica must pass tensors of the same dtypes
  /// and shapes in the same order; the result is identical, bit for bit, on every replica.
  /// Inside a tfcc::function trace it adds a CollectiveAllReduce node (see the file comment).
  std::vector<Tensor> all_reduce(std::span<const Tensor> values, ReduceOp op,
                                 std::source_location loc = std::source_location::current());
  /// all_reduce() of one tensor (tf's strategy.reduce over a per-replica value).
  Tensor reduce(ReduceOp op, const Tensor& value);
  /// all_reduce(tape.gradient(target, sources), op) over the defined gradients (undefined ones
  /// stay undefined), with each bucket's collective started while the tape still computes the
  /// remaining gradients (see the file comment). Eager or traced.
  std::vector<Tensor> gradient(GradientTape& tape, const Tensor& target,
                               const std::vector<Variable>& sources, ReduceOp op = ReduceOp::kMean,
                               std::source_location loc = std::source_location::current());
  /// Sets every variable to rank 0's value.
  virtual void broadcast_variables(std::span<const Variable> variables) = 0;
  /// Returns once every replica has called barrier().
  virtual void barrier() = 0;

  /// Runs the per-replica step `fn(args...)` (one replica per process, so: once, here).
  template <typename Fn, typename... Args>
  auto run(Fn&& fn, Args&&... args) {
    return std::forward<Fn>(fn)(std::forward<Args>(args)...);
  }

  /// Makes this the strategy get_strategy() returns, until the scope ends.
  StrategyScope scope();

  /// A short description, e.g. "MultiWorkerMirroredStrategy(rank 0 of 2)".
  virtual std::string to_string() const = 0;

  /// Counters of the collectives issued so far (zeros for strategies that do not communicate).
  virtual CollectiveStats stats() const { return {}; }
  /// Sets the counters back to zero.
  virtual void reset_stats() {}

 protected:
  Strategy();
  /// all_reduce() on concrete tensors: what each strategy implements.
  virtual std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp op) = 0;

  // Overlapped gradient reduction (gradient()); strategies that communicate implement these.
  /// Bytes per gradient bucket; 0: no overlap (gradient() reduces after the backward pass).
  virtual size_t gradient_bucket_bytes() const { return 0; }
  /// Starts reducing one bucket of concrete tensors (one dtype) of reduction `step` (0: a new
  /// one, whose participants first agree on `signature`); returns the step's handle.
  virtual int64_t start_bucket(int64_t step, std::span<const Tensor> tensors, ReduceOp op,
                               uint64_t signature);
  /// Waits for every bucket of `step` and returns their reduced tensors, in start order.
  virtual std::vector<Tensor> finish_buckets(int64_t step);
  /// Forgets `step` without waiting (its reduction was abandoned by an error).
  virtual void drop_buckets(int64_t step);

 private:
  // Expires with the strategy; traced CollectiveAllReduce nodes hold a weak_ptr to it.
  std::shared_ptr<Strategy*> alive_;
  friend class GradientReducer;
};

/// The one-process strategy used when no scope is active.
class DefaultStrategy final : public Strategy {
 public:
  int num_replicas_in_sync() const override { return 1; }
  int rank() const override { return 0; }
  void broadcast_variables(std::span<const Variable> variables) override;
  void barrier() override {}
  std::string to_string() const override { return "DefaultStrategy"; }

 protected:
  std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp op) override;
};

/// The strategy of the innermost active scope (any thread), or the default strategy.
Strategy& get_strategy();
/// True when a scope is active (tf.distribute.has_strategy).
bool has_strategy();

/// RAII: while alive, get_strategy() returns its strategy. Scopes nest.
class StrategyScope {
 public:
  explicit StrategyScope(Strategy* strategy);
  ~StrategyScope();
  StrategyScope(StrategyScope&& other) noexcept;
  StrategyScope(const StrategyScope&) = delete;
  StrategyScope& operator=(const StrategyScope&) = delete;
  StrategyScope& operator=(StrategyScope&&) = delete;

 private:
  Strategy* strategy_;
};

}  // namespace tfcc::distribute
#pragma GCC visibility pop
