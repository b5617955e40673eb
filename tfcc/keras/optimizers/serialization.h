// Optimizers and learning-rate schedules to and from their Keras config (keras.optimizers.
// serialize / deserialize), so that Model::save / load_model rebuild the optimizer with its
// class and every hyperparameter; its variables (iterations, slots) travel in the checkpoint.
//
//   namespace optimizers = tfcc::keras::optimizers;
//   optimizers::Adam adam({.learning_rate = optimizers::schedules::ExponentialDecay(0.1, 100, 0.9),
//                          .beta_1 = 0.8, .amsgrad = true, .clipnorm = 1.0});
//   saving::Json j = optimizers::serialize(adam);
//   // {"module": "keras.optimizers", "class_name": "Adam", "config": {"name": "Adam", ...,
//   //  "learning_rate": {"module": "keras.optimizers.schedules", "class_name":
//   //  "ExponentialDecay", "config": {...}, "registered_name": null}, "beta_1": 0.8, ...},
//   //  "registered_name": null}
//   std::shared_ptr<optimizers::Optimizer> copy = optimizers::deserialize(j);  // fresh state
//
// Keys missing from a config take Keras' defaults; a value of the wrong type, or a class that is
// not one of the thirteen optimizers and four schedules, is an InvalidArgumentError.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>

#include "tfcc/keras/optimizers/optimizer.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::optimizers {

/// {"module", "class_name", "config", "registered_name"} of an optimizer (its get_config).
saving::Json serialize(const Optimizer& optimizer);
/// A new optimizer (no variables yet) from serialize's object, or from a bare class name string
/// ("adam", as optimizers::get).
std::shared_ptr<Optimizer> deserialize(const saving::Json& config);

}  // namespace tfcc::keras::optimizers

namespace tfcc::keras::optimizers::schedules {

/// {"module", "class_name", "config", "registered_name"} of a schedule.
saving::Json serialize(const LearningRateSchedule& schedule);
/// A schedule from serialize's object.
std::shared_ptr<LearningRateSchedule> deserialize(const saving::Json& config);

}  // namespace tfcc::keras::optimizers::schedules
#pragma GCC visibility pop
