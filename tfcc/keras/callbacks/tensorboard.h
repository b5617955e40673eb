// TensorBoard: logs a Keras training run for TensorBoard (tf.keras.callbacks.TensorBoard).
//
//   callbacks::TensorBoard tensorboard("logs/fit", {.histogram_freq = 1});
//   model.fit(train, {.epochs = 5, .validation_data = ..., .callbacks = {tensorboard}});
//   // then: tensorboard --logdir logs/fit
//
// What it writes, with tf.keras 2's tags, in two runs (`<log_dir>/train`, `<log_dir>/validation`):
//  - at each epoch end, `epoch_<name>` for every log entry (`epoch_loss`, `epoch_accuracy`, ...)
//    at step = epoch; `val_` entries go to the validation run without the prefix; plus
//    `epoch_learning_rate` when the optimizer's learning rate is a schedule (a callback that puts
//    "lr" or "learning_rate" in the logs gets `epoch_lr` / `epoch_learning_rate` that way), and
//    `epoch_steps_per_second` with write_steps_per_second;
//  - with update_freq "batch" or N, `batch_<name>` after training batches whose step (the
//    optimizer's iterations) is a multiple of N (every batch for "batch"), in the train run;
//  - after each evaluation (validation during fit, or evaluate with this callback),
//    `evaluation_<name>_vs_iterations` at step = the optimizer's iterations, in the validation run;
//  - every histogram_freq epochs, a histogram of every weight of every layer, tagged
//    `<weight name with ':' as '_'>/histogram`, at step = epoch;
//  - with write_graph, the traced train step's graph (Event.graph_def, TensorBoard's Graphs tab)
//    once it has been traced (fit traces from its second batch; nothing under run_eagerly).
//
// Not implemented (TensorFlow's profiler, embeddings projector and weight images, and the Keras
// "conceptual graph" JSON): profile_batch, embeddings_freq, write_images have no equivalent here.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <chrono>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>

#include "tfcc/io/summary/summary_writer.h"
#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// How often batch-level summaries are written: "epoch" (none), "batch" (every batch), or every
/// N batches.
class UpdateFreq {
 public:
  UpdateFreq(const char* mode) : UpdateFreq(std::string(mode)) {}  // NOLINT: "epoch" / "batch"
  UpdateFreq(const std::string& mode);                             // NOLINT
  template <std::integral I>
  UpdateFreq(I batches) : batches_(static_cast<int64_t>(batches)) {  // NOLINT: every N batches
    check();
  }
  /// True for "epoch".
  bool per_epoch() const { return batches_ == 0; }
  /// N (1 for "batch"); 0 for "epoch".
  int64_t batches() const { return batches_; }

 private:
  void check() const;
  int64_t batches_ = 0;
};

/// Options of TensorBoard (tf.keras names and defaults).
struct TensorBoardOptions {
  /// Every this many epochs, histograms of the weights (0: never).
  int histogram_freq = 0;
  /// Write the traced train step's graph.
  bool write_graph = true;
  /// Also log steps per second (`batch_steps_per_second`, `epoch_steps_per_second`).
  bool write_steps_per_second = false;
  /// "epoch", "batch" or a number of batches.
  UpdateFreq update_freq = "epoch";
};

/// tf.keras.callbacks.TensorBoard.
class TensorBoard : public Callback {
 public:
  explicit TensorBoard(std::string log_dir = "logs", TensorBoardOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_train_end(Logs& logs) override;
  void on_test_begin(Logs& logs) override;
  void on_test_end(Logs& logs) override;
  void on_train_batch_begin(int batch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

  /// The log directory.
  const std::string& log_dir() const { return log_dir_; }

 private:
  summary::SummaryWriter train_writer();
  summary::SummaryWriter val_writer();
  void push_writer(const summary::SummaryWriter& writer);
  void pop_writer();
  /// The train step: the optimizer's iterations (0 without an optimizer).
  int64_t train_step() const;
  void write_train_graph();
  void log_weights(int epoch);

  std::string log_dir_;
  TensorBoardOptions options_;
  std::optional<summary::SummaryWriter> train_writer_, val_writer_;
  // Batch-level summaries go to the writer pushed for training / evaluation, under record_if.
  struct Pushed {
    summary::WriterScope writer;
    summary::RecordIfScope record_if;
  };
  std::vector<std::unique_ptr<Pushed>> pushed_;
  bool should_write_train_graph_ = false;
  int64_t previous_epoch_iterations_ = 0;
  std::chrono::steady_clock::time_point epoch_start_, batch_start_;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
