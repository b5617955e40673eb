#include "tfcc/io/checkpoint/restore_state.h"

#include <deque>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/logging.h"

namespace tfcc::train {
namespace {

constexpr std::string_view kValueSuffix = "/.ATTRIBUTES/VARIABLE_VALUE";

// Splits an escaped object path ("a/b.Sc") into local names ("a", "b/c"); false if malformed.
bool split_path(std::string_view path, std::vector<std::string>* out) {
  std::string current;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '/') {
      out->push_back(std::move(current));
      current.clear();
    } else if (c == '.') {
      if (i + 1 >= path.size()) return false;
      char n = path[++i];
      if (n == '.') {
        current.push_back('.');
      } else if (n == 'S') {
        current.push_back('/');
      } else {
        return false;
      }
    } else {
      current.push_back(c);
    }
  }
  out->push_back(std::move(current));
  return true;
}

}  // namespace

RestoreState::RestoreState(const std::string& prefix) : prefix_(prefix), reader_(prefix) {
  if (reader_.contains(checkpoint::kObjectGraphKey)) {
    std::vector<std::string> s = reader_.read_strings(checkpoint::kObjectGraphKey);
    if (s.size() != 1) {
      throw DataLossError(internal::str_cat("Checkpoint ", prefix, ": ",
                                            checkpoint::kObjectGraphKey, " holds ", s.size(),
                                            " strings, expected one"));
    }
    graph_ = checkpoint::decode_object_graph(
        s[0], internal::str_cat("Checkpoint ", prefix, ": object graph"));
  } else {
    graph_from_keys();
  }
  matched_.assign(graph_.nodes.size(), nullptr);
  // Readable paths, breadth first from the root (the shortest path names a node).
  paths_.assign(graph_.nodes.size(), "");
  std::vector<bool> seen(graph_.nodes.size(), false);
  std::deque<int> queue{0};
  seen[0] = true;
  paths_[0] = "(root)";
  while (!queue.empty()) {
    int n = queue.front();
    queue.pop_front();
    for (const auto& c : graph_.nodes[static_cast<size_t>(n)].children) {
      if (seen[static_cast<size_t>(c.node_id)]) continue;
      seen[static_cast<size_t>(c.node_id)] = true;
      paths_[static_cast<size_t>(c.node_id)] =
          internal::str_cat(paths_[static_cast<size_t>(n)], ".", c.local_name);
      queue.push_back(c.node_id);
    }
  }
}

RestoreState::~RestoreState() {
  if (expect_partial_) return;
  try {
    auto missing = unmatched_values();
    if (missing.empty()) return;
    TFCC_LOG(WARNING) << "Values in checkpoint " << prefix_ << " could not be found in the "
                      << "restored object (first: " << missing.front() << "; " << missing.size()
                      << " in all). Call expect_partial() on the load status to silence this.";
  } catch (...) {
  }
}

void RestoreState::graph_from_keys() {
  graph_.nodes.assign(1, {});
  std::map<std::pair<int, std::string>, int> child_of;
  for (const std::string& key : reader_.keys()) {
    if (key.size() <= kValueSuffix.size() ||
        key.compare(key.size() - kValueSuffix.size(), kValueSuffix.size(), kValueSuffix) != 0) {
      continue;
    }
    std::vector<std::string> names;
    if (!split_path(std::string_view(key).substr(0, key.size() - kValueSuffix.size()), &names)) {
      continue;
    }
    int node = 0;
    for (const std::string& name : names) {
      auto [it, added] = child_of.try_emplace({node, name}, static_cast<int>(graph_.nodes.size()));
      if (added) {
        graph_.nodes[static_cast<size_t>(node)].children.push_back({it->second, name});
        graph_.nodes.emplace_back();
      }
      node = it->second;
    }
    graph_.nodes[static_cast<size_t>(node)].attributes.push_back(
        {checkpoint::kVariableValueAttribute, names.back(), key});
  }
}

void RestoreState::restore_root(const TrackableNode& root) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  visited_.clear();
  match_node(0, root);
}

void RestoreState::restore_child(int parent_node, const std::string& name,
                                 const Dependency& dependency) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  visited_.clear();
  for (const auto& c : graph_.nodes.at(static_cast<size_t>(parent_node)).children) {
    if (c.local_name == name) restore_dependency(c.node_id, dependency);
  }
}

