// tfcc::Module objects (layers, models, any class deriving from Module) in checkpoints: a
// module's dependencies are its own variables and its child modules, under the keys they were
// registered with, in registration order.
//
//   auto mlp = std::make_shared<Mlp>();
//   tfcc::train::Checkpoint ckpt({{"model", mlp}});      // keys "model/l1/w/.ATTRIBUTES/...", ...
//   Mlp stack_model;
//   tfcc::train::Checkpoint ckpt2({{"model", stack_model}});  // by reference: must outlive ckpt2
//
// A module held by a std::shared_ptr is kept alive by the checkpoint. A module passed by
// reference that is not owned by a shared_ptr is referenced, not owned.
//
// Modules do not announce variables created after construction, so a restore reaches variables
// a layer creates later (Keras' build on first call) when the load status is used again:
// status.run_restore_ops() or any status.assert_*().
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <type_traits>

#include "tfcc/io/checkpoint/trackable.h"
#include "tfcc/module/module.h"

namespace tfcc {

namespace train {

/// The checkpoint view of a Module.
class ModuleNode : public TrackableNode {
 public:
  /// `owner` keeps the module alive (null when it is referenced only).
  ModuleNode(const Module* module, std::shared_ptr<const Module> owner)
      : module_(module), owner_(std::move(owner)) {}

  std::vector<std::pair<std::string, Dependency>> dependencies() const override {
    std::vector<std::pair<std::string, Dependency>> out;
    for (const auto& [key, v] : module_->own_variables()) out.emplace_back(key, v);
    for (const auto& [key, child] : module_->children()) {
      out.emplace_back(key, std::make_shared<const ModuleNode>(child.get(), child));
    }
    return out;
  }
  const void* identity() const override { return module_; }

 private:
  const Module* module_;
  std::shared_ptr<const Module> owner_;
};

}  // namespace train

/// A Module held by a shared_ptr, as a checkpoint dependency.
template <typename M>
requires std::is_base_of_v<Module, M> std::shared_ptr<const train::TrackableNode> as_trackable_node(
    const std::shared_ptr<M>& module) {
  return std::make_shared<const train::ModuleNode>(module.get(), module);
}

/// A Module by reference: owned through its shared_ptr if it has one, else referenced.
template <typename M>
requires std::is_base_of_v<Module, M> std::shared_ptr<const train::TrackableNode> as_trackable_node(
    const M& module) {
  std::shared_ptr<const Module> owner = module.weak_from_this().lock();
  return std::make_shared<const train::ModuleNode>(&module, std::move(owner));
}

}  // namespace tfcc
#pragma GCC visibility pop
