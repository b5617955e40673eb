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
// Variables are read on first use, once. A value whose dtype or shape differs from the object
// graph's, a missing key or a handle no function binds is InvalidArgumentError / NotFoundError
// naming the file.
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

  /// The variable that top-level VarHandleOp node `node` stands for.
  Variable handle(const std::string& node, const std::string& context);
  /// The variables read so far and their checkpoint keys, by object-graph node id.
  const std::map<int, Variable>& variables() const { return variables_; }
  const std::map<int, std::string>& keys() const { return keys_; }

 private:
  Variable read(int object_id, const std::string& context);
  void open_checkpoint();

  std::string dir_;
  const tensorflow::MetaGraphDef& meta_graph_;
  const LoadOptions& options_;
  int64_t* budget_;
  std::string path_;
  std::map<std::string, int> handle_objects_;  // VarHandleOp node -> object-graph node id
  std::unique_ptr<checkpoint::BundleReader> reader_;
  tensorflow::TrackableObjectGraph trackables_;
  std::map<int, Variable> variables_;
  std::map<int, std::string> keys_;
};

}  // namespace tfcc::saved_model::tf_import
