#include "tfcc/io/checkpoint/trackable.h"

#include <mutex>

#include "tfcc/io/checkpoint/restore_state.h"
#include "tfcc/platform/errors.h"

namespace tfcc::train {

class Trackable::State : public TrackableNode {
 public:
  std::vector<std::pair<std::string, Dependency>> dependencies() const override {
    std::lock_guard<std::mutex> lock(mu);
    return deps;
  }

  void on_restore_matched(const std::shared_ptr<RestoreState>& restore,
                          int node_id) const override {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = restores.begin(); it != restores.end();) {
      auto live = it->first.lock();
      if (!live) {
        it = restores.erase(it);
      } else if (live == restore && it->second == node_id) {
        return;
      } else {
        ++it;
      }
    }
    restores.emplace_back(restore, node_id);
  }

  std::vector<SaveableAttribute> attributes() const override {
    std::lock_guard<std::mutex> lock(mu);
    return attrs;
  }

  mutable std::mutex mu;
  std::vector<std::pair<std::string, Dependency>> deps;
  std::vector<SaveableAttribute> attrs;
  // Restores that matched this object: a child tracked later is restored from them.
  mutable std::vector<std::pair<std::weak_ptr<RestoreState>, int>> restores;
};

Trackable::Trackable() : state_(std::make_shared<State>()) {}

Trackable& Trackable::track(const std::string& name, Dependency dependency) {
  std::vector<std::pair<std::shared_ptr<RestoreState>, int>> pending;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    bool replaced = false;
    for (auto& [n, d] : state_->deps) {
      if (n == name) {
        d = dependency;
        replaced = true;
      }
    }
    if (!replaced) state_->deps.emplace_back(name, dependency);
    for (auto& [weak, node_id] : state_->restores) {
      if (auto r = weak.lock()) pending.emplace_back(std::move(r), node_id);
    }
  }
  // Outside the lock: restoring may walk back into this object.
  for (auto& [restore, node_id] : pending) restore->restore_child(node_id, name, dependency);
  return *this;
}

Trackable& Trackable::add_attribute(SaveableAttribute attribute) {
  TFCC_CHECK_ARG(!attribute.name.empty() && attribute.save && attribute.restore,
                 "Trackable::add_attribute needs a name, a save and a restore function");
  std::vector<std::pair<std::shared_ptr<RestoreState>, int>> pending;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    std::erase_if(state_->attrs, [&](const auto& a) { return a.name == attribute.name; });
    state_->attrs.push_back(attribute);
    for (auto& [weak, node_id] : state_->restores) {
      if (auto r = weak.lock()) pending.emplace_back(std::move(r), node_id);
    }
  }
  for (auto& [restore, node_id] : pending) restore->restore_attribute(node_id, attribute);
  return *this;
}

Dependency Trackable::get(const std::string& name) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  for (const auto& [n, d] : state_->deps) {
    if (n == name) return d;
  }
  return Dependency();
}

std::vector<std::pair<std::string, Dependency>> Trackable::dependencies() const {
  return state_->dependencies();
}

std::shared_ptr<const TrackableNode> Trackable::node() const { return state_; }

std::shared_ptr<const TrackableNode> as_trackable_node(const Trackable& t) { return t.node(); }

}  // namespace tfcc::train
