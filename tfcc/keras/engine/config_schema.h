// A layer's config declared once: the list of its config keys (Keras 3's names, in Keras'
// order), each bound to the member that holds it, from which get_config, from_config, and so
// load_model, config.json (Keras 3) and tfcc's own saving all derive.
//
//   // scale.h
//   struct ScaleOptions {
//     double offset = 0.0;
//     std::string name;
//     bool trainable = true;
//   };
//   class Scale : public keras::Layer {
//     TFCC_KERAS_LAYER(Scale)
//     TFCC_KERAS_CONFIG(Scale)
//    public:
//     explicit Scale(double factor, ScaleOptions options = {});
//    private:
//     double factor_;
//     ScaleOptions options_;
//   };
//   // scale.cc
//   const keras::config::LayerSchema& Scale::config_schema() {
//     static const keras::config::LayerSchema schema =
//         keras::config::schema<Scale>(&Scale::options_)  // the options the constructor took
//             .arg("factor", &Scale::factor_)               // a positional constructor argument
//             .option("offset", &ScaleOptions::offset);     // a member of the options struct
//     return schema;
//   }
//   keras::saving::register_layer("Scale", &Scale::from_config);  // before load_model
//
// get_config writes name, trainable and dtype (Layer's), then each key in declaration order.
// from_config fills a default options struct: name, trainable, input_shape (from
// batch_input_shape) and dtype when the struct has them, then each option present in the config
// (missing or None keeps the default), and calls Type(arg..., options). A key's conversion
// comes from its member's type (Codec<T>: bool, int64_t, double, std::string, std::optional<T>,
// shapes and tuples, activations, initializers, regularizers); `.arg<C>` / `.option<C>` pick
// another (NoneIfEmpty, Ints, OneTuple, or a struct of the same shape).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::config {

using saving::Json;

/// How a member of type T converts to a config value (a Python literal, as get_config writes)
/// and back from the JSON a config file holds. `read` leaves `out` as it is for None.
template <typename T>
struct Codec;

template <>
struct Codec<bool> {
  static std::string repr(bool v) { return config::repr(v); }
  static void read(const Json& v, bool& out, std::string_view what);
};
template <>
struct Codec<int64_t> {
  static std::string repr(int64_t v) { return config::repr(v); }
  static void read(const Json& v, int64_t& out, std::string_view what);
};
template <>
struct Codec<double> {
  static std::string repr(double v) { return config::repr(v); }
  static void read(const Json& v, double& out, std::string_view what);
};
template <>
struct Codec<std::string> {
  static std::string repr(const std::string& v) { return config::repr(v); }
  static void read(const Json& v, std::string& out, std::string_view what);
};
/// A shape or tuple of ints: (3, 3); -1 is None.
template <>
struct Codec<std::vector<int64_t>> {
  static std::string repr(const std::vector<int64_t>& v) { return config::repr(v); }
  static void read(const Json& v, std::vector<int64_t>& out, std::string_view what);
};
/// A tuple of tuples: ((1, 1), (2, 2)).
template <>
struct Codec<std::vector<std::vector<int64_t>>> {
  static std::string repr(const std::vector<std::vector<int64_t>>& v);
  static void read(const Json& v, std::vector<std::vector<int64_t>>& out, std::string_view what);
};
/// An activation by name ('relu').
template <>
struct Codec<activations::Activation> {
  static std::string repr(const activations::Activation& v) { return config::repr(v.name); }
  static void read(const Json& v, activations::Activation& out, std::string_view what);
};
/// An initializer by class name ('GlorotUniform'); read from a name or a serialized object.
template <>
struct Codec<initializers::Spec> {
  static std::string repr(const initializers::Spec& v) { return config::repr(v->class_name()); }
  static void read(const Json& v, initializers::Spec& out, std::string_view what);
};
/// None or a serialized regularizer ({'class_name': 'L2', 'config': {'l2': 0.01}}).
template <>
struct Codec<regularizers::Spec> {
  static std::string repr(const regularizers::Spec& v) { return config::repr(v); }
  static void read(const Json& v, regularizers::Spec& out, std::string_view what);
};
/// None or the value.
template <typename T>
struct Codec<std::optional<T>> {
  static std::string repr(const std::optional<T>& v) {
    return v ? Codec<T>::repr(*v) : std::string("None");
  }
  static void read(const Json& v, std::optional<T>& out, std::string_view what) {
    if (v.is_null()) {
      out.reset();
      return;
    }
    T value = out.value_or(T{});
    Codec<T>::read(v, value, what);
    out = std::move(value);
  }
};

/// A tuple of ints where an empty one means None (Dropout's noise_shape).
struct NoneIfEmpty {
  static std::string repr(const std::vector<int64_t>& v);
  static void read(const Json& v, std::vector<int64_t>& out, std::string_view what);
};
/// A tuple of ints where -1 stays -1 (Reshape's target_shape), not None.
struct Ints {
  static std::string repr(const std::vector<int64_t>& v);
  static void read(const Json& v, std::vector<int64_t>& out, std::string_view what);
};
/// One int written as a 1-tuple, (3,); read from 3 or [3] (Conv1D's kernel_size).
struct OneTuple {
  static std::string repr(int64_t v);
  static void read(const Json& v, int64_t& out, std::string_view what);
};

