// Keras optimizers: every optimizer class, the learning-rate schedules, and optimizers::get for
// the strings compile accepts.
//
//   namespace optimizers = tfcc::keras::optimizers;
//   auto opt = optimizers::get("adam");                 // Adam with TF2's defaults
//   optimizers::SGD sgd({.learning_rate = 0.1, .momentum = 0.9});
//   optimizers::Adam adam({.learning_rate = optimizers::schedules::CosineDecay(1e-3, 10000)});
//
// Default learning rates: SGD 0.01, all others 0.001 (tf.keras 2).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>

#include "tfcc/keras/optimizers/adafactor.h"
#include "tfcc/keras/optimizers/adam.h"
#include "tfcc/keras/optimizers/ftrl.h"
#include "tfcc/keras/optimizers/lamb.h"
#include "tfcc/keras/optimizers/lion.h"
#include "tfcc/keras/optimizers/loss_scale_optimizer.h"
#include "tfcc/keras/optimizers/optimizer.h"
#include "tfcc/keras/optimizers/rmsprop.h"
#include "tfcc/keras/optimizers/schedules/learning_rate_schedule.h"
#include "tfcc/keras/optimizers/serialization.h"
#include "tfcc/keras/optimizers/sgd.h"

namespace tfcc::keras::optimizers {

/// A new optimizer with default settings by (case-insensitive) name: "sgd", "adam", "adamw",
/// "rmsprop", "adagrad", "adadelta", "adamax", "nadam", "ftrl", "lion", "lamb", "adafactor".
/// InvalidArgumentError otherwise.
std::shared_ptr<Optimizer> get(const std::string& identifier);

}  // namespace tfcc::keras::optimizers
#pragma GCC visibility pop
