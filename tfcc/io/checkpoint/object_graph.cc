#include "tfcc/io/checkpoint/object_graph.h"

#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/trackable_object_graph.pb.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {

using Proto = tensorflow::TrackableObjectGraph;

std::string encode_object_graph(const TrackableObjectGraph& graph) {
  Proto out;
  for (const TrackableObject& node : graph.nodes) {
    Proto::TrackableObject& n = *out.add_nodes();
    for (const ObjectReference& c : node.children) {
      Proto::TrackableObject::ObjectReference& r = *n.add_children();
      r.set_node_id(c.node_id);
      r.set_local_name(c.local_name);
    }
    for (const SerializedTensor& a : node.attributes) {
      Proto::TrackableObject::SerializedTensor& t = *n.add_attributes();
      t.set_name(a.name);
      t.set_full_name(a.full_name);
      t.set_checkpoint_key(a.checkpoint_key);
    }
    for (const SlotVariableReference& s : node.slot_variables) {
      Proto::TrackableObject::SlotVariableReference& r = *n.add_slot_variables();
      r.set_original_variable_node_id(s.original_variable_node_id);
      r.set_slot_name(s.slot_name);
      r.set_slot_variable_node_id(s.slot_variable_node_id);
    }
    if (node.has_checkpoint_values) n.mutable_has_checkpoint_values()->set_value(true);
  }
  return io::proto::serialize(out);
}

TrackableObjectGraph decode_object_graph(std::string_view bytes, const std::string& context) {
  Proto p;
  io::proto::parse(p, bytes, context);
  if (p.nodes().empty()) throw DataLossError(context + ": object graph has no root node");
  const int num_nodes = p.nodes_size();
  TrackableObjectGraph g;
  g.nodes.reserve(static_cast<size_t>(num_nodes));
  for (int i = 0; i < num_nodes; ++i) {
    auto ref = [&](int32_t id) {
      if (id < 0 || id >= num_nodes) {
        throw DataLossError(internal::str_cat(context, ", node ", i, ": reference to node ", id,
                                              " of ", num_nodes));
      }
      return id;
    };
    const Proto::TrackableObject& n = p.nodes(i);
    TrackableObject& node = g.nodes.emplace_back();
    for (const auto& c : n.children()) node.children.push_back({ref(c.node_id()), c.local_name()});
    for (const auto& a : n.attributes()) {
      node.attributes.push_back({a.name(), a.full_name(), a.checkpoint_key()});
    }
    for (const auto& s : n.slot_variables()) {
      node.slot_variables.push_back(
          {ref(s.original_variable_node_id()), s.slot_name(), ref(s.slot_variable_node_id())});
    }
    node.has_checkpoint_values = n.has_checkpoint_values().value();
  }
  return g;
}

std::string escape_local_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '.') {
      out.append("..");
    } else if (c == '/') {
      out.append(".S");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace tfcc::checkpoint
