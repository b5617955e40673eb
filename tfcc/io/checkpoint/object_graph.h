// TrackableObjectGraph: the object graph a TF2 checkpoint stores under the key
// `_CHECKPOINTABLE_OBJECT_GRAPH`, so that tf.train.Checkpoint.restore can match saved values to
// live objects by their dependency names instead of by variable names.
//
//   TrackableObjectGraph g;
//   g.nodes.resize(2);
//   g.nodes[0].children.push_back({1, "w"});                       // root --w--> node 1
//   g.nodes[1].attributes.push_back({"VARIABLE_VALUE", "w", "w/.ATTRIBUTES/VARIABLE_VALUE"});
//   std::string bytes = encode_object_graph(g);
//
// Node 0 is the root. The bytes are those of the classes generated from
// tfcc/io/proto/trackable_object_graph.proto; decode_object_graph() also validates node
// references and raises DataLossError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfcc::checkpoint {

/// The checkpoint key that holds the serialized object graph.
inline constexpr const char* kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";
/// The attribute name of a variable's value.
inline constexpr const char* kVariableValueAttribute = "VARIABLE_VALUE";

/// A named edge to another node.
struct ObjectReference {
  int32_t node_id = 0;
  std::string local_name;
};

/// A value saved for a node: its attribute name, a display name, and the bundle key holding it.
struct SerializedTensor {
  std::string name;
  std::string full_name;
  std::string checkpoint_key;
};

/// An optimizer slot: (variable, slot name) -> slot variable node.
struct SlotVariableReference {
  int32_t original_variable_node_id = 0;
  std::string slot_name;
  int32_t slot_variable_node_id = 0;
};

/// One object in the graph.
struct TrackableObject {
  std::vector<ObjectReference> children;
  std::vector<SerializedTensor> attributes;
  std::vector<SlotVariableReference> slot_variables;
  bool has_checkpoint_values = false;
};

/// The whole graph; nodes[0] is the root.
struct TrackableObjectGraph {
  std::vector<TrackableObject> nodes;
};

std::string encode_object_graph(const TrackableObjectGraph& graph);
TrackableObjectGraph decode_object_graph(std::string_view bytes, const std::string& context);

/// TensorFlow's escaping of one local name inside a checkpoint key: "." -> "..", "/" -> ".S".
std::string escape_local_name(std::string_view name);

}  // namespace tfcc::checkpoint
