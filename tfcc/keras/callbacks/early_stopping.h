// EarlyStopping: stops fit when a monitored value stops improving
// (tf.keras.callbacks.EarlyStopping, Keras 2 semantics), optionally restoring the weights of the
// best epoch.
//
//   callbacks::EarlyStopping stop({.monitor = "val_loss", .patience = 3,
//                                  .restore_best_weights = true});
//   model.fit(x, y, {.epochs = 100, .validation_split = 0.2, .callbacks = {stop}});
//
// "auto" mode maximises monitors ending in "acc", "accuracy" or "auc" and minimises the rest. An
// epoch improves when current - min_delta beats the best (max mode: current - |min_delta| > best;
// min mode: current + |min_delta| < best). Training stops once `patience` epochs in a row brought
// no improvement (never after the first epoch).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// Options of EarlyStopping.
struct EarlyStoppingOptions {
  std::string monitor = "val_loss";
  double min_delta = 0;
  int patience = 0;
  int verbose = 0;
  std::string mode = "auto";  ///< "auto", "min" or "max"
  /// Training also stops unless the monitor beats this value.
  std::optional<double> baseline;
  bool restore_best_weights = false;
  /// Epochs to wait before monitoring starts.
  int start_from_epoch = 0;
};

/// tf.keras.callbacks.EarlyStopping.
class EarlyStopping : public Callback {
 public:
  explicit EarlyStopping(EarlyStoppingOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

  /// The epoch (0-based) at which training was stopped, or 0.
  int stopped_epoch() const { return stopped_epoch_; }
  /// The epoch (0-based) with the best monitored value.
  int best_epoch() const { return best_epoch_; }
  /// The best monitored value so far.
  double best() const { return best_; }
  /// Epochs since the last improvement.
  int wait() const { return wait_; }

 private:
  bool is_improvement(double value, double reference) const;

  EarlyStoppingOptions options_;
  bool maximize_ = false;
  double min_delta_ = 0;
  int wait_ = 0, stopped_epoch_ = 0, best_epoch_ = 0;
  double best_ = 0;
  std::optional<std::vector<Tensor>> best_weights_;
};

/// Keras' "auto" direction: true (maximise) for names ending in "acc", "accuracy" or "auc".
bool monitor_is_maximized(const std::string& monitor);

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
