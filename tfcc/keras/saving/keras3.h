// Keras 3's file formats, as TensorFlow 2.21's Keras (3.x) writes and reads them:
//
//   model.save("m.keras");                  // zip: metadata.json, config.json, model.weights.h5
//   auto m = keras::models::load_model("m.keras");
//   model.save_weights("w.weights.h5");     // HDF5, Keras 3's weight layout
//   model.load_weights("w.weights.h5");     // also accepts "m.keras"
//
// config.json: every object is {"module", "class_name", "config", "registered_name"} (+
// "build_config" for models, "compile_config" at the top). Layer configs are tfcc's get_config
// with Keras 3's spellings: dtype as a DTypePolicy object, InputLayer's "batch_shape",
// initializers and regularizers as serialized objects, functional calls as
// {"args": [__keras_tensor__ ...], "kwargs": {}} with "keras_history": [layer, node, tensor].
//
// model.weights.h5 / .weights.h5 (docs/keras_weights.md has the full layout): the model's own
// variables under /vars, each layer of `model.layers` (Keras' order) under
// /layers/<snake_case class name>[_<k>]/vars/<i> — the path comes from the class, not the layer
// name, which is the group's "name" attribute — sublayers by attribute (/layers/lstm/cell/vars),
// and a compiled model's optimizer under /optimizer/vars (0 iterations, 1 learning rate, then
// the slots per variable: Adam's m and v of the first weight are 2 and 3).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/hdf5/reader.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::saving {

/// The config.json object of a model, Keras 3's schema (includes "compile_config" when compiled).
Json keras3_model_config(const Model& model);
/// A Keras 3 model config (config.json) in the form model_from_config reads.
Json config_from_keras3(const Json& config);
/// One layer as config.json holds it: {"module", "class_name", "config", "registered_name"}.
Json keras3_layer_entry(const Layer& layer);
/// A layer from its config.json entry (through the layer registry).
std::shared_ptr<Layer> layer_from_keras3(const Json& entry);
/// Keras 3's compile config, in the form compile_from_config reads ({} or null: none).
Json compile_config_from_keras3(const Json& compile_config);

/// A model's layers in Keras' `model.layers` order: a Sequential's layers without its
/// InputLayer; a functional model's by decreasing depth from the outputs, then order of
/// discovery (Keras' Functional), InputLayers included.
std::vector<std::shared_ptr<Layer>> keras_layers(const Model& model);
/// Keras' snake_case of a class name: "MaxPooling2D" -> "max_pooling2d", "ReLU" -> "re_lu".
std::string keras_snake_case(const std::string& class_name);

/// Writes the weights (and a compiled, trained model's optimizer state) in Keras 3's layout.
void save_keras3_weights(const Model& model, io::hdf5::Group root);
/// Assigns the weights read from Keras 3's layout; every layer's variables must be present
/// with the model's shapes and dtypes (InvalidArgumentError naming the file and the path
/// otherwise). The optimizer's state is restored when `load_optimizer`, the model is compiled
/// and the file has a matching one (a mismatch is a warning, as in Keras).
void load_keras3_weights(Model& model, const io::hdf5::ReadGroup& root, bool load_optimizer);

/// Writes a `.keras` archive.
void save_keras_archive(const Model& model, const std::string& path);
/// Reads a `.keras` archive (compiles the model when `compile` and it was compiled).
std::shared_ptr<Model> load_keras_archive(const std::string& path, bool compile);
/// The model.weights.h5 member of a `.keras` archive, opened by tfcc's HDF5 reader.
io::hdf5::Reader keras_archive_weights(const std::string& path);

}  // namespace tfcc::keras::saving

namespace tfcc::keras::models {

/// The compile configuration of a compiled model ({"optimizer", "loss", "metrics", ...}), as
/// tfcc's own config.json holds it (model_saving.cc).
saving::Json compile_config(const Model& model);
/// Compiles `model` from compile_config's object.
void compile_from_config(Model& model, const saving::Json& config);

}  // namespace tfcc::keras::models
