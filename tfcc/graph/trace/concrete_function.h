// ConcreteFunction: one trace of a tfcc::function, for one input signature: a graph and how to
// run it.
//
//   tfcc::ConcreteFunction cf = f.get_concrete_function(tfcc::TensorSpec{{-1, 3}});
//   std::cout << cf.graph().to_string();             // as traced
//   std::cout << cf.optimized_graph().to_string();   // after the graph passes: what runs
//   std::vector<tfcc::Tensor> out = cf({x});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfcc/graph/ir/graph.h"
#include "tfcc/graph/trace/tensor_spec.h"

namespace tfcc {

/// A traced graph with flat tensor inputs and outputs.
class ConcreteFunction {
 public:
  ConcreteFunction() = default;
  ConcreteFunction(std::shared_ptr<const graph::Graph> graph, std::vector<TensorSpec> inputs)
      : graph_(std::move(graph)), inputs_(std::move(inputs)) {}
  /// With an optimised version of `graph` for the executor (null: run `graph` itself).
  ConcreteFunction(std::shared_ptr<const graph::Graph> graph,
                   std::shared_ptr<const graph::Graph> optimized, std::vector<TensorSpec> inputs)
      : graph_(std::move(graph)), optimized_(std::move(optimized)), inputs_(std::move(inputs)) {}

  bool defined() const { return graph_ != nullptr; }
  const graph::Graph& graph() const;
  std::shared_ptr<const graph::Graph> shared_graph() const { return graph_; }
  /// The graph the executor runs: graph() after the graph passes (tfcc/graph/passes).
  const graph::Graph& optimized_graph() const;
  /// The tensor arguments it takes, in order.
  const std::vector<TensorSpec>& input_specs() const { return inputs_; }
  /// Its outputs' dtypes and static shapes.
  std::vector<TensorSpec> output_specs() const;

  /// Runs the graph. Arguments must match input_specs() (InvalidArgumentError otherwise).
  /// Called from inside another trace, the graph is inlined into it; called while a
  /// GradientTape records, it runs op by op so the tape sees (and can differentiate) every op;
  /// otherwise the executor runs optimized_graph().
  std::vector<Tensor> operator()(std::span<const Tensor> args) const;
  std::vector<Tensor> operator()(std::initializer_list<Tensor> args) const {
    return (*this)(std::span<const Tensor>(args.begin(), args.size()));
  }

 private:
  std::shared_ptr<const graph::Graph> graph_;
  std::shared_ptr<const graph::Graph> optimized_;
  std::vector<TensorSpec> inputs_;
};

namespace graph {

/// Observes the graph of every ConcreteFunction run (not the ones inlined into another trace)
/// while set: how summary::trace_on collects function graphs. Process-wide, like TensorFlow's
/// graph collection; the hook must be thread-safe.
using FunctionRunHook = std::function<void(const std::shared_ptr<const Graph>&)>;
/// Sets the hook (null: none).
void set_function_run_hook(FunctionRunHook hook);

}  // namespace graph
}  // namespace tfcc
#pragma GCC visibility pop
