// Runs TensorFlow graphs through the op table (op_table.h) inside a tfcc trace: the top-level
// GraphDef of a signature and the FunctionDefs it calls, so the trace records the tfcc ops that
// compute the same values.
//
//   ImportState state{library, variables, options, "DIR/saved_model.pb"};
//   tfcc::graph::TraceContext ctx("serving_default");
//   ... feeds = {{"serving_default_x", Value::of(ctx.add_arg(...))}};
//   std::vector<Value> out = run_graph(state, graph_def, feeds, {"StatefulPartitionedCall:0"});
//
// Only nodes that the requested outputs reach (through data and control inputs) run: Keras emits
// dead code (a cell traced once outside its loop), which is never converted. Nodes run in
// dependency order; a cycle, a reference to a missing node or output, or a limit exceeded
// (LoadOptions) is InvalidArgumentError naming the file, the function and the node.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_import/op_table.h"

namespace tfcc::saved_model::tf_import {

class VariableStore;

/// The function library by name.
class Library {
 public:
  Library(const tensorflow::FunctionDefLibrary& lib, const std::string& context);
  /// The function, or nullptr.
  const tensorflow::FunctionDef* find(const std::string& name) const;

 private:
  std::map<std::string, const tensorflow::FunctionDef*> functions_;
};

/// Everything one import shares.
struct ImportState {
  const Library& library;
  VariableStore* variables;
  const LoadOptions& options;
  /// The file, for messages.
  std::string path;
  /// Bytes of constants still allowed (LoadOptions::max_tensor_bytes).
  int64_t tensor_budget = 0;
  /// Nodes converted so far (LoadOptions::max_nodes).
  int64_t nodes = 0;
  /// Current function nesting.
  int depth = 0;
};

/// Calls FunctionDef `name` on `args` (its input_args in order) in the current trace and returns
/// its `ret` values in output_arg order.
std::vector<Value> call_function(ImportState& state, const std::string& name,
                                 const std::vector<Value>& args, const std::string& caller);

/// Runs the top-level graph: `feeds` by node name (Placeholders), `fetches` as "node:index".
std::vector<Value> run_graph(ImportState& state, const tensorflow::GraphDef& graph,
                             const std::map<std::string, Value>& feeds,
                             const std::vector<std::string>& fetches);

/// Every op the graph's nodes that `fetches` reach use (through the functions they call) that the
/// table lacks: op name -> "function/node" names. Raises nothing; the loader reports them all.
void missing_ops(const ImportState& state, const tensorflow::GraphDef& graph,
                 const std::vector<std::string>& fetches,
                 std::map<std::string, std::set<std::string>>& missing);

}  // namespace tfcc::saved_model::tf_import
