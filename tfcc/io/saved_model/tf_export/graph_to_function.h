// A traced tfcc graph as a TensorFlow FunctionDef: arguments first (one per graph argument),
// then one DT_RESOURCE argument per variable the graph uses, in first-use order, as TensorFlow's
// own traced functions take their captured variables. Each node goes through the op table
// (op_table.h); accesses to one variable are ordered by control inputs.
//
//   ConvertedFunction f = convert_graph(cf.graph(), "__inference_serve_1", {"x"}, {"output_0"});
//   // f.def: the FunctionDef; f.variables: what its trailing resource arguments bind to.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/graph/ir/graph.h"
#include "tfcc/io/proto/graph.pb.h"

namespace tfcc::saved_model::tf_export {

/// A FunctionDef and the variables bound to its resource arguments.
struct ConvertedFunction {
  tensorflow::FunctionDef def;
  /// The variables its trailing DT_RESOURCE arguments stand for, in argument order.
  std::vector<std::shared_ptr<VariableState>> variables;
  /// The functions it calls (If branches, While cond and body), callees first.
  std::vector<tensorflow::FunctionDef> library;
};

/// Converts `g` into the FunctionDef `name`; `input_names` name its arguments and `output_names`
/// its results, in the graph's orders; `output_order` lists the graph outputs to return, in the
/// order the FunctionDef returns them. If / While nodes become TensorFlow's If / While with their
/// branches, condition and body as functions of `library` (taking every input, plus the
/// variables they use; a maximum_iterations count becomes an extra loop variable).
/// UnimplementedError naming every op without a TensorFlow form (with the nodes that use it);
/// InvalidArgumentError for a host callback (tfcc::print).
ConvertedFunction convert_graph(const graph::Graph& g, const std::string& name,
                                std::span<const std::string> input_names,
                                std::span<const std::string> output_names,
                                std::span<const int> output_order);

}  // namespace tfcc::saved_model::tf_export
