// The engine behind tfcc::train::Checkpoint::restore: matches live objects to the nodes of a
// checkpoint's object graph by their dependency names, assigns saved values to matched variables,
// and remembers what is left so that objects created later can still be restored (deferred
// restoration) and so that the load status can tell what matched.
//
// A checkpoint without `_CHECKPOINTABLE_OBJECT_GRAPH` (written name-based) is read by rebuilding
// a graph from its `<path>/.ATTRIBUTES/VARIABLE_VALUE` keys.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/object_graph.h"
#include "tfcc/io/checkpoint/trackable.h"

namespace tfcc::train {

/// State of one restore() call, shared by its load status and by the objects it matched.
class RestoreState : public std::enable_shared_from_this<RestoreState> {
 public:
  /// Opens the bundle at `prefix` and decodes its object graph.
  explicit RestoreState(const std::string& prefix);
  ~RestoreState();

  /// Matches `root` with the checkpoint's root and restores everything reachable.
  void restore_root(const TrackableNode& root);
  /// Restores `dependency`, newly tracked as `name` by an object matched to `parent_node`.
  void restore_child(int parent_node, const std::string& name, const Dependency& dependency);

  /// Restores `attribute` of the object matched to checkpoint node `node_id`, if saved there.
  void restore_attribute(int node_id, const SaveableAttribute& attribute);

  /// Checkpoint values that no live object has taken, as "(root).a.b" paths.
  std::vector<std::string> unmatched_values() const;
  /// Number of checkpoint nodes matched to a live object (the root included).
  size_t matched_count() const;
  /// True if the variable `id` received a value from this checkpoint.
  bool restored(uint64_t variable_id) const;
  /// True if attribute `name` of the object `identity` received a value.
  bool attribute_restored(const void* identity, const std::string& name) const;
  /// Silences the warning about unmatched values printed when the restore is dropped.
  void expect_partial() { expect_partial_ = true; }
  const std::string& prefix() const { return prefix_; }

 private:
  void match_node(int node_id, const TrackableNode& node);
  void restore_dependency(int node_id, const Dependency& dependency);
  void restore_variable(int node_id, const Variable& variable);
  void graph_from_keys();
  std::string node_path(int node_id) const;

  std::string prefix_;
  checkpoint::BundleReader reader_;
  checkpoint::TrackableObjectGraph graph_;
  std::vector<std::string> paths_;  // "(root).a.b" per node, for messages

  mutable std::recursive_mutex mu_;
  std::vector<const void*> matched_;  // live identity per checkpoint node (null: unmatched)
  std::set<uint64_t> restored_;       // variable ids that took a value
  std::set<std::pair<const void*, std::string>> restored_attributes_;
  std::set<std::pair<int, const void*>> visited_;
  bool expect_partial_ = false;
};

}  // namespace tfcc::train
