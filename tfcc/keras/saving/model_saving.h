// Whole-model saving: Model::save(path) and keras::models::load_model(path) keep the
// architecture (each layer's config, by class name), the compile configuration, the weights and
// the optimizer's state, so that a loaded model predicts the same and continues training with
// the same steps.
//
//   model.save("/tmp/mlp");                                   // a directory
//   auto loaded = keras::models::load_model("/tmp/mlp");     // std::shared_ptr<Model>
//   loaded->fit(x, y, {.epochs = 1});                         // continues where model stopped
//   std::string json = keras::models::model_to_json(model);  // model.to_json()
//
// The directory holds `config.json` (Keras' model config: {"class_name": "Sequential" |
// "Functional" | a registered class, "config": {...}, "compile_config": {...}}),
// `variables/variables.{index,data-00000-of-00001}` (Model::save_weights' TF checkpoint) and
// `metadata.json`, written last, with the CRC32C of config.json (a mismatch is a DataLossError).
// Layers are rebuilt by class name (layer_registry.h): a model using a custom layer or a
// subclassed model loads once that class is registered; otherwise load_model raises an
// InvalidArgumentError naming the class and how to register it.
//
// The optimizer is rebuilt from its Keras config (optimizers/serialization.h: class, learning
// rate or schedule, every hyperparameter), and its iterations and slots are restored from the
// checkpoint, so training continues with the same updates bit for bit.
//
// Limits: losses by class, with from_logits / label_smoothing / ignore_class for the
// cross-entropies; metrics by name; initializers are not restored (the weights are).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>

#include "tfcc/keras/models/model.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::models {

/// Options of load_model.
struct LoadModelOptions {
  /// Compile the model with the saved compile configuration (when there is one).
  bool compile = true;
};

/// Loads a model written by Model::save. NotFoundError if `filepath` holds no saved model.
std::shared_ptr<Model> load_model(const std::string& filepath, LoadModelOptions options = {});
/// The model's architecture as Keras' JSON (model.to_json()).
std::string model_to_json(const Model& model);
/// A new model (fresh weights) from model_to_json's text (keras.models.model_from_json).
std::shared_ptr<Model> model_from_json(const std::string& json);

/// Model::save's implementation.
void save_model(const Model& model, const std::string& filepath);
/// The config object of a model (class_name + config), as written in config.json.
saving::Json model_config(const Model& model);
/// A model from model_config's object.
std::shared_ptr<Model> model_from_config(const saving::Json& config);

}  // namespace tfcc::keras::models
#pragma GCC visibility pop
