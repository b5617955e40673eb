// What a checkpoint saves: a graph of objects joined by named edges, whose leaves are variables.
// tfcc::train::Trackable is the plain named container (like TensorFlow's AutoTrackable);
// tfcc::Module objects (layers, models) and any class implementing TrackableNode take part too.
//
//   tfcc::train::Trackable optimizer_state;
//   optimizer_state.track("iter", iterations);                  // a variable
//   tfcc::train::Trackable root;
//   root.track("optimizer", optimizer_state);                  // a nested group
//   root.track("model", model);                                // a std::shared_ptr<Module>
//   // saved keys: "optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE", "model/.../.ATTRIBUTES/..."
//
// Ownership: Trackable is a handle; copies share the same children. Tracking a name a second
// time replaces the earlier dependency. Children keep registration order, so keys are stable.
// If a checkpoint restore already matched this object, a child tracked later is restored the
// moment it is tracked (TensorFlow's deferred restoration).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tfcc/core/variable.h"

namespace tfcc::train {

class TrackableNode;
class RestoreState;

/// A saved value that is not a variable: a byte string (DT_STRING scalar) or a tensor.
using AttributeValue = std::variant<Tensor, std::string>;

/// A value an object saves besides its variables, such as a dataset iterator's position
/// (TensorFlow's ITERATOR_STATE) or a random generator's state. Saved under the key
/// `<object path>/.ATTRIBUTES/<name>`; `restore` receives it back when a checkpoint is restored.
struct SaveableAttribute {
  std::string name;
  std::function<AttributeValue()> save;
  std::function<void(const AttributeValue&)> restore;
};

/// One dependency: a variable (a leaf holding a value) or another object.
class Dependency {
 public:
  Dependency() = default;
  Dependency(Variable v) : variable_(std::move(v)) {}    // NOLINT: implicit by design
  Dependency(std::shared_ptr<const TrackableNode> node)  // NOLINT
      : node_(std::move(node)) {}
  /// Any object that knows how to present itself as a node: Trackable, shared_ptr<Module>, ...
  template <typename T>
  requires requires(const T& t) {
    { as_trackable_node(t) } -> std::convertible_to<std::shared_ptr<const TrackableNode>>;
  }
  Dependency(const T& object) : node_(as_trackable_node(object)) {}  // NOLINT

  bool is_variable() const { return variable_.defined(); }
  const Variable& variable() const { return variable_; }
  const std::shared_ptr<const TrackableNode>& node() const { return node_; }

 private:
  Variable variable_;
  std::shared_ptr<const TrackableNode> node_;
};

/// The interface of a non-variable object in a checkpoint.
class TrackableNode {
 public:
  virtual ~TrackableNode() = default;
  /// Named dependencies, in a stable order.
  virtual std::vector<std::pair<std::string, Dependency>> dependencies() const = 0;
  /// Identity of the underlying object: two nodes wrapping the same object return the same.
  virtual const void* identity() const { return this; }
  /// Called when a restore matched this object to checkpoint node `node_id`; objects that can
  /// gain children later remember it to restore those children when they appear.
  virtual void on_restore_matched(const std::shared_ptr<RestoreState>& restore, int node_id) const {
    (void)restore;
    (void)node_id;
  }
  /// Values this object saves besides its dependencies (none by default).
  virtual std::vector<SaveableAttribute> attributes() const { return {}; }
};

/// A named container of dependencies (TensorFlow's AutoTrackable).
class Trackable {
 public:
  Trackable();

  /// Adds (or replaces) the dependency `name`. Restores it now if a restore is pending for it.
  Trackable& track(const std::string& name, Dependency dependency);
  /// The dependency registered as `name`, or a null Dependency.
  Dependency get(const std::string& name) const;
  /// All dependencies in registration order.
  std::vector<std::pair<std::string, Dependency>> dependencies() const;
  /// Adds (or replaces) a saved non-variable value. Restored at once if a pending restore holds
  /// it.
  Trackable& add_attribute(SaveableAttribute attribute);

  /// The node view used by checkpoints (shares this container's state).
  std::shared_ptr<const TrackableNode> node() const;

 private:
  class State;
  std::shared_ptr<State> state_;
};

/// Trackable participates in Dependency through this hook.
std::shared_ptr<const TrackableNode> as_trackable_node(const Trackable& t);

}  // namespace tfcc::train
#pragma GCC visibility pop
