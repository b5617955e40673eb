// The Keras 2 progress bar (tf.keras.utils.Progbar) and the ProgbarLogger callback that fit and
// evaluate use for verbose=1 and verbose=2.
//
//   Epoch 1/5
//   469/469 [==============================] - 9s 18ms/step - loss: 0.5762 - accuracy: 0.7938
//
// On a terminal the bar is redrawn in place ('\b's and '\r'), at most every 0.05 s, and the final
// update ends the line. When the output is not a terminal (a log file, a pipe) only the final line
// of each epoch is written, so logs get one line per epoch.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <chrono>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// Where a progress bar writes and how it reads time (tests inject both).
struct ProgbarIO {
  std::ostream* out = &std::cout;
  /// Redraw in place; default: true when `out` is std::cout and stdout is a terminal.
  std::optional<bool> dynamic;
  /// Seconds on a monotonic clock; default std::chrono::steady_clock.
  std::function<double()> clock;
};

/// Options of a Progbar.
struct ProgbarOptions {
  int width = 30;
  int verbose = 1;
  double interval = 0.05;
  std::string unit_name = "step";
  ProgbarIO io;
};

/// Keras' Progbar with every value treated as a stateful metric (shown as given).
class Progbar {
 public:
  /// A bar for `target` steps (nullopt: unknown).
  explicit Progbar(std::optional<int64_t> target, ProgbarOptions options = {});
  /// Shows progress at step `current` with `values`; `finalize` defaults to current >= target.
  void update(int64_t current, const Logs& values, std::optional<bool> finalize = std::nullopt);
  std::optional<int64_t> target() const { return target_; }
  void set_target(int64_t target) { target_ = target; }

 private:
  double now() const;
  double estimate_step_duration(int64_t current, double now);
  std::string format_time(double time_per_unit, const std::string& unit) const;
  std::string format_value(double v, bool use_abs) const;

  std::optional<int64_t> target_;
  ProgbarOptions options_;
  bool dynamic_;
  Logs values_;
  double start_;
  double last_update_ = 0;
  size_t total_width_ = 0;
  std::optional<double> time_after_first_step_;
  std::optional<double> time_at_epoch_end_;
};

/// Prints "Epoch i/n" and a Progbar per epoch during fit (verbose 1 or 2), or one bar for
/// evaluate / predict called directly.
class ProgbarLogger : public Callback {
 public:
  explicit ProgbarLogger(ProgbarIO io = {}) : io_(std::move(io)) {}

  void on_train_begin(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_test_begin(Logs& logs) override;
  void on_test_batch_end(int batch, Logs& logs) override;
  void on_test_end(Logs& logs) override;
  void on_predict_begin(Logs& logs) override;
  void on_predict_batch_end(int batch, Logs& logs) override;
  void on_predict_end(Logs& logs) override;

 private:
  void reset_progbar();
  void batch_update(int batch, const Logs& logs);
  void finalize(const Logs& logs);

  ProgbarIO io_;
  std::optional<Progbar> progbar_;
  int64_t seen_ = 0;
  bool called_in_fit_ = false;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
