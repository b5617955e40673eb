// Writes a TensorFlow SavedModel: what saved_model::save does with Format::kTensorFlow.
//
//   DIR/saved_model.pb                    SavedModel: one MetaGraphDef tagged "serve"
//   DIR/variables/variables.index         tensor bundle of the captured variables, plus the
//   DIR/variables/variables.data-00000-of-00001   `_CHECKPOINTABLE_OBJECT_GRAPH`
//
// The MetaGraphDef holds, for every signature, a FunctionDef of the traced graph (as traced, so
// only TensorFlow ops: op_table.h) taking the inputs and then one resource per variable; a
// top-level graph with a Placeholder per input, a VarHandleOp per variable and a
// StatefulPartitionedCall per signature; a saver (RestoreV2 -> AssignVariableOp, SaveV2) for
// TensorFlow 1-style loaders (saved_model_cli run, TF Serving's C++ loader); the signature_defs
// (method tensorflow/serving/predict); and the SavedObjectGraph (object_graph.h) that
// tf.saved_model.load turns back into an object with `.signatures` and the variables.
//
//   TfExport e = build_tf_export(model, {{"serving_default", cf}});
//   e.saved_model.meta_graphs(0).signature_def().at("serving_default");
//   write_tf_export(e, "/tmp/export");
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfcc/graph/trace/concrete_function.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/module/module.h"

namespace tfcc::saved_model::tf_export {

/// A SavedModel in memory: the proto and the checkpoint it comes with.
struct TfExport {
  tensorflow::SavedModel saved_model;
  /// Checkpoint keys and values of the variables (parallel).
  std::vector<std::string> keys;
  std::vector<Tensor> values;
  /// The serialized TrackableObjectGraph stored under `_CHECKPOINTABLE_OBJECT_GRAPH`.
  std::string object_graph;
};

/// Builds the SavedModel of `signatures` and the variables they capture (keyed by their path in
/// `module`, others `_captured/<i>`). InvalidArgumentError for an empty map or an undefined
/// function; UnimplementedError listing the ops that have no TensorFlow form.
TfExport build_tf_export(const Module& module,
                         const std::map<std::string, ConcreteFunction>& signatures);

/// Writes `e` into `dir` (replaced if it exists), through a temporary sibling directory.
void write_tf_export(const TfExport& e, const std::string& dir);

}  // namespace tfcc::saved_model::tf_export
