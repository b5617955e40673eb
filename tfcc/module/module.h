// tfcc::Module: a named container of variables and child modules, like tf.Module. Keras layers and
// models derive from it; so can any object that owns variables.
//
//   class Affine : public tfcc::Module {
//    public:
//     Affine(int64_t in, int64_t out) : Module("affine") {
//       auto scope = name_scope();
//       w_ = add_variable("w", tfcc::random::normal({in, out}));
//       b_ = add_variable("b", tfcc::zeros({out}));
//     }
//     tfcc::Tensor operator()(const tfcc::Tensor& x) const { return tfcc::matmul(x, w_) + b_; }
//    private:
//     tfcc::Variable w_, b_;
//   };
//
//   class Mlp : public tfcc::Module {
//    public:
//     Mlp() : Module("mlp") {
//       l1_ = track_module(std::make_shared<Affine>(4, 32), "l1");
//       l2_ = track_module(Affine(32, 1), "l2");   // a temporary is moved into a shared_ptr
//     }
//     std::shared_ptr<Affine> l1_, l2_;
//   };
//   Mlp m;
//   m.trainable_variables();   // affine/w, affine/b of l1, then of l2: registration order
//
// Ownership (the one model for layers, models, optimizers, metrics): objects derive from a base
// class; a container holds its children as std::shared_ptr and takes them either by value (moved
// into a new shared_ptr) or as a std::shared_ptr when the caller wants to keep a handle. Copying a
// module copies the handles of its variables and children (a shallow copy sharing state).
// Variables are handles too: the module and any other holder see the same variable.
//
// Order: C++ has no attribute dictionary, so a module's variables and children are kept in the
// order they were registered. variables() lists the module's own variables first, then each
// child's variables recursively in child order; a variable reachable twice is listed once. This is
// the order Keras uses for a layer's weights, and it is stable from run to run (checkpoint keys
// rely on it).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/module/name_scope.h"

namespace tfcc {

/// A named container of variables and child modules.
class Module : public std::enable_shared_from_this<Module> {
 public:
  /// A module called `name` (used as its name scope).
  explicit Module(std::string name = "module");
  virtual ~Module() = default;
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  Module(Module&&) = default;
  Module& operator=(Module&&) = default;

  /// The module's name.
  const std::string& name() const { return name_; }
  /// Enters this module's name scope for the lifetime of the result:
  /// `auto scope = name_scope();` then variables created are named "<name>/...".
  NameScope name_scope() const { return NameScope(name_); }

  /// Every variable of this module and its descendants (own first, then children's), deduplicated.
  std::vector<Variable> variables() const;
  /// The trainable ones among variables(): trainable variables of modules that are trainable.
  std::vector<Variable> trainable_variables() const;
  /// The others.
  std::vector<Variable> non_trainable_variables() const;
  /// Every descendant module: direct children first, then each child's descendants in turn.
  std::vector<std::shared_ptr<Module>> submodules() const;

  /// Own variables with the key each was registered under.
  const std::vector<std::pair<std::string, Variable>>& own_variables() const { return variables_; }
  /// Direct children with their keys.
  const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& children() const {
    return children_;
  }
  /// Every variable with its key path ("child/grandchild/key"), in variables() order.
  std::vector<std::pair<std::string, Variable>> named_variables() const;

  /// Whether this module's variables count as trainable (Keras' layer.trainable); a module that is
  /// not trainable makes all its descendants' variables non-trainable too.
  virtual bool trainable() const { return true; }

 protected:
  /// Creates a variable named `<current scope><name>` and registers it under key `name`.
  Variable add_variable(const std::string& name, const Tensor& initial_value,
                        bool trainable = true);
  /// Registers an existing variable under `key` (default: its name). Returns it.
  Variable track_variable(Variable v, std::string key = "");
  /// Registers a child module under `key` (default: its name). Returns the same handle.
  template <typename M>
  std::shared_ptr<M> track_module(std::shared_ptr<M> m, std::string key = "") {
    static_assert(std::is_base_of_v<Module, M>, "track_module needs a tfcc::Module");
    track_child(m, std::move(key));
    return m;
  }
  /// Moves a module value into a new shared_ptr and registers it.
  template <typename M>
  requires(std::is_base_of_v<Module, std::decay_t<M>> && !std::is_lvalue_reference_v<M>)
      std::shared_ptr<std::decay_t<M>> track_module(M&& m, std::string key = "") {
    return track_module(std::make_shared<std::decay_t<M>>(std::move(m)), std::move(key));
  }
  /// Forgets every registered variable and child (a layer that rebuilds itself).
  void clear_tracking() {
    variables_.clear();
    children_.clear();
  }
  /// Renames the module (Keras uniquifies layer names after construction).
  void set_name(std::string name) { name_ = std::move(name); }

 private:
  void track_child(std::shared_ptr<Module> m, std::string key);
  void collect(std::vector<Variable>& out, std::vector<uint64_t>& seen, int which,
               bool parent_trainable) const;

  std::string name_;
  std::vector<std::pair<std::string, Variable>> variables_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
};

}  // namespace tfcc
#pragma GCC visibility pop
