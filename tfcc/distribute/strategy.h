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
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc::distribute {

/// How values from the replicas are combined (tf.distribute.ReduceOp).
enum class ReduceOp { kSum, kMean };

class StrategyScope;

/// The interface every strategy implements (tf.distribute.Strategy).
class Strategy {
 public:
  virtual ~Strategy() = default;

  /// Number of replicas that take part in each step (tf's num_replicas_in_sync).
  virtual int num_replicas_in_sync() const = 0;
  /// This process's replica index, 0 .. num_replicas_in_sync() - 1.
  virtual int rank() const = 0;
  /// True on the replica that prints progress and writes checkpoints and logs (rank 0).
  bool is_chief() const { return rank() == 0; }

  /// Combines each tensor over all replicas. Every replica must pass tensors of the same dtypes
  /// and shapes in the same order; the result is identical, bit for bit, on every replica.
  virtual std::vector<Tensor> all_reduce(std::span<const Tensor> values, ReduceOp op) = 0;
  /// all_reduce() of one tensor (tf's strategy.reduce over a per-replica value).
  Tensor reduce(ReduceOp op, const Tensor& value);
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
};

/// The one-process strategy used when no scope is active.
class DefaultStrategy final : public Strategy {
 public:
  int num_replicas_in_sync() const override { return 1; }
  int rank() const override { return 0; }
  std::vector<Tensor> all_reduce(std::span<const Tensor> values, ReduceOp op) override;
  void broadcast_variables(std::span<const Variable> variables) override;
  void barrier() override {}
  std::string to_string() const override { return "DefaultStrategy"; }
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
