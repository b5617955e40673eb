#include "tfcc/keras/layers/lambda_layer.h"

#include <map>
#include <mutex>

#include "tfcc/keras/engine/config_schema.h"

namespace tfcc::keras::layers {
namespace {

struct Functions {
  std::mutex mu;
  std::map<std::string, Lambda::FnN> by_name;
};

Functions& functions() {
  static Functions* f = new Functions;  // never destroyed: used until exit
  return *f;
}

Lambda::FnN one_to_n(Lambda::Fn fn) {
  TFCC_CHECK_ARG(fn != nullptr, "Lambda needs a callable");
  return [fn = std::move(fn)](const Tensors& xs) {
    TFCC_CHECK_ARG(xs.size() == 1, "This Lambda's function takes one input; it was called on ",
                   xs.size(), " (construct it from a function of Tensors for several)");
    return Tensors{fn(xs[0])};
  };
}

Lambda::FnN registered(const std::string& function) {
  Functions& f = functions();
  std::lock_guard lock(f.mu);
  auto it = f.by_name.find(function);
  TFCC_CHECK_ARG(it != f.by_name.end(), "A Lambda layer's config names the function '", function,
                 "', which is not registered: a C++ program rebuilding it must first call "
                 "keras::layers::Lambda::register_function(\"",
                 function, "\", <the callable>)");
  return it->second;
}

// Keras' form of a named function: {'module': 'builtins', 'class_name': 'function',
// 'config': 'name', 'registered_name': 'function'}; a bare name is read too. Python lambdas
// (class_name '__lambda__', bytecode) cannot be rebuilt in C++.
struct FunctionName {
  static std::string repr(const std::string& name) {
    return "{'module': 'builtins', 'class_name': 'function', 'config': " +
           keras::config::repr(name) + ", 'registered_name': 'function'}";
  }
  static void read(const saving::Json& v, std::string& out, std::string_view what) {
    if (v.type() != saving::Json::Type::kObject) {
      keras::config::Codec<std::string>::read(v, out, what);
      return;
    }
    const std::string cls = v.at("class_name", what).as_string(what);
    TFCC_CHECK_ARG(cls == "function", "A Lambda layer's `", what, "` is a Python ", cls,
                   ", which C++ cannot rebuild: only named functions (registered with "
                   "Lambda::register_function) load");
    out = v.at("config", what).as_string(what);
  }
};

}  // namespace

Lambda::Lambda(Fn fn, Options options) : Lambda(one_to_n(std::move(fn)), std::move(options)) {}

Lambda::Lambda(FnN fn, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "lambda"),
      fn_(std::move(fn)),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(fn_ != nullptr, "Lambda '", name(), "' needs a callable");
  if (options_.function.empty()) options_.function = "lambda";
}

// `options` is copied, not moved: the function must be looked up from it first.
Lambda::Lambda(Options options)
    : Lambda(registered(options.function.empty() ? "lambda" : options.function), options) {}

void Lambda::register_function(const std::string& function, Fn fn) {
  register_function(function, one_to_n(std::move(fn)));
}

void Lambda::register_function(const std::string& function, FnN fn) {
  TFCC_CHECK_ARG(!function.empty() && fn != nullptr,
                 "Lambda::register_function needs a name and a callable");
  Functions& f = functions();
  std::lock_guard lock(f.mu);
  f.by_name[function] = std::move(fn);
}

Tensors Lambda::call_n(const Tensors& inputs, bool) { return fn_(inputs); }

const config::LayerSchema& Lambda::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<Lambda>(&Lambda::options_)
          .option<FunctionName>("function", &Options::function);
  return schema;
}

}  // namespace tfcc::keras::layers
