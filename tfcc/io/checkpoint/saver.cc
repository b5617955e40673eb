// Checkpoint saving: walks the live objects breadth first (so every node gets its shortest path
// as its key, as TensorFlow does), builds the TrackableObjectGraph, and writes the bundle.
#include "tfcc/io/checkpoint/saver.h"

#include <deque>
#include <map>
#include <mutex>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/platform/errors.h"

namespace tfcc::train {

SavePlan plan_save(const TrackableNode& root) {
  SavePlan plan;
  struct Item {
    std::shared_ptr<const TrackableNode> node;  // null for variables and the root
    Variable variable;
    std::string path;
  };
  std::vector<Item> items;
  std::map<const void*, int> ids;
  items.push_back({nullptr, Variable(), ""});
  ids[root.identity()] = 0;
  plan.graph.nodes.emplace_back();
  std::deque<int> queue{0};
  while (!queue.empty()) {
    int id = queue.front();
    queue.pop_front();
    const TrackableNode& node = id == 0 ? root : *items[static_cast<size_t>(id)].node;
    for (SaveableAttribute& a : node.attributes()) {
      std::string key = items[static_cast<size_t>(id)].path;
      if (!key.empty()) key.push_back('/');
      key.append(".ATTRIBUTES/").append(a.name);
      auto& n = plan.graph.nodes[static_cast<size_t>(id)];
      n.attributes.push_back({a.name, a.name, key});
      n.has_checkpoint_values = true;
      plan.attributes.push_back({key, node.identity(), std::move(a)});
    }
    for (const auto& [name, dep] : node.dependencies()) {
      const void* identity = dep.is_variable() ? dep.variable().state_ptr().get()
                             : dep.node()      ? dep.node()->identity()
                                               : nullptr;
      if (identity == nullptr) continue;
      auto [it, added] = ids.try_emplace(identity, static_cast<int>(items.size()));
      plan.graph.nodes[static_cast<size_t>(id)].children.push_back({it->second, name});
      if (!added) continue;
      std::string path = items[static_cast<size_t>(id)].path;
      if (!path.empty()) path.push_back('/');
      path.append(checkpoint::escape_local_name(name));
      plan.graph.nodes.emplace_back();
      if (dep.is_variable()) {
        std::string key = path;
        key.append("/.ATTRIBUTES/").append(checkpoint::kVariableValueAttribute);
        plan.graph.nodes.back().attributes.push_back(
            {checkpoint::kVariableValueAttribute, dep.variable().name(), key});
        plan.graph.nodes.back().has_checkpoint_values = true;
        plan.values.emplace_back(key, dep.variable());
        items.push_back({nullptr, dep.variable(), path});
      } else {
        items.push_back({dep.node(), Variable(), path});
        queue.push_back(it->second);
      }
    }
  }
  // A node has checkpoint values if any node below it has; the graph may hold cycles, so
  // propagate until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& n : plan.graph.nodes) {
      if (n.has_checkpoint_values) continue;
      for (const auto& c : n.children) {
        if (plan.graph.nodes[static_cast<size_t>(c.node_id)].has_checkpoint_values) {
          n.has_checkpoint_values = changed = true;
          break;
        }
      }
    }
  }
  return plan;
}

std::vector<std::pair<std::string, Variable>> checkpoint_keys(const TrackableNode& root) {
  return plan_save(root).values;
}

void write_checkpoint(const TrackableNode& root, const std::string& prefix) {
  SavePlan plan = plan_save(root);
  checkpoint::BundleWriter writer(prefix);
  for (const auto& [key, variable] : plan.values) {
    Tensor value;
    {
      const VariableState& s = *variable.state_ptr();
      std::lock_guard<std::mutex> lock(s.mu);
      value = s.value;
    }
    TFCC_REQUIRE(FailedPreconditionError, value.defined() && !value.is_symbolic(),
                 "Cannot save variable ", variable.name(), " (", key,
                 "): it holds no concrete value");
    writer.add(key, value);
  }
  for (const PlannedAttribute& a : plan.attributes) {
    AttributeValue value = a.attribute.save();
    if (const auto* bytes = std::get_if<std::string>(&value)) {
      writer.add_strings(a.key, Shape{}, {*bytes});
    } else {
      writer.add(a.key, std::get<Tensor>(value));
    }
  }
  writer.add_strings(checkpoint::kObjectGraphKey, Shape{},
                     {checkpoint::encode_object_graph(plan.graph)});
  writer.finish();
}

}  // namespace tfcc::train
