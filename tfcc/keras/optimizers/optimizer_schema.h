// An optimizer's or a learning-rate schedule's config declared once: its keys (Keras 3's names)
// each bound to where the object holds the value and to the field of the options struct its
// constructor takes. get_config, keras.optimizers.serialize / deserialize (serialization.h), and
// so compile configs in tfcc's saving and in config.json, all derive from it.
//
//   // An optimizer: the shared keys (name, learning_rate, weight_decay, clipnorm, ...) come from
//   // Optimizer; the class declares its own, in Keras' order.
//   class Lion : public optimizers::Optimizer {
//     TFCC_KERAS_OPTIMIZER_CONFIG(Lion)
//    public:
//     explicit Lion(LionOptions options = {});
//     std::string class_name() const override { return "Lion"; }
//    private:
//     double beta_1_, beta_2_;
//   };
//   const optimizers::ConfigSchema<optimizers::Optimizer>& Lion::config_schema() {
//     static const optimizers::ConfigSchema<optimizers::Optimizer> schema =
//         optimizers::optimizer_schema<Lion, LionOptions>()
//             .option("beta_1", &Lion::beta_1_, &LionOptions::beta_1)
//             .option("beta_2", &Lion::beta_2_, &LionOptions::beta_2);
//     return schema;
//   }
//
// A schedule also declares its positional constructor arguments (.arg) before its options:
// ExponentialDecay(initial_learning_rate, decay_steps, decay_rate, {.staircase}).
//
// Reading: a missing or None key keeps the options' default; a positional argument is required;
// a value of the wrong type is an InvalidArgumentError naming the key (config::Codec).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/optimizers/optimizer.h"
#include "tfcc/keras/optimizers/schedules/learning_rate_schedule.h"

namespace tfcc::keras::optimizers {

using saving::Json;

/// The config of a class derived from `Base` (Optimizer or LearningRateSchedule).
template <typename Base>
class ConfigSchema {
 public:
  using Writer = std::function<Json(const Base&)>;
  using Maker = std::function<std::shared_ptr<Base>(const Json&)>;
  ConfigSchema(std::vector<std::pair<std::string, Writer>> writers, Maker make)
      : writers_(std::move(writers)), make_(std::move(make)) {}
  /// Sets the declared keys of `object` on `config`, in order.
  void append_config(const Base& object, Json& config) const {
    for (const auto& [key, write] : writers_) config.set(key, write(object));
  }
  /// A new object from `config`.
  std::shared_ptr<Base> from_config(const Json& config) const { return make_(config); }

 private:
  std::vector<std::pair<std::string, Writer>> writers_;
  Maker make_;
};

namespace schema_detail {
/// A value as a config holds it.
template <typename T>
Json to_json(const T& v) {
  if constexpr (requires { v.has_value(); }) {
    return v ? to_json(*v) : Json();
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    Json out = Json::array();
    for (double x : v) out.push(Json(x));
    return out;
  } else {
    return Json(v);
  }
}
/// Reads a value (None keeps `out`); numbers lists for PiecewiseConstantDecay.
template <typename T>
void from_json(const Json& v, T& out, std::string_view what) {
  if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (v.is_null()) return;
    out.clear();
    for (const Json& x : v.items(what)) out.push_back(x.as_number(what));
  } else {
    config::Codec<T>::read(v, out, what);
  }
}
/// The settings every optimizer shares, from a config (optimizer_schema.cc).
void read_common(const Json& config, OptimizerConfig& common);
/// Options without a struct (PiecewiseConstantDecay's constructor takes none).
struct NoOptions {};
}  // namespace schema_detail

/// The builder optimizer_schema / schedule_schema return.
template <typename Base, typename T, typename Options, typename... Args>
class ConfigSchemaBuilder {
 public:
  using Writer = typename ConfigSchema<Base>::Writer;
  using Reader = std::function<void(const Json&, Options&)>;
  template <typename A>
  using ArgReader = std::function<A(const Json&)>;
  using Common = std::function<void(const Json&, Options&)>;

