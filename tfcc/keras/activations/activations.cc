#include "tfcc/keras/activations/activations.h"

#include <map>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::activations {

Activation::Activation(const char* n) : Activation(get(n)) {}
Activation::Activation(const std::string& n) : Activation(get(n)) {}
Activation::Activation(std::function<Tensor(const Tensor&)> f, std::string n)
    : name(std::move(n)), fn(std::move(f)) {}

namespace {

// Keras 3's hard_silu: x * relu6(x + 3) / 6.
Tensor hard_silu(const Tensor& x) { return multiply(x, divide(relu6(add(x, 3.0)), 6.0)); }

}  // namespace

Activation get(const std::string& name) {
  using Fn = std::function<Tensor(const Tensor&)>;
  static const std::map<std::string, Fn> table = {
      {"relu", [](const Tensor& x) { return relu(x); }},
      {"relu6", [](const Tensor& x) { return relu6(x); }},
      {"sigmoid", [](const Tensor& x) { return sigmoid(x); }},
      // Keras 3: relu6(x + 3) / 6 (Keras 2 had clip(0.2 x + 0.5, 0, 1); docs/keras3.md).
      {"hard_sigmoid", [](const Tensor& x) { return divide(relu6(add(x, 3.0)), 6.0); }},
      {"hard_silu", hard_silu},
      {"hard_swish", hard_silu},  // Keras 3's alias
      {"tanh", [](const Tensor& x) { return tanh(x); }},
      {"softmax", [](const Tensor& x) { return softmax(x, -1); }},
      {"log_softmax", [](const Tensor& x) { return log_softmax(x, -1); }},
      {"elu", [](const Tensor& x) { return elu(x); }},
      {"selu", [](const Tensor& x) { return selu(x); }},
      {"gelu", [](const Tensor& x) { return gelu(x, false); }},
      {"softplus", [](const Tensor& x) { return softplus(x); }},
      {"softsign", [](const Tensor& x) { return softsign(x); }},
      {"swish", [](const Tensor& x) { return silu(x); }},
      {"silu", [](const Tensor& x) { return silu(x); }},
      {"exponential", [](const Tensor& x) { return exp(x); }},
      {"leaky_relu", [](const Tensor& x) { return leaky_relu(x, 0.2); }},
  };
  Activation a;
  if (name.empty() || name == "linear") return a;
  auto it = table.find(name);
  if (it == table.end()) {
    std::string known = "linear";
    for (const auto& [k, f] : table) known.append(", ").append(k);
    throw InvalidArgumentError(
        internal::str_cat("Unknown activation function: '", name, "'. Known activations: ", known));
  }
  a.name = name;
  a.fn = it->second;
  return a;
}

}  // namespace tfcc::keras::activations
