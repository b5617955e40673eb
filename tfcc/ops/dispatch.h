// The one dispatch point. Every op call, from every typed API function, goes through dispatch():
//
//   Tensor in[] = {x, y};
//   std::vector<Tensor> out = tfcc::dispatch(tfcc::op_def("AddV2"), in, {});
//
// dispatch() checks the call against the OpDef (input count, dtypes, attribute types, defaults),
// then asks the thread's context stack what to do: with no context pushed it runs the CPU kernel
// now (eager); a tracing context (graph layer) appends a node instead. Independently, every
// registered observer (an active GradientTape) records the call. This file is the small interface
// that graph/trace and autodiff plug into, so ops never includes them.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <source_location>
#include <span>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Decides how op calls execute; pushed by the graph layer while tracing.
class ExecutionContext {
 public:
  virtual ~ExecutionContext() = default;
  virtual std::vector<Tensor> execute(const OpCall& call) = 0;
};

/// Sees every op call after it ran (GradientTape implements this).
class OpObserver {
 public:
  virtual ~OpObserver() = default;
  virtual void record(const OpCall& call, std::span<const Tensor> outputs) = 0;
  /// A computation with its own gradient function (custom_gradient); default: ignored.
  virtual void record_custom(std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                             GradFn grad) {
    (void)inputs;
    (void)outputs;
    (void)grad;
  }
};

/// Tells every observer of this thread about a custom-gradient computation.
void record_custom_gradient(std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                            const GradFn& grad);

/// Runs an op: the single entry point for every op call.
std::vector<Tensor> dispatch(const OpDef& op, std::span<const Tensor> inputs, Attrs attrs,
                             std::source_location loc = std::source_location::current());

/// dispatch() for single-output ops.
Tensor dispatch1(const OpDef& op, std::span<const Tensor> inputs, Attrs attrs,
                 std::source_location loc = std::source_location::current());

/// Runs a checked call eagerly on the CPU: the default when no context is pushed.
std::vector<Tensor> execute_eager(const OpCall& call);

/// The innermost execution context of this thread, or nullptr (eager).
ExecutionContext* current_execution_context();
void push_execution_context(ExecutionContext* ctx);
void pop_execution_context();

/// Makes `ctx` current for a scope.
class ExecutionContextScope {
 public:
  explicit ExecutionContextScope(ExecutionContext* ctx) { push_execution_context(ctx); }
  ~ExecutionContextScope() { pop_execution_context(); }
  ExecutionContextScope(const ExecutionContextScope&) = delete;
  ExecutionContextScope& operator=(const ExecutionContextScope&) = delete;
};

/// Observers of this thread's op calls, innermost last.
void add_op_observer(OpObserver* obs);
void remove_op_observer(OpObserver* obs);
/// True if some observer (a recording GradientTape) sees this thread's op calls; traced
/// functions then run op by op through dispatch() so the observers record them.
bool has_op_observers();

/// Suspends every observer for a scope (stop_gradient-style recording pauses, tape internals).
class ObserverPause {
 public:
  ObserverPause();
  ~ObserverPause();
  ObserverPause(const ObserverPause&) = delete;
  ObserverPause& operator=(const ObserverPause&) = delete;

 private:
  std::vector<OpObserver*> saved_;
};

}  // namespace tfcc
#pragma GCC visibility pop
