// tfcc::compat::v1: TensorFlow 1's graph-and-session style, built on the tracing context (the
// same graph IR and executor as tfcc::function, not a second engine).
//
//   namespace v1 = tfcc::compat::v1;
//   v1::disable_eager_execution();          // this thread: ops now add nodes to the default graph
//   auto x = tfcc::constant(2);
//   auto y = tfcc::constant(3);
//   auto z = tfcc::add(x, y);               // a symbolic tensor: nothing computed yet
//   v1::Session sess;
//   std::cout << sess.run(z) << "\n";       // tf.Tensor(5, shape=(), dtype=int32)
//
// Placeholders are fed at run time:
//
//   auto a = v1::placeholder(tfcc::float32, tfcc::PartialShape({-1}));
//   auto b = a * 2.0f;
//   sess.run(b, {{a, tfcc::constant({1.f, 2.f})}});   // [2. 4.]
//
// Session::run computes only what the fetches need; a needed placeholder without a feed is an
// InvalidArgumentError naming it. Variables keep TF2 semantics: they are initialised when
// created (no initializer op to run), and graph nodes read and assign them when run.
// Graph::as_default() builds into another graph for a scope, eager mode or not.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/graph/trace/trace_context.h"

namespace tfcc::compat::v1 {

/// A TF1 graph: ops called while it is the default graph append nodes to it.
class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  /// Makes this graph the one ops build into, for the lifetime of the returned object.
  class DefaultScope {
   public:
    explicit DefaultScope(Graph& g) : scope_(&g.context()) {}

   private:
    ExecutionContextScope scope_;
  };
  DefaultScope as_default() { return DefaultScope(*this); }

  /// The nodes built so far.
  const graph::Graph& graph() const;
  std::string to_string() const { return graph().to_string(); }
  graph::TraceContext& context() { return *ctx_; }

 private:
  std::unique_ptr<graph::TraceContext> ctx_;
};

/// Turns eager execution off on this thread: ops add nodes to the default graph.
void disable_eager_execution();
/// Turns it back on (the default graph keeps its nodes).
void enable_eager_execution();
/// False while eager execution is disabled on this thread.
bool executing_eagerly();
/// This thread's default graph.
Graph& get_default_graph();
/// Replaces this thread's default graph with an empty one (tensors of the old one are dead).
void reset_default_graph();

/// A value fed at run time (tf.compat.v1.placeholder), in the current default graph.
Tensor placeholder(DType dtype, const PartialShape& shape = PartialShape::unknown_rank(),
                   const std::string& name = "Placeholder",
                   std::source_location loc = std::source_location::current());

/// Tensor -> value pairs fed to Session::run.
using FeedDict = std::vector<std::pair<Tensor, Tensor>>;

/// Runs parts of a graph (tf.compat.v1.Session).
class Session {
 public:
  /// A session on `graph` (default: this thread's default graph).
  Session();
  explicit Session(Graph& graph) : graph_(&graph) {}

  /// Computes `fetches` (tensors of the session's graph) with `feeds` substituted.
  std::vector<Tensor> run(const std::vector<Tensor>& fetches, const FeedDict& feeds = {}) const;
  /// One fetch.
  Tensor run(const Tensor& fetch, const FeedDict& feeds = {}) const;

 private:
  Graph* graph_;
};

}  // namespace tfcc::compat::v1
#pragma GCC visibility pop
