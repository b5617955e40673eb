// The tracing context: while a function is traced, it sits on the thread's dispatch stack and
// turns every op call into a graph node whose outputs are symbolic tensors.
//
//   tfcc::graph::TraceContext ctx("f");
//   tfcc::Tensor x = ctx.add_arg(tfcc::float32, tfcc::PartialShape({-1, 3}));
//   {
//     tfcc::ExecutionContextScope scope(&ctx);
//     tfcc::Tensor y = x * 2.0f;            // appends Mul; y is symbolic
//     ctx.finish({y});
//   }
//   std::cout << ctx.graph().to_string();
//
// Inputs of an op call are mapped to graph values: symbolic tensors of this trace directly;
// concrete (eager) tensors are captured as Const nodes; symbolic tensors of an enclosing trace
// (a cond branch using a value of the function around it) become extra arguments, listed in
// captures() so the enclosing node can pass them in. A symbolic tensor whose trace has ended is
// an error naming that trace and the line that created the tensor.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "tfcc/graph/ir/graph.h"
#include "tfcc/ops/dispatch.h"

namespace tfcc::graph {

/// State shared by a trace and the symbolic tensors it made (they outlive it).
struct TraceState {
  std::string name;  ///< function (or subgraph) name
  bool active = true;
  std::shared_ptr<TraceState> parent;  ///< the enclosing trace for subgraphs
  int graph_serial = 0;
};

/// A symbolic tensor's value: one output of one node of a trace.
class GraphValue : public SymbolicValue {
 public:
  GraphValue(std::shared_ptr<TraceState> owner, ValueRef ref, PartialShape shape,
             std::source_location loc)
      : owner_(std::move(owner)), ref_(ref), shape_(std::move(shape)), loc_(loc) {}
  PartialShape shape() const override { return shape_; }
  std::string origin() const override;
  [[noreturn]] void conversion_error(const std::source_location& loc) const override;

  const std::shared_ptr<TraceState>& owner() const { return owner_; }
  ValueRef ref() const { return ref_; }
  const std::source_location& location() const { return loc_; }

 private:
  std::shared_ptr<TraceState> owner_;
  ValueRef ref_;
  PartialShape shape_;
  std::source_location loc_;
};

/// Options that police what a trace may do.
struct TraceRules {
  /// Variables whose id is at least this were created during the trace; they are allowed only
  /// when `allow_variable_creation` (the first trace of a function). 0: no check.
  uint64_t first_new_variable_id = 0;
  bool allow_variable_creation = true;
  /// The function demands compilation (nested functions with another setting are not inlined).
  bool jit_compile = false;
};

/// Builds one graph from the op calls made while it is the current execution context.
class TraceContext : public ExecutionContext {
 public:
  /// `parent`: the trace enclosing this one (subgraphs of cond / while_loop), or null.
  explicit TraceContext(std::string name, TraceContext* parent = nullptr, TraceRules rules = {});
  ~TraceContext() override;
  TraceContext(const TraceContext&) = delete;
  TraceContext& operator=(const TraceContext&) = delete;

  /// Adds the next argument and returns its symbolic tensor.
  Tensor add_arg(DType dtype, const PartialShape& shape, std::string name = "arg",
                 std::source_location loc = std::source_location::current());
  /// ExecutionContext: appends the op call as a node.
  std::vector<Tensor> execute(const OpCall& call) override;
  /// Appends a node whose inputs are `inputs` (mapped like op inputs) and returns its outputs.
  std::vector<Tensor> add_node(Node node, std::span<const Tensor> inputs);
  /// The graph value a tensor stands for here (captures it if needed).
  ValueRef value_of(const Tensor& t, const std::source_location& loc);
  /// Sets the graph's outputs and ends the trace: its symbolic tensors become unusable.
  void finish(std::span<const Tensor> outputs,
              std::source_location loc = std::source_location::current());

  Graph& graph() { return *graph_; }
  std::shared_ptr<Graph> shared_graph() const { return graph_; }
  /// Outer tensors captured as extra arguments (after the explicit ones), in argument order.
  const std::vector<Tensor>& captures() const { return captures_; }
  int num_explicit_args() const { return num_explicit_args_; }
  TraceContext* parent() const { return parent_; }
  const std::shared_ptr<TraceState>& state() const { return state_; }
  /// True if `t` is a symbolic tensor of this trace or of an enclosing one still running.
  bool owns_or_encloses(const Tensor& t) const;
  /// Whether an op (stateful or not) was added: jit_compile checks host calls through this.
  const TraceRules& rules() const { return rules_; }

  /// The innermost TraceContext on this thread's dispatch stack, or null.
  static TraceContext* current();

 private:
  Tensor symbolic_output(int node, int index, const std::source_location& loc);
  void check_variable(const OpCall& call);

  std::string name_;
  TraceContext* parent_;
  TraceRules rules_;
  std::shared_ptr<TraceState> state_;
  std::shared_ptr<Graph> graph_;
  std::vector<Tensor> captures_;
  std::vector<std::pair<uint64_t, ValueRef>> mapped_;  // tensor id -> value (captures, consts)
  int num_explicit_args_ = 0;
};

/// Suspends tracing for a scope: ops run eagerly and tapes pause (tf.init_scope). Use it to
/// compute a variable's initial value on the first trace of a function.
class InitScope {
 public:
  InitScope();
  ~InitScope();
  InitScope(const InitScope&) = delete;
  InitScope& operator=(const InitScope&) = delete;

 private:
  class Eager;
  std::unique_ptr<Eager> eager_;
  ObserverPause pause_;
};

}  // namespace tfcc::graph
#pragma GCC visibility pop