/// A layer class's config: get_config and from_config for it. Built by config::schema.
class LayerSchema {
 public:
  using Writer = std::function<std::string(const Layer&)>;
  using Maker = std::function<std::shared_ptr<Layer>(const Json&)>;
  LayerSchema(std::vector<std::pair<std::string, Writer>> writers, Maker make)
      : writers_(std::move(writers)), make_(std::move(make)) {}

  /// Appends the declared keys of `layer` to `config`.
  void append_config(const Layer& layer, Config& config) const;
  /// A new layer from `config`; InvalidArgumentError naming the key on a missing argument or a
  /// value of the wrong type.
  std::shared_ptr<Layer> from_config(const Json& config) const { return make_(config); }
  /// The declared keys, in order.
  std::vector<std::string> keys() const;

 private:
  std::vector<std::pair<std::string, Writer>> writers_;
  Maker make_;
};

namespace schema_detail {
/// The common arguments of a config (name, trainable, input_shape, dtype) into `o`, for those
/// of them its type has.
LayerArgs layer_args(const Json& config);
template <typename Options>
void apply_layer_args(const Json& config, Options& o) {
  LayerArgs a = layer_args(config);
  if constexpr (requires { o.name = a.name; }) o.name = a.name;
  if constexpr (requires { o.trainable = a.trainable; }) o.trainable = a.trainable;
  if constexpr (requires { o.input_shape = a.input_shape; }) o.input_shape = a.input_shape;
  if constexpr (requires { o.dtype = a.dtype; }) o.dtype = a.dtype;
}
template <typename C, typename T>
using CodecOr = std::conditional_t<std::is_void_v<C>, Codec<T>, C>;
}  // namespace schema_detail

/// The builder config::schema returns: `L` the layer class, `Options` what its constructor takes
/// last, `Args` the positional constructor arguments declared so far.
template <typename L, typename Options, typename... Args>
class SchemaBuilder {
 public:
  using OptionsOf = std::function<const Options&(const L&)>;
  using Reader = std::function<void(const Json&, Options&)>;
  template <typename T>
  using ArgReader = std::function<T(const Json&)>;

  SchemaBuilder(OptionsOf options_of, std::vector<std::pair<std::string, LayerSchema::Writer>> w,
                std::vector<Reader> r, std::tuple<ArgReader<Args>...> a)
      : options_of_(std::move(options_of)),
        writers_(std::move(w)),
        readers_(std::move(r)),
        args_(std::move(a)) {}

  /// A positional constructor argument (the next one), held by the layer in `member`; required
  /// in a config.
  template <typename C = void, typename T, typename B>
  SchemaBuilder<L, Options, Args..., T> arg(const char* key, T B::*member) && {
    using K = schema_detail::CodecOr<C, T>;
    writers_.emplace_back(
        key, [member](const Layer& l) { return K::repr(static_cast<const L&>(l).*member); });
    ArgReader<T> read = [k = std::string(key)](const Json& c) {
      T value{};
      K::read(c.at(k, "layer config"), value, k);
      return value;
    };
    return {std::move(options_of_), std::move(writers_), std::move(readers_),
            std::tuple_cat(std::move(args_), std::make_tuple(std::move(read)))};
  }

  /// A member of the options struct; optional in a config (missing: the default).
  template <typename C = void, typename T>
  SchemaBuilder option(const char* key, T Options::*member) && {
    using K = schema_detail::CodecOr<C, T>;
    writers_.emplace_back(key, [of = options_of_, member](const Layer& l) {
      return K::repr(of(static_cast<const L&>(l)).*member);
    });
    readers_.push_back([k = std::string(key), member](const Json& c, Options& o) {
      if (const Json* v = c.find(k)) K::read(*v, o.*member, k);
    });
    return std::move(*this);
  }

  operator LayerSchema() && {  // NOLINT: the end of a declaration
    return LayerSchema(std::move(writers_),
                       [readers = std::move(readers_), args = std::move(args_)](const Json& c) {
                         Options o{};
                         schema_detail::apply_layer_args(c, o);
                         for (const auto& r : readers) r(c, o);
                         return std::apply(
                             [&](const auto&... read) -> std::shared_ptr<Layer> {
                               return std::make_shared<L>(read(c)..., std::move(o));
                             },
                             args);
                       });
  }

 private:
  OptionsOf options_of_;
  std::vector<std::pair<std::string, LayerSchema::Writer>> writers_;
  std::vector<Reader> readers_;
  std::tuple<ArgReader<Args>...> args_;
};

/// Starts the schema of layer class `L`, whose options (the constructor's last argument) it
/// keeps in `options` (`&L::options_`, or `&L::args_` for a layer taking LayerArgs).
template <typename L, typename Options, typename B>
SchemaBuilder<L, Options> schema(Options B::*options) {
  static_assert(std::is_base_of_v<B, L>, "config::schema<L>(&L::member): a member of L");
  return {[options](const L& l) -> const Options& { return l.*options; }, {}, {}, {}};
}

}  // namespace tfcc::keras::config
