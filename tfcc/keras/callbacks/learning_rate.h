// Callbacks that change the optimizer's learning rate between epochs: LearningRateScheduler and
// ReduceLROnPlateau (tf.keras.callbacks, Keras 2 semantics). Both record the rate in the epoch's
// logs as "lr", so it appears in history.
//
//   callbacks::LearningRateScheduler scheduler([](int epoch, double lr) {
//     return epoch < 10 ? lr : lr * std::exp(-0.1);
//   });
//   callbacks::ReduceLROnPlateau plateau({.monitor = "val_loss", .factor = 0.2, .patience = 5});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <string>

#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// Sets the learning rate at the start of each epoch to schedule(epoch, current_lr).
class LearningRateScheduler : public Callback {
 public:
  /// A schedule of the epoch (0-based) and the current rate.
  using Schedule = std::function<double(int epoch, double lr)>;
  explicit LearningRateScheduler(Schedule schedule, int verbose = 0);
  /// A schedule of the epoch only.
  explicit LearningRateScheduler(std::function<double(int epoch)> schedule, int verbose = 0);

  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

 private:
  Schedule schedule_;
  int verbose_;
};

/// Options of ReduceLROnPlateau.
struct ReduceLROnPlateauOptions {
  std::string monitor = "val_loss";
  double factor = 0.1;  ///< new_lr = lr * factor; must be < 1
  int patience = 10;
  int verbose = 0;
  std::string mode = "auto";  ///< "auto" minimises unless the monitor contains "acc"
  double min_delta = 1e-4;
  int cooldown = 0;  ///< epochs to wait after a reduction before counting again
  double min_lr = 0;
};

/// Multiplies the learning rate by `factor` when the monitor has not improved for `patience`
/// epochs (tf.keras.callbacks.ReduceLROnPlateau).
class ReduceLROnPlateau : public Callback {
 public:
  explicit ReduceLROnPlateau(ReduceLROnPlateauOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

  /// Epochs since the last improvement.
  int wait() const { return wait_; }
  /// The best monitored value so far.
  double best() const { return best_; }

 private:
  void reset();
  bool improved(double current) const;

  ReduceLROnPlateauOptions options_;
  bool maximize_ = false;
  int wait_ = 0, cooldown_counter_ = 0;
  double best_ = 0;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
