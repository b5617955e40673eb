// EarlyStopping (keras/callbacks.py).
#include "tfcc/keras/callbacks/early_stopping.h"

#include <cmath>
#include <iostream>
#include <limits>

#include "tfcc/keras/models/model.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::callbacks {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string keys_of(const Logs& logs) {
  std::string s;
  for (const auto& [k, v] : logs.items()) {
    if (!s.empty()) s += ",";
    s += k;
  }
  return s;
}

}  // namespace

bool monitor_is_maximized(const std::string& monitor) {
  return ends_with(monitor, "acc") || ends_with(monitor, "accuracy") || ends_with(monitor, "auc");
}

EarlyStopping::EarlyStopping(EarlyStoppingOptions options) : options_(std::move(options)) {
  if (options_.mode != "auto" && options_.mode != "min" && options_.mode != "max") {
    TFCC_LOG(WARNING) << "EarlyStopping mode " << options_.mode
                      << " is unknown, fallback to auto mode.";
    options_.mode = "auto";
  }
  maximize_ =
      options_.mode == "max" || (options_.mode == "auto" && monitor_is_maximized(options_.monitor));
  min_delta_ = maximize_ ? std::abs(options_.min_delta) : -std::abs(options_.min_delta);
}

bool EarlyStopping::is_improvement(double value, double reference) const {
  return maximize_ ? value - min_delta_ > reference : value - min_delta_ < reference;
}

void EarlyStopping::on_train_begin(Logs&) {
  wait_ = 0;
  stopped_epoch_ = 0;
  best_ = maximize_ ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  best_weights_.reset();
  best_epoch_ = 0;
}

void EarlyStopping::on_epoch_end(int epoch, Logs& logs) {
  std::optional<double> current = logs.get(options_.monitor);
  if (!current) {
    TFCC_LOG(WARNING) << "Early stopping conditioned on metric `" << options_.monitor
                      << "` which is not available. Available metrics are: " << keys_of(logs);
    return;
  }
  if (epoch < options_.start_from_epoch) return;
  Model* m = model();
  if (options_.restore_best_weights && !best_weights_ && m) {
    // If no epoch ever improves, the first monitored epoch's weights count as the best.
    best_weights_ = m->get_weights();
    best_epoch_ = epoch;
  }
  ++wait_;
  if (is_improvement(*current, best_)) {
    best_ = *current;
    best_epoch_ = epoch;
    if (options_.restore_best_weights && m) best_weights_ = m->get_weights();
    // Only restart the wait if both the baseline and the previous best are beaten.
    if (!options_.baseline || is_improvement(*current, *options_.baseline)) wait_ = 0;
    return;
  }
  if (wait_ >= options_.patience && epoch > 0) {
    stopped_epoch_ = epoch;
    if (m) m->stop_training = true;
    if (options_.restore_best_weights && best_weights_ && m) {
      if (options_.verbose > 0) {
        std::cout << "Restoring model weights from the end of the best epoch: " << best_epoch_ + 1
                  << ".\n";
      }
      m->set_weights(*best_weights_);
    }
  }
}

void EarlyStopping::on_train_end(Logs&) {
  if (stopped_epoch_ > 0 && options_.verbose > 0) {
    std::cout << "Epoch " << stopped_epoch_ + 1 << ": early stopping\n";
  }
}

}  // namespace tfcc::keras::callbacks
