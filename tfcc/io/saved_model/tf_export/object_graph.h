// The object side of a TensorFlow SavedModel: the SavedObjectGraph that tf.saved_model.load turns
// back into a Python object, and the TrackableObjectGraph stored in the checkpoint under
// `_CHECKPOINTABLE_OBJECT_GRAPH`, which links each variable node to its checkpoint key. Both
// have the same nodes and children (node i of one is node i of the other):
//
//   0 root (_generic_user_object)
//   ├─ conv2d (_generic_user_object) ─ kernel (variable), bias (variable)   one node per path part
//   └─ signatures (signature_map) ─ serving_default (bare_concrete_function)
//
// A variable is keyed by its path in the module, `conv2d/kernel/.ATTRIBUTES/VARIABLE_VALUE`,
// the key tfcc's own checkpoints use; so the loaded object has `obj.conv2d.kernel`.
//
//   ObjectGraphs graphs = build_object_graphs(variables, signatures);
//   graphs.saved;                 // -> MetaGraphDef.object_graph_def
//   graphs.trackable;             // -> checkpoint "_CHECKPOINTABLE_OBJECT_GRAPH"
//   graphs.checkpoint_keys[i];    // key of variables[i]
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/graph/trace/tensor_spec.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/io/proto/trackable_object_graph.pb.h"

namespace tfcc::saved_model::tf_export {

/// A variable of the export: its path in the module ("conv2d/kernel") and its state.
struct ExportVariable {
  std::string path;
  std::shared_ptr<VariableState> state;
};

/// A signature of the export.
struct ExportSignature {
  std::string key;                  ///< "serving_default"
  std::string function;             ///< the FunctionDef it calls
  std::vector<TensorSpec> inputs;   ///< named: the signature's input keys
  std::vector<TensorSpec> outputs;  ///< named: the signature's output keys
  /// Indices into the variables of the FunctionDef's trailing resource arguments, in order.
  std::vector<int> bound_variables;
};

/// What build_object_graphs returns.
struct ObjectGraphs {
  tensorflow::SavedObjectGraph saved;
  tensorflow::TrackableObjectGraph trackable;
  /// The checkpoint key of each variable, parallel to the `variables` argument.
  std::vector<std::string> checkpoint_keys;
};

/// Builds both graphs. Paths that collide (a variable where another needs a module, a repeated
/// path, a first part named "signatures") fall back to `_variables/<i>`.
ObjectGraphs build_object_graphs(const std::vector<ExportVariable>& variables,
                                 const std::vector<ExportSignature>& signatures);

/// The StructuredValue of a TensorSpec named `spec.name`.
void set_tensor_spec(const TensorSpec& spec, tensorflow::StructuredValue* out);

}  // namespace tfcc::saved_model::tf_export