void RestoreState::match_node(int node_id, const TrackableNode& node) {
  if (!visited_.insert({node_id, node.identity()}).second) return;
  matched_[static_cast<size_t>(node_id)] = node.identity();
  node.on_restore_matched(shared_from_this(), node_id);
  for (const SaveableAttribute& a : node.attributes()) restore_attribute(node_id, a);
  auto deps = node.dependencies();
  for (const auto& c : graph_.nodes[static_cast<size_t>(node_id)].children) {
    for (const auto& [name, dep] : deps) {
      if (name == c.local_name) {
        restore_dependency(c.node_id, dep);
        break;
      }
    }
  }
}

void RestoreState::restore_dependency(int node_id, const Dependency& dependency) {
  if (dependency.is_variable()) {
    restore_variable(node_id, dependency.variable());
  } else if (dependency.node()) {
    match_node(node_id, *dependency.node());
  }
}

void RestoreState::restore_variable(int node_id, const Variable& variable) {
  const auto& node = graph_.nodes[static_cast<size_t>(node_id)];
  matched_[static_cast<size_t>(node_id)] = variable.state_ptr().get();
  if (restored_.count(variable.id())) return;  // restore once; later training must not be undone
  for (const auto& attr : node.attributes) {
    if (attr.name != checkpoint::kVariableValueAttribute) continue;
    if (!reader_.contains(attr.checkpoint_key)) {
      throw DataLossError(internal::str_cat(
          "Checkpoint ", prefix_, ": the object graph names key '", attr.checkpoint_key, "' for ",
          node_path(node_id), " but the bundle has no such tensor"));
    }
    Tensor value = reader_.read_tensor(attr.checkpoint_key);
    if (value.dtype() != variable.dtype() || value.shape() != variable.shape()) {
      throw InvalidArgumentError(internal::str_cat(
          "Received incompatible tensor with shape ", value.shape().debug_string(), " and dtype ",
          value.dtype(), " when attempting to restore variable ", variable.name(), " with shape ",
          variable.shape().debug_string(), " and dtype ", variable.dtype(), " from ",
          node_path(node_id), " in checkpoint ", prefix_));
    }
    variable.assign(value);
    restored_.insert(variable.id());
    return;
  }
}

void RestoreState::restore_attribute(int node_id, const SaveableAttribute& attribute) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  const void* identity = matched_.at(static_cast<size_t>(node_id));
  if (restored_attributes_.count({identity, attribute.name})) return;
  for (const auto& attr : graph_.nodes[static_cast<size_t>(node_id)].attributes) {
    if (attr.name != attribute.name) continue;
    if (!reader_.contains(attr.checkpoint_key)) {
      throw DataLossError(internal::str_cat(
          "Checkpoint ", prefix_, ": the object graph names key '", attr.checkpoint_key, "' for ",
          node_path(node_id), " but the bundle has no such tensor"));
    }
    AttributeValue value;
    if (reader_.entry(attr.checkpoint_key).dtype == checkpoint::kDtString) {
      auto strings = reader_.read_strings(attr.checkpoint_key);
      if (strings.size() != 1) {
        throw DataLossError(internal::str_cat("Checkpoint ", prefix_, ": attribute '",
                                              attr.checkpoint_key, "' holds ", strings.size(),
                                              " strings, expected one"));
      }
      value = std::move(strings[0]);
    } else {
      value = reader_.read_tensor(attr.checkpoint_key);
    }
    attribute.restore(value);
    restored_attributes_.insert({identity, attribute.name});
    return;
  }
}

bool RestoreState::attribute_restored(const void* identity, const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return restored_attributes_.count({identity, name}) != 0;
}

std::string RestoreState::node_path(int node_id) const {
  const std::string& p = paths_[static_cast<size_t>(node_id)];
  return p.empty() ? internal::str_cat("node ", node_id) : p;
}

std::vector<std::string> RestoreState::unmatched_values() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::vector<std::string> out;
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    for (const auto& attr : graph_.nodes[i].attributes) {
      bool consumed =
          matched_[i] != nullptr && (attr.name == checkpoint::kVariableValueAttribute ||
                                     restored_attributes_.count({matched_[i], attr.name}) != 0);
      if (consumed) continue;
      std::string what = node_path(static_cast<int>(i));
      if (attr.name != checkpoint::kVariableValueAttribute) {
        what.append(" (").append(attr.name).append(")");
      }
      out.push_back(std::move(what));
    }
  }
  return out;
}

size_t RestoreState::matched_count() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  size_t n = 0;
  for (const void* m : matched_) n += m != nullptr;
  return n;
}

bool RestoreState::restored(uint64_t variable_id) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return restored_.count(variable_id) != 0;
}

}  // namespace tfcc::train
