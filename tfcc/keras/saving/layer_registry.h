// Layers by class name, so that keras::models::load_model can rebuild a model from its config
// (Keras' custom objects). The built-in layers are registered; register your own layer (or
// subclassed model) before loading a model that uses it. A layer that declares its config
// (TFCC_KERAS_CONFIG, engine/config_schema.h) registers its from_config:
//
//   keras::saving::register_layer("Scale", &Scale::from_config);
//   auto model = keras::models::load_model("/tmp/model");
//
// Any other factory works too: it receives the layer's config as JSON (get_config()'s values,
// Python literals turned into JSON, plus "batch_input_shape" when the layer was given an
// input_shape):
//
//   keras::saving::register_layer("Scale", [](const keras::saving::Json& config) {
//     return std::make_shared<Scale>(config.at("factor").as_number("factor"));
//   });
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::saving {

/// Makes a layer from its config.
using LayerFactory = std::function<std::shared_ptr<Layer>(const Json& config)>;

/// Registers (or replaces) the factory of `class_name` (as Layer::class_name() reports it).
void register_layer(const std::string& class_name, LayerFactory factory);
/// The registered class names, sorted.
std::vector<std::string> registered_layers();
/// True if `class_name` can be rebuilt.
bool is_layer_registered(const std::string& class_name);
/// Rebuilds a layer; InvalidArgumentError naming the class and how to register it when unknown.
std::shared_ptr<Layer> layer_from_config(const std::string& class_name, const Json& config);

/// A layer's config as JSON (get_config, plus batch_input_shape when declared).
Json layer_config(const Layer& layer);

/// The common arguments of a config: name, trainable, dtype and input_shape (from
/// batch_input_shape, without the batch dimension; None becomes -1).
LayerArgs layer_args_from_config(const Json& config);
/// A shape or tuple of ints (None as -1).
std::vector<int64_t> int_list(const Json& value, std::string_view what);
/// A regularizer from its serialized form (null: none).
regularizers::Spec regularizer_from_config(const Json& value);
/// A dtype by TensorFlow name ("float32", ...).
DType dtype_from_name(const std::string& name);

}  // namespace tfcc::keras::saving
#pragma GCC visibility pop
