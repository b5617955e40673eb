// Keras activation functions by name.
//
//   auto relu = tfcc::keras::activations::get("relu");
//   relu(x);                                       // tfcc::relu(x)
//   layers::Dense(64, {.activation = "relu"});    // layers take a name or any callable
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <string>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::activations {

/// An activation: a name (for get_config and summaries) and the function.
struct Activation {
  Activation() = default;
  Activation(const char* name);         // NOLINT: implicit by design
  Activation(const std::string& name);  // NOLINT
  /// A custom function; its name is "custom".
  Activation(std::function<Tensor(const Tensor&)> fn, std::string name = "custom");  // NOLINT
  /// Applies the activation (identity when none was given).
  Tensor operator()(const Tensor& x) const { return fn ? fn(x) : x; }
  /// True unless this is the identity ("linear" or nothing).
  bool active() const { return static_cast<bool>(fn); }

  std::string name = "linear";
  std::function<Tensor(const Tensor&)> fn;
};

/// The activation called `name`: linear, relu, relu6, sigmoid, hard_sigmoid, hard_silu (alias
/// hard_swish), tanh, softmax, log_softmax, elu, selu, gelu, softplus, softsign, swish, silu,
/// exponential, leaky_relu. Unknown names raise InvalidArgumentError.
Activation get(const std::string& name);

}  // namespace tfcc::keras::activations
#pragma GCC visibility pop
