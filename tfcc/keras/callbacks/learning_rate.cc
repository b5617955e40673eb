// LearningRateScheduler and ReduceLROnPlateau (keras/callbacks.py).
#include "tfcc/keras/callbacks/learning_rate.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include "tfcc/keras/callbacks/python_repr.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/keras/optimizers/optimizer.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::callbacks {
namespace {

// The model's optimizer, or FailedPreconditionError (the callback runs outside a compiled fit).
optimizers::Optimizer& optimizer_of(Model* model, const char* who) {
  TFCC_REQUIRE(FailedPreconditionError, model != nullptr && model->optimizer() != nullptr, who,
               " needs a compiled model with an optimizer");
  return *model->optimizer();
}

// The current rate as Keras reads it (the float32 variable's value).
double current_lr(optimizers::Optimizer& opt) { return opt.learning_rate().item<float>(); }

}  // namespace

LearningRateScheduler::LearningRateScheduler(Schedule schedule, int verbose)
    : schedule_(std::move(schedule)), verbose_(verbose) {
  TFCC_CHECK_ARG(schedule_ != nullptr, "LearningRateScheduler needs a schedule");
}

LearningRateScheduler::LearningRateScheduler(std::function<double(int)> schedule, int verbose)
    : verbose_(verbose) {
  TFCC_CHECK_ARG(schedule != nullptr, "LearningRateScheduler needs a schedule");
  schedule_ = [s = std::move(schedule)](int epoch, double) { return s(epoch); };
}

void LearningRateScheduler::on_epoch_begin(int epoch, Logs&) {
  optimizers::Optimizer& opt = optimizer_of(model(), "LearningRateScheduler");
  double lr = schedule_(epoch, current_lr(opt));
  TFCC_CHECK_ARG(std::isfinite(lr), "The output of the \"schedule\" function should be a finite ",
                 "float, got ", lr, " at epoch ", epoch);
  opt.set_learning_rate(lr);
  if (verbose_ > 0) {
    std::cout << "\nEpoch " << epoch + 1 << ": LearningRateScheduler setting learning rate to "
              << python_float_repr(lr) << ".\n";
  }
}

void LearningRateScheduler::on_epoch_end(int, Logs& logs) {
  logs.set("lr", current_lr(optimizer_of(model(), "LearningRateScheduler")));
}

ReduceLROnPlateau::ReduceLROnPlateau(ReduceLROnPlateauOptions options)
    : options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.factor < 1.0, "ReduceLROnPlateau does not support a factor >= 1.0. ",
                 "Received factor=", options_.factor);
  reset();
}

void ReduceLROnPlateau::reset() {
  if (options_.mode != "auto" && options_.mode != "min" && options_.mode != "max") {
    TFCC_LOG(WARNING) << "Learning rate reduction mode " << options_.mode
                      << " is unknown, fallback to auto mode.";
    options_.mode = "auto";
  }
  maximize_ = !(options_.mode == "min" ||
                (options_.mode == "auto" && options_.monitor.find("acc") == std::string::npos));
  best_ = maximize_ ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  cooldown_counter_ = 0;
  wait_ = 0;
}

bool ReduceLROnPlateau::improved(double current) const {
  return maximize_ ? current > best_ + options_.min_delta : current < best_ - options_.min_delta;
}

void ReduceLROnPlateau::on_train_begin(Logs&) { reset(); }

void ReduceLROnPlateau::on_epoch_end(int epoch, Logs& logs) {
  optimizers::Optimizer& opt = optimizer_of(model(), "ReduceLROnPlateau");
  logs.set("lr", current_lr(opt));
  std::optional<double> current = logs.get(options_.monitor);
  if (!current) {
    std::string keys;
    for (const auto& [k, v] : logs.items()) keys += (keys.empty() ? "" : ",") + k;
    TFCC_LOG(WARNING) << "Learning rate reduction is conditioned on metric `" << options_.monitor
                      << "` which is not available. Available metrics are: " << keys;
    return;
  }
  if (cooldown_counter_ > 0) {
    --cooldown_counter_;
    wait_ = 0;
  }
  if (improved(*current)) {
    best_ = *current;
    wait_ = 0;
  } else if (cooldown_counter_ == 0) {
    ++wait_;
    if (wait_ >= options_.patience) {
      float old_lr = static_cast<float>(current_lr(opt));
      if (old_lr > static_cast<float>(options_.min_lr)) {
        // numpy float32 arithmetic, as Keras does on the variable's value.
        float new_lr = old_lr * static_cast<float>(options_.factor);
        new_lr = std::max(new_lr, static_cast<float>(options_.min_lr));
        opt.set_learning_rate(new_lr);
        if (options_.verbose > 0) {
          std::cout << "\nEpoch " << epoch + 1 << ": ReduceLROnPlateau reducing learning rate to "
                    << python_float32_repr(new_lr) << ".\n";
        }
        cooldown_counter_ = options_.cooldown;
        wait_ = 0;
      }
    }
  }
}

}  // namespace tfcc::keras::callbacks
