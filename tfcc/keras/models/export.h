// Exporting a Keras model for serving (Keras' model.export / tf.saved_model.save(model)): the
// model's inference call is traced with its input spec into the "serving_default" signature and
// written with tfcc::saved_model::save, weights included. The export runs without the model's
// code: tfcc::saved_model::load in C++, or `tfcc saved-model run` on the command line.
//
//   keras::Sequential model({layers::Dense(10, {.input_shape = {784}})});
//   model.fit(...);
//   keras::export_model(model, "/tmp/mnist_export");
//   // A TensorFlow SavedModel laid out for TF Serving (/models/mnist/1):
//   keras::export_model(model, saved_model::serving_directory("/models/mnist"),
//                       {.save = {.format = saved_model::Format::kTensorFlow}});
//
//   auto loaded = tfcc::saved_model::load("/tmp/mnist_export");
//   const auto& serve = loaded.signatures.at("serving_default");
//   tfcc::Tensor logits = serve({images})[0];   // == model(images, {.training = false})
//
// The input spec is the model's functional input (shape with a None batch dimension, dtype,
// and the input layer's name as the signature's input name), or the declared input_shape of
// the model; ExportOptions overrides it. The single output is named "output_0".
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>

#include "tfcc/graph/trace/tensor_spec.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/keras/models/model.h"

namespace tfcc::keras {

/// Options of export_model.
struct ExportOptions {
  /// The serving input; default: the model's input spec (see the overview).
  std::optional<TensorSpec> input_spec;
  /// How saved_model::save writes it: `.save = {.format = saved_model::Format::kTensorFlow}` for a
  /// TensorFlow SavedModel (tf.saved_model.load, TF Serving).
  saved_model::SaveOptions save = {};
};

/// The TensorSpec export_model uses for `model`; InvalidArgumentError if the model has no
/// known input shape (call it once, or give ExportOptions::input_spec).
TensorSpec serving_input_spec(const Model& model);

/// Traces `model(x, {.training = false})` for the input spec into "serving_default" and saves
/// it (and the model's variables) to `dir`, replacing an earlier export there.
void export_model(Model& model, const std::string& dir, ExportOptions options = {});

}  // namespace tfcc::keras
#pragma GCC visibility pop
