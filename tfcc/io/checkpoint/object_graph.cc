#include "tfcc/io/checkpoint/object_graph.h"

#include <limits>

#include "tfcc/io/checkpoint/proto_wire.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
namespace {

int32_t node_ref(const ProtoReader& r, const ProtoField& f, size_t num_nodes) {
  r.expect(f, WireType::kVarint);
  if (f.value >= num_nodes) {
    r.fail(
        internal::str_cat("reference to node ", static_cast<int64_t>(f.value), " of ", num_nodes));
  }
  return static_cast<int32_t>(f.value);
}

std::string as_string(const ProtoReader& r, const ProtoField& f) {
  r.expect(f, WireType::kLen);
  return std::string(f.bytes);
}

TrackableObject decode_node(std::string_view bytes, size_t num_nodes, const std::string& context) {
  ProtoReader r(bytes, context);
  TrackableObject node;
  while (auto f = r.next()) {
    if (f->number == 1) {  // children
      r.expect(*f, WireType::kLen);
      ProtoReader cr(f->bytes, context);
      ObjectReference ref;
      while (auto g = cr.next()) {
        if (g->number == 1) ref.node_id = node_ref(cr, *g, num_nodes);
        if (g->number == 2) ref.local_name = as_string(cr, *g);
      }
      node.children.push_back(std::move(ref));
    } else if (f->number == 2) {  // attributes
      r.expect(*f, WireType::kLen);
      ProtoReader ar(f->bytes, context);
      SerializedTensor t;
      while (auto g = ar.next()) {
        if (g->number == 1) t.name = as_string(ar, *g);
        if (g->number == 2) t.full_name = as_string(ar, *g);
        if (g->number == 3) t.checkpoint_key = as_string(ar, *g);
      }
      node.attributes.push_back(std::move(t));
    } else if (f->number == 3) {  // slot_variables
      r.expect(*f, WireType::kLen);
      ProtoReader sr(f->bytes, context);
      SlotVariableReference s;
      while (auto g = sr.next()) {
        if (g->number == 1) s.original_variable_node_id = node_ref(sr, *g, num_nodes);
        if (g->number == 2) s.slot_name = as_string(sr, *g);
        if (g->number == 3) s.slot_variable_node_id = node_ref(sr, *g, num_nodes);
      }
      node.slot_variables.push_back(std::move(s));
    } else if (f->number == 5) {  // has_checkpoint_values (a BoolValue wrapper)
      r.expect(*f, WireType::kLen);
      ProtoReader br(f->bytes, context);
      while (auto g = br.next()) {
        if (g->number == 1) node.has_checkpoint_values = g->value != 0;
      }
    }
  }
  return node;
}

}  // namespace

std::string encode_object_graph(const TrackableObjectGraph& graph) {
  ProtoWriter out;
  for (const TrackableObject& node : graph.nodes) {
    ProtoWriter n;
    for (const ObjectReference& c : node.children) {
      ProtoWriter w;
      if (c.node_id != 0) w.varint_field(1, static_cast<uint64_t>(c.node_id));
      w.bytes_field(2, c.local_name);
      n.bytes_field(1, w.str());
    }
    for (const SerializedTensor& a : node.attributes) {
      ProtoWriter w;
      w.bytes_field(1, a.name);
      w.bytes_field(2, a.full_name);
      w.bytes_field(3, a.checkpoint_key);
      n.bytes_field(2, w.str());
    }
    for (const SlotVariableReference& s : node.slot_variables) {
      ProtoWriter w;
      w.varint_field(1, static_cast<uint64_t>(s.original_variable_node_id));
      w.bytes_field(2, s.slot_name);
      w.varint_field(3, static_cast<uint64_t>(s.slot_variable_node_id));
      n.bytes_field(3, w.str());
    }
    if (node.has_checkpoint_values) {
      ProtoWriter b;
      b.varint_field(1, 1);
      n.bytes_field(5, b.str());
    }
    out.bytes_field(1, n.str());
  }
  return out.str();
}

TrackableObjectGraph decode_object_graph(std::string_view bytes, const std::string& context) {
  // First pass: count nodes, so references can be range-checked while decoding.
  std::vector<std::string_view> raw;
  ProtoReader r(bytes, context);
  while (auto f = r.next()) {
    if (f->number == 1) {
      r.expect(*f, WireType::kLen);
      raw.push_back(f->bytes);
    }
  }
  if (raw.empty()) r.fail("object graph has no root node");
  TrackableObjectGraph g;
  g.nodes.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    g.nodes.push_back(decode_node(raw[i], raw.size(), internal::str_cat(context, ", node ", i)));
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
