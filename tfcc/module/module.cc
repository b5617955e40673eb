#include "tfcc/module/module.h"

#include <algorithm>
#include <unordered_set>

#include "tfcc/platform/errors.h"

namespace tfcc {

Module::Module(std::string name) : name_(std::move(name)) {}

Variable Module::add_variable(const std::string& name, const Tensor& initial_value,
                              bool trainable) {
  TFCC_CHECK_ARG(!name.empty(), "Module '", name_, "': a variable needs a non-empty name");
  Variable v(initial_value, {.name = scoped_name(name), .trainable = trainable});
  variables_.emplace_back(name, v);
  return v;
}

Variable Module::track_variable(Variable v, std::string key) {
  TFCC_CHECK_ARG(v.defined(), "Module '", name_, "': cannot track an undefined variable");
  if (key.empty()) key = v.name();
  variables_.emplace_back(std::move(key), v);
  return v;
}

void Module::track_child(std::shared_ptr<Module> m, std::string key) {
  TFCC_CHECK_ARG(m != nullptr, "Module '", name_, "': cannot track a null module");
  TFCC_CHECK_ARG(m.get() != this, "Module '", name_, "' cannot contain itself");
  // A cycle would make the recursive walks below loop forever.
  for (const auto& d : m->submodules()) {
    TFCC_CHECK_ARG(d.get() != this, "Module '", name_, "': tracking '", m->name(),
                   "' would create a cycle");
  }
  if (key.empty()) key = m->name();
  children_.emplace_back(std::move(key), std::move(m));
}

// which: 0 all, 1 trainable, 2 non-trainable.
void Module::collect(std::vector<Variable>& out, std::vector<uint64_t>& seen, int which,
                     bool parent_trainable) const {
  const bool module_trainable = parent_trainable && trainable();
  for (const auto& [key, v] : variables_) {
    if (std::find(seen.begin(), seen.end(), v.id()) != seen.end()) continue;
    const bool is_trainable = module_trainable && v.trainable();
    if (which == 1 && !is_trainable) continue;
    if (which == 2 && is_trainable) continue;
    seen.push_back(v.id());
    out.push_back(v);
  }
  for (const auto& [key, child] : children_) child->collect(out, seen, which, module_trainable);
}

std::vector<Variable> Module::variables() const {
  std::vector<Variable> out;
  std::vector<uint64_t> seen;
  collect(out, seen, 0, true);
  return out;
}

std::vector<Variable> Module::trainable_variables() const {
  std::vector<Variable> out;
  std::vector<uint64_t> seen;
  collect(out, seen, 1, true);
  return out;
}

std::vector<Variable> Module::non_trainable_variables() const {
  std::vector<Variable> out;
  std::vector<uint64_t> seen;
  collect(out, seen, 2, true);
  return out;
}

std::vector<std::shared_ptr<Module>> Module::submodules() const {
  std::vector<std::shared_ptr<Module>> out;
  std::unordered_set<const Module*> seen;
  for (const auto& [key, child] : children_) {
    if (seen.insert(child.get()).second) out.push_back(child);
  }
  for (const auto& [key, child] : children_) {
    for (auto& d : child->submodules()) {
      if (seen.insert(d.get()).second) out.push_back(d);
    }
  }
  return out;
}

std::vector<std::pair<std::string, Variable>> Module::named_variables() const {
  std::vector<std::pair<std::string, Variable>> out;
  std::unordered_set<uint64_t> seen;
  for (const auto& [key, v] : variables_) {
    if (seen.insert(v.id()).second) out.emplace_back(key, v);
  }
  for (const auto& [key, child] : children_) {
    for (auto& [sub, v] : child->named_variables()) {
      if (!seen.insert(v.id()).second) continue;
      std::string path = key;
      path.append("/").append(sub);
      out.emplace_back(std::move(path), v);
    }
  }
  return out;
}

}  // namespace tfcc