  ConfigSchemaBuilder(std::vector<std::pair<std::string, Writer>> w, std::vector<Reader> r,
                      std::tuple<ArgReader<Args>...> a, Common common)
      : writers_(std::move(w)),
        readers_(std::move(r)),
        args_(std::move(a)),
        common_(std::move(common)) {}

  /// The next positional constructor argument: `key`, held where `get` (a member pointer of T
  /// or a function of const T&) finds it; required in a config.
  template <typename A, typename Get>
  ConfigSchemaBuilder<Base, T, Options, Args..., A> arg(const char* key, Get get) && {
    writers_.emplace_back(key, [get](const Base& b) {
      return schema_detail::to_json(std::invoke(get, static_cast<const T&>(b)));
    });
    ArgReader<A> read = [k = std::string(key)](const Json& c) {
      A value{};
      schema_detail::from_json(c.at(k, "config"), value, k);
      return value;
    };
    return {std::move(writers_), std::move(readers_),
            std::tuple_cat(std::move(args_), std::make_tuple(std::move(read))), std::move(common_)};
  }

  /// A setting: `key`, held where `get` finds it, read into the options' `option`.
  template <typename Get, typename V>
  ConfigSchemaBuilder option(const char* key, Get get, V Options::*option) && {
    writers_.emplace_back(key, [get](const Base& b) {
      return schema_detail::to_json(std::invoke(get, static_cast<const T&>(b)));
    });
    readers_.push_back([k = std::string(key), option](const Json& c, Options& o) {
      if (const Json* v = c.find(k)) schema_detail::from_json(*v, o.*option, k);
    });
    return std::move(*this);
  }

  /// A key written with a fixed value and not read (Keras' schedules' "name": None).
  ConfigSchemaBuilder constant(const char* key, Json value) && {
    writers_.emplace_back(key, [value](const Base&) { return value; });
    return std::move(*this);
  }

  operator ConfigSchema<Base>() && {  // NOLINT: the end of a declaration
    return ConfigSchema<Base>(
        std::move(writers_), [readers = std::move(readers_), args = std::move(args_),
                              common = std::move(common_)](const Json& c) {
          Options o{};
          if (common) common(c, o);
          for (const auto& r : readers) r(c, o);
          return std::apply(
              [&](const auto&... read) -> std::shared_ptr<Base> {
                if constexpr (std::is_same_v<Options, schema_detail::NoOptions>) {
                  return std::make_shared<T>(read(c)...);
                } else {
                  return std::make_shared<T>(read(c)..., std::move(o));
                }
              },
              args);
        });
  }

 private:
  std::vector<std::pair<std::string, Writer>> writers_;
  std::vector<Reader> readers_;
  std::tuple<ArgReader<Args>...> args_;
  Common common_;
};

/// Starts the schema of optimizer class `T`, built from `Options` (its name, learning_rate,
/// weight_decay and clipping read as every optimizer's).
template <typename T, typename Options>
ConfigSchemaBuilder<Optimizer, T, Options> optimizer_schema() {
  return {{}, {}, {}, [](const Json& c, Options& o) {
            OptimizerConfig common = config_of(o);
            schema_detail::read_common(c, common);
            o.name = common.name;
            o.learning_rate = common.learning_rate;
            if constexpr (std::is_same_v<decltype(o.weight_decay), double>) {
              o.weight_decay = common.weight_decay.value_or(o.weight_decay);  // AdamW
            } else {
              o.weight_decay = common.weight_decay;
            }
            o.clipnorm = common.clipnorm;
            o.clipvalue = common.clipvalue;
            o.global_clipnorm = common.global_clipnorm;
            o.use_ema = common.use_ema;
            o.ema_momentum = common.ema_momentum;
            o.ema_overwrite_frequency = common.ema_overwrite_frequency;
            o.loss_scale_factor = common.loss_scale_factor;
            o.gradient_accumulation_steps = common.gradient_accumulation_steps;
          }};
}

/// Starts the schema of schedule class `T` (`Options` its options struct, or none).
template <typename T, typename Options = schema_detail::NoOptions>
ConfigSchemaBuilder<schedules::LearningRateSchedule, T, Options> schedule_schema() {
  return {{}, {}, {}, nullptr};
}

}  // namespace tfcc::keras::optimizers
