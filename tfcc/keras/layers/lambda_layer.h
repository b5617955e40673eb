// Lambda: a layer that applies a C++ callable (no weights). Its config holds the callable's
// name only; a model with a Lambda loads once that name is registered with
// Lambda::register_function (Keras, likewise, cannot rebuild a lambda it has not got).
//
//   layers::Lambda square([](const Tensor& x) { return tfcc::square(x); }, {.function = "square"});
//   layers::Lambda::register_function("square", [](const Tensor& x) { return tfcc::square(x); });
//   auto model = keras::models::load_model("dir");   // its Lambda 'square' gets the function
//
//   layers::Lambda pair([](const Tensors& xs) { return Tensors{xs[0] + xs[1]}; });  // n inputs
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of Lambda.
struct LambdaOptions {
  /// The name the config saves the callable under (Keras writes the Python function's name);
  /// "lambda" when empty.
  std::string function;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// Applies a callable to the inputs.
class Lambda : public Layer {
  TFCC_KERAS_LAYER(Lambda)
  TFCC_KERAS_CONFIG(Lambda)
 public:
  using Options = LambdaOptions;
  using Fn = std::function<Tensor(const Tensor&)>;
  using FnN = std::function<Tensors(const Tensors&)>;

  /// One input, one output.
  explicit Lambda(Fn fn, Options options = {});
  /// Any number of inputs and outputs.
  explicit Lambda(FnN fn, Options options = {});
  /// From a config: the function registered under `options.function`; InvalidArgumentError
  /// naming it when none is.
  explicit Lambda(Options options);

  /// Makes `fn` what a Lambda whose config names `function` applies when it is loaded.
  static void register_function(const std::string& function, Fn fn);
  static void register_function(const std::string& function, FnN fn);

 protected:
  Tensors call_n(const Tensors& inputs, bool training) override;

 private:
  FnN fn_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
