#include "tfcc/keras/models/export.h"

#include "tfcc/graph/trace/function.h"
#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::keras {

TensorSpec serving_input_spec(const Model& model) {
  if (model.is_graph_network()) {
    KerasTensors inputs = model.inputs();
    if (inputs.size() != 1) {
      throw UnimplementedError(internal::str_cat("export_model: model '", model.name(), "' has ",
                                                 inputs.size(),
                                                 " inputs; exporting takes models with one input"));
    }
    // The input layer's name ("input_1", or Sequential's "conv2d_input"), as Keras exports.
    std::string name = "inputs";
    if (inputs[0].node() && inputs[0].node()->layer) name = inputs[0].node()->layer->name();
    return TensorSpec{inputs[0].shape(), inputs[0].dtype(), name};
  }
  if (model.declared_input_shape()) {
    return TensorSpec{*model.declared_input_shape(), model.dtype(), "inputs"};
  }
  throw InvalidArgumentError(internal::str_cat(
      "export_model: model '", model.name(),
      "' has no known input shape. Give the first layer an input_shape, build the model with "
      "keras::Input, or pass ExportOptions::input_spec"));
}

void export_model(Model& model, const std::string& dir, ExportOptions options) {
  TensorSpec spec = options.input_spec ? *options.input_spec : serving_input_spec(model);
  if (spec.name.empty()) spec.name = "inputs";
  auto serve = tfcc::function([&model](Tensor x) { return model(x, {.training = false}); },
                              {.name = model.name() + "_serving_default"});
  saved_model::save(model, dir, serve.get_concrete_function(spec), options.save);
}

}  // namespace tfcc::keras
