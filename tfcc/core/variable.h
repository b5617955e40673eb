// tfcc::Variable: the only mutable state in tfcc. A variable has an identity (tapes watch it,
// traces capture it), a name, a dtype and shape fixed at creation, and a `trainable` flag.
//
//   tfcc::Variable w(tfcc::random::normal({784, 10}), {.name = "dense/kernel"});
//   auto y = tfcc::matmul(x, w);          // reading is an op (ReadVariableOp)
//   w.assign_sub(learning_rate * grad);    // so is writing (AssignSubVariableOp)
//
// Copies of a Variable are handles to the same variable. Reading and assigning are ops, defined
// by the op layer (tfcc/ops/variable), so a GradientTape sees reads and a trace captures them.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc {

/// Options of a new variable.
struct VariableOptions {
  std::string name = "Variable";
  bool trainable = true;
};

/// Shared state of a variable (what the ops read and write).
struct VariableState {
  mutable std::mutex mu;
  Tensor value;
  std::string name;
  bool trainable = true;
  DType dtype = float32;
  Shape shape;
  uint64_t id = 0;
};

/// A handle to a mutable, named tensor.
class Variable {
 public:
  /// A null handle.
  Variable() = default;
  /// A variable holding `initial_value` (a concrete tensor).
  explicit Variable(const Tensor& initial_value, VariableOptions options = {});
  /// A variable initialised by calling `initializer()` now.
  explicit Variable(const std::function<Tensor()>& initializer, VariableOptions options = {})
      : Variable(initializer(), std::move(options)) {}

  /// A handle to existing variable state (ops carry the state, not the handle).
  static Variable from_state(std::shared_ptr<VariableState> state) {
    Variable v;
    v.state_ = std::move(state);
    return v;
  }

  bool defined() const { return state_ != nullptr; }
  const std::string& name() const { return state().name; }
  DType dtype() const { return state().dtype; }
  const Shape& shape() const { return state().shape; }
  bool trainable() const { return state().trainable; }
  /// Unique per variable (shared by its copies).
  uint64_t id() const { return state().id; }
  const std::shared_ptr<VariableState>& state_ptr() const { return state_; }

  // Op-backed access, implemented by the op layer (tfcc/ops/variable).
  /// The current value, through ReadVariableOp.
  Tensor read_value() const;
  /// Reads the value: a Variable can be passed wherever a Tensor is expected.
  operator Tensor() const { return read_value(); }  // NOLINT: implicit by design, like TF
  /// Sets the value (same dtype and shape). Returns the new value.
  Tensor assign(const Tensor& value) const;
  /// value += delta.
  Tensor assign_add(const Tensor& delta) const;
  /// value -= delta.
  Tensor assign_sub(const Tensor& delta) const;

  /// tf.Variable's print form: <tf.Variable 'name:0' shape=(2,) dtype=float32, numpy=...>.
  std::string to_string() const;

 private:
  const VariableState& state() const;
  std::shared_ptr<VariableState> state_;
};

std::ostream& operator<<(std::ostream& os, const Variable& v);

}  // namespace tfcc
#pragma GCC visibility pop
