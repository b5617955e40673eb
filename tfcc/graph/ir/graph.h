// The graph IR: plain data describing one traced function.
//
// A Graph is a list of nodes in execution (topological) order. Each node has a kind, an op (for
// registry ops), input references to earlier nodes' outputs, complete attributes, the dtype and
// static PartialShape of every output, and the user's source location where the op was called.
// Control flow nodes (If, While) hold their branches / condition and body as named subgraphs.
//
//   tfcc::graph::Graph g("f");
//   int x = g.add_arg(tfcc::float32, tfcc::PartialShape({-1, 3}));
//   ...
//   g.verify();                      // InternalError listing every inconsistency
//   std::cout << g.to_string();      // readable listing, one node a line
//
// Graphs are built by the tracing context (tfcc/graph/trace) and run by the executor
// (tfcc/graph/exec); passes would map Graph to Graph.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <vector>

#include "tfcc/ops/attrs.h"
#include "tfcc/ops/op_def.h"

namespace tfcc::graph {

/// One output of one node: the unit of data flow.
struct ValueRef {
  int node = -1;
  int index = 0;
  bool operator==(const ValueRef&) const = default;
};

/// What a node is.
enum class NodeKind {
  kArg,       ///< a function argument (also a TF1 placeholder); `arg_index` says which
  kConst,     ///< a captured concrete tensor (`value`)
  kOp,        ///< a registry op (`op`), run with its CPU kernel
  kIf,        ///< subgraphs[0] (then) or subgraphs[1] (else), chosen by input 0
  kWhile,     ///< subgraphs[0] (cond) and subgraphs[1] (body) over loop variables
  kHostCall,  ///< a C++ callback run at every execution (tfcc::print)
};

/// A C++ callback node's behaviour.
struct HostFn {
  std::string name;  ///< shown by the printer ("PrintV2")
  std::function<std::vector<Tensor>(std::span<const Tensor>)> fn;
};

class Graph;

/// One node of a graph.
struct Node {
  NodeKind kind = NodeKind::kOp;
  std::string name;           ///< unique within its graph ("MatMul_3")
  const OpDef* op = nullptr;  ///< kOp only
  std::vector<ValueRef> inputs;
  Attrs attrs;                       ///< kOp: complete attributes
  std::vector<DType> dtypes;         ///< one per output
  std::vector<PartialShape> shapes;  ///< one per output, as known at trace time
  std::source_location location;     ///< where the user's code created it
  /// The location as text ("model.cc:42") when the node was read from a file (an exported
  /// model) rather than traced; empty otherwise. location_string(node) prefers it.
  std::string location_text;
  int arg_index = -1;  ///< kArg
  Tensor value;        ///< kConst
  /// kIf: {then, else}; kWhile: {cond, body}.
  std::vector<std::shared_ptr<const Graph>> subgraphs;
  /// kIf: inputs[1, 1 + split) feed the then branch, the rest the else branch.
  /// kWhile: inputs[0, split) are the loop variables, then cond's captures, then body's.
  int split = 0;
  /// kWhile: inputs of the cond subgraph's captures (the rest are body captures).
  int cond_captures = 0;
  int64_t maximum_iterations = -1;  ///< kWhile; -1: none
  /// kWhile: also output, per loop variable, the stack of its values at the start of every
  /// iteration, then the iteration count (what the backward loop needs).
  bool keep_history = false;
  std::shared_ptr<const HostFn> host;  ///< kHostCall

  int num_outputs() const { return static_cast<int>(dtypes.size()); }
  /// "MatMul", "If", "Arg", ... for printing and errors.
  std::string type_name() const;
};

/// A function body: arguments, nodes in execution order, outputs.
class Graph {
 public:
  explicit Graph(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(int id) const { return nodes_.at(static_cast<size_t>(id)); }
  Node& mutable_node(int id) { return nodes_.at(static_cast<size_t>(id)); }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  /// Node ids of the arguments, in argument order.
  const std::vector<int>& args() const { return args_; }
  const std::vector<ValueRef>& outputs() const { return outputs_; }

  /// Appends a node (its name made unique) and returns its id.
  int add_node(Node node);
  /// Appends argument number args().size().
  int add_arg(DType dtype, PartialShape shape, std::string name = "arg",
              std::source_location loc = std::source_location::current());
  void set_outputs(std::vector<ValueRef> outputs) { outputs_ = std::move(outputs); }

  DType dtype(ValueRef v) const { return node(v.node).dtypes.at(static_cast<size_t>(v.index)); }
  const PartialShape& shape(ValueRef v) const {
    return node(v.node).shapes.at(static_cast<size_t>(v.index));
  }

  /// Checks structural invariants (inputs refer to earlier nodes' existing outputs, argument
  /// numbering, op input counts and dtypes, subgraph signatures); InternalError listing every
  /// problem found.
  void verify() const;
  /// The problems verify() would report (empty when the graph is well formed).
  std::vector<std::string> problems() const;

  /// A readable listing: signature, one node a line with its source location, subgraphs
  /// indented under their node.
  std::string to_string() const;

 private:
  void print(std::string& out, int indent) const;

  std::string name_;
  std::vector<Node> nodes_;
  std::vector<int> args_;
  std::vector<ValueRef> outputs_;
  std::vector<std::pair<std::string, int>> name_counts_;
};

/// "file.cc:42" (file name without directories) for messages.
std::string location_string(const std::source_location& loc);
/// The node's source location as text: location_text if set, else location_string(location).
std::string location_string(const Node& node);

}  // namespace tfcc::graph
#pragma GCC visibility pop
