// Keras objects in tfcc::train checkpoints, under the object paths TensorFlow 2's Keras uses, so
// that keys stay the same from run to run (they never depend on layer names, which are made
// unique per process: "dense", "dense_1", ...).
//
//   tfcc::train::Checkpoint ckpt({{"model", keras::saving::model_trackable(model)}});
//   // keys: model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE,
//   //       model/optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE,
//   //       model/optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE (Adam's m of the first weight)
//
// A graph network (Sequential, functional Model) lists its layers as `layer-<i>`, and those
// with weights also as `layer_with_weights-<j>`, first (as Keras' Functional does). Other layers
// list their own weights by name ("kernel", "bias") and their sublayers by tracking key. A
// compiled model adds `optimizer`: `_iterations`, `_variables/<i>` (iterations then the slots in
// creation order) and the learning rate as the attribute `learning_rate`.
//
// Optimizer slots are created on the first update; restoring them into a model that has not
// trained yet needs them built first: prepare_for_restore(model) does that (the same order of
// creation as training, so `_variables/<i>` match).
#pragma once

#include <memory>

#include "tfcc/io/checkpoint/trackable.h"
#include "tfcc/keras/models/model.h"

namespace tfcc::keras::saving {

/// The checkpoint node of a layer or model (referenced, not owned: it must outlive the node).
/// `include_optimizer` adds a compiled model's optimizer as `optimizer`.
std::shared_ptr<const train::TrackableNode> layer_trackable(const Layer& layer,
                                                            bool include_optimizer = true);
/// The same for a model.
inline std::shared_ptr<const train::TrackableNode> model_trackable(const Model& model,
                                                                   bool include_optimizer = true) {
  return layer_trackable(model, include_optimizer);
}
/// The checkpoint node of an optimizer.
std::shared_ptr<const train::TrackableNode> optimizer_trackable(
    std::shared_ptr<optimizers::Optimizer> optimizer);
/// The checkpoint node of metrics: one child per metric (by position) holding its variables.
std::shared_ptr<const train::TrackableNode> metrics_trackable(
    std::vector<std::shared_ptr<metrics::Metric>> metrics);

/// Creates a compiled, built model's optimizer slots for its trainable variables, so a restore
/// can fill them. Does nothing for a model that is not compiled or not built.
void prepare_for_restore(Model& model);

}  // namespace tfcc::keras::saving
