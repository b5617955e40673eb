// Resource variables of an imported SavedModel, restored from DIR/variables/ by TensorFlow 2's
// object-graph route:
//
//   top-level StatefulPartitionedCall(f, inputs..., VarHandleOp...)       (saved_model.pb)
//   -> object_graph_def.concrete_functions[f].bound_inputs[k]             (k-th resource input)
//   -> SavedObjectGraph node (kind variable: dtype, shape, name)
//   -> the same node of the TrackableObjectGraph stored in the checkpoint under
//      _CHECKPOINTABLE_OBJECT_GRAPH -> attributes VARIABLE_VALUE -> checkpoint_key
//   -> the tensor, read with tfcc's checkpoint reader.
//
//   VariableStore store(dir, meta_graph, options, &budget, "DIR/saved_model.pb");
//   tfcc::Variable w = store.handle("conv2d/kernel");   // a VarHandleOp node's name
//
// TensorFlow 1 SavedModels (tf.compat.v1.saved_model, Estimator exports) have no object graph:
// their variables are VariableV2 (reference) or VarHandleOp nodes of the top-level graph, and the
// Saver's restore subgraph says which checkpoint key feeds each one:
//
//   save/RestoreV2(prefix, tensor_names = Const[...], shape_and_slices)
//   -> output i [-> Identity...] -> Assign / AssignVariableOp(variable node, value)
//
// A variable no restore op feeds falls back to the Saver's default key: the VarHandleOp's
// shared_name, else the node's name. Its dtype and shape come from the node's attributes.
//
// Variables are read on first use, once. A value whose dtype or shape differs from the object
// graph's (or the node's), a missing key, a partitioned (sliced) variable or a handle no
// function binds is InvalidArgumentError / NotFoundError / UnimplementedError naming the file.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/io/proto/trackable_object_graph.pb.h"
#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::checkpoint {
class BundleReader;
}

namespace tfcc::saved_model::tf_import {

class VariableStore {
 public:
  VariableStore(std::string dir, const tensorflow::MetaGraphDef& meta_graph,
                const LoadOptions& options, int64_t* tensor_budget, std::string path);
  ~VariableStore();
  VariableStore(const VariableStore&) = delete;
  VariableStore& operator=(const VariableStore&) = delete;

  /// The variable that top-level VarHandleOp / VariableV2 node `node` stands for.
  Variable handle(const tensorflow::NodeDef& node, const std::string& context);
  /// The variables read so far, in the order they were first used, with their checkpoint keys.
  struct Restored {
    std::string key;
    Variable variable;
  };
  const std::vector<Restored>& restored() const { return restored_; }

 private:
  Variable read(int object_id, const std::string& context);
  Variable read_tf1(const tensorflow::NodeDef& node, const std::string& context);
  Tensor read_value(const std::string& key, const std::string& what);
  void index_saver();
  void open_checkpoint();
  void open_object_graph();

  std::string dir_;
  const tensorflow::MetaGraphDef& meta_graph_;
  const LoadOptions& options_;
  int64_t* budget_;
  std::string path_;
  std::map<std::string, int> handle_objects_;  // VarHandleOp node -> object-graph node id
  std::unique_ptr<checkpoint::BundleReader> reader_;
  bool object_graph_open_ = false;
  tensorflow::TrackableObjectGraph trackables_;
  std::map<std::string, std::string> saver_keys_;  // TF1: variable node -> checkpoint key
  std::string partitioned_;                        // TF1: set when the Saver restores slices
  std::map<int, Variable> variables_;              // by object-graph node id
  std::map<std::string, Variable> tf1_variables_;  // by variable node name
  std::vector<Restored> restored_;
};

}  // namespace tfcc::saved_model::tf_import
