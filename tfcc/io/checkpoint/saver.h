// Saving side of tfcc::train::Checkpoint: the object graph and keys of a set of live objects.
//
//   SavePlan plan = plan_save(*ckpt.root());
//   for (auto& [key, variable] : plan.values) std::cout << key << "\n";
//   write_checkpoint(*ckpt.root(), "/tmp/run/ckpt-1");
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/checkpoint/object_graph.h"
#include "tfcc/io/checkpoint/trackable.h"

namespace tfcc::train {

/// A non-variable value to save: its key, its owner's identity, how to get it.
struct PlannedAttribute {
  std::string key;
  const void* owner = nullptr;
  SaveableAttribute attribute;
};

/// The object graph of the live objects and the value stored under each key.
struct SavePlan {
  checkpoint::TrackableObjectGraph graph;
  std::vector<std::pair<std::string, Variable>> values;
  std::vector<PlannedAttribute> attributes;
};

/// Walks `root` breadth first; each object or variable reached twice is saved once, under its
/// first (shortest) path.
SavePlan plan_save(const TrackableNode& root);

/// Writes every reachable variable and the object graph as the bundle `prefix`.
void write_checkpoint(const TrackableNode& root, const std::string& prefix);

}  // namespace tfcc::train
