// Weight constraints (keras.constraints): functions a weight is projected through after each
// optimizer step, as Keras does (`variable.assign(constraint(variable))` after the update).
// Layers take them as `kernel_constraint` / `bias_constraint` options (Dense, Conv*), saved in
// the layer's config.
//
//   layers::Dense(64, {.kernel_constraint = constraints::MaxNorm(3.0)});
//   layers::Dense(8, {.kernel_constraint = "non_neg"});          // by name
//   constraints::attach(my_variable, constraints::UnitNorm());    // any variable
//   optimizer.apply_gradients(grads, vars);                      // then projected
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc::keras::constraints {

/// A projection of a weight's value.
class Constraint {
 public:
  virtual ~Constraint() = default;
  /// The projected value of `w`.
  virtual Tensor operator()(const Tensor& w) const = 0;
  /// Keras' class name ("MaxNorm").
  virtual std::string class_name() const = 0;
  /// Keras' config as a Python dict literal ("{'max_value': 2.0, 'axis': 0}").
  virtual std::string config_repr() const = 0;
};

/// Each slice along `axis` (all but the output axis: {0} for a Dense kernel, {0, 1, 2} for a
/// Conv2D kernel) scaled down to norm at most max_value.
class MaxNorm : public Constraint {
 public:
  explicit MaxNorm(double max_value = 2.0, std::vector<int64_t> axis = {0});
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MaxNorm"; }
  std::string config_repr() const override;

 private:
  double max_value_;
  std::vector<int64_t> axis_;
};

/// Negative entries set to zero.
class NonNeg : public Constraint {
 public:
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "NonNeg"; }
  std::string config_repr() const override { return "{}"; }
};

/// Each slice along `axis` scaled to unit norm.
class UnitNorm : public Constraint {
 public:
  explicit UnitNorm(std::vector<int64_t> axis = {0});
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "UnitNorm"; }
  std::string config_repr() const override;

 private:
  std::vector<int64_t> axis_;
};

/// Each slice's norm moved towards [min_value, max_value]: norm' = rate * clip(norm) +
/// (1 - rate) * norm.
class MinMaxNorm : public Constraint {
 public:
  explicit MinMaxNorm(double min_value = 0.0, double max_value = 1.0, double rate = 1.0,
                      std::vector<int64_t> axis = {0});
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MinMaxNorm"; }
  std::string config_repr() const override;

 private:
  double min_value_, max_value_, rate_;
  std::vector<int64_t> axis_;
};

/// A constraint by Keras name ("max_norm", "non_neg", "unit_norm", "min_max_norm", or the class
/// names), with Keras' defaults; InvalidArgumentError for another.
std::shared_ptr<const Constraint> get(const std::string& name);

/// What layer options accept: nothing (the default), a name, a Constraint value or a
/// shared_ptr.
class Spec {
 public:
  Spec() = default;
  Spec(const char* name) : ptr_(get(name)) {}         // NOLINT: implicit by design
  Spec(const std::string& name) : ptr_(get(name)) {}  // NOLINT
  template <typename C>
  requires std::is_base_of_v<Constraint, std::decay_t<C>> Spec(C&& c)  // NOLINT
      : ptr_(std::make_shared<std::decay_t<C>>(std::forward<C>(c))) {}
  Spec(std::shared_ptr<const Constraint> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  explicit operator bool() const { return ptr_ != nullptr; }
  const Constraint& operator*() const { return *ptr_; }
  const std::shared_ptr<const Constraint>& ptr() const { return ptr_; }

 private:
  std::shared_ptr<const Constraint> ptr_;
};

/// Makes `constraint` the constraint of `variable` (replacing any; an empty Spec removes it).
void attach(const Variable& variable, Spec constraint);
/// The constraint of `variable`, or an empty Spec.
Spec constraint_of(const Variable& variable);
/// variable.assign(constraint(variable)) when `variable` has a constraint (the optimizers call
/// this after each update).
void apply(const Variable& variable);

}  // namespace tfcc::keras::constraints

namespace tfcc::keras::saving {
class Json;
}
namespace tfcc::keras::config {
template <typename T>
struct Codec;
/// None or a serialized constraint ({'class_name': 'MaxNorm', 'config': {...}}) in a config.
template <>
struct Codec<constraints::Spec> {
  static std::string repr(const constraints::Spec& v);
  static void read(const saving::Json& v, constraints::Spec& out, std::string_view what);
};
}  // namespace tfcc::keras::config
#pragma GCC visibility pop
