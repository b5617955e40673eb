// ModelCheckpoint: saves the model or its weights during fit (tf.keras.callbacks.ModelCheckpoint,
// Keras 2 semantics and messages).
//
//   callbacks::ModelCheckpoint best("/tmp/ckpt/weights.{epoch:02d}-{val_loss:.2f}",
//                                   {.save_best_only = true, .save_weights_only = true,
//                                    .verbose = 1});
//   model.fit(x, y, {.epochs = 10, .validation_split = 0.2, .callbacks = {best}});
//   // Epoch 3: val_loss improved from 0.51234 to 0.40321, saving model to
//   //   /tmp/ckpt/weights.03-0.40
//
// The file path is formatted like Python's str.format with `epoch` (1-based), `batch` (1-based,
// when saving every N batches) and every value of the logs: `{epoch:02d}`, `{val_loss:.2f}`,
// `{loss:.4e}`. save_weights_only writes Model::save_weights (a TF checkpoint prefix), otherwise
// Model::save (a directory that keras::models::load_model reads).
//
// "auto" mode maximises monitors whose name contains "acc" (or starts with "fmeasure"), and
// minimises the rest. With save_best_only, a save happens only when the monitored value beats
// the best so far (initial_value_threshold, if given, is the first "best").
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>

#include "tfcc/keras/callbacks/callback.h"
#include "tfcc/keras/callbacks/save_freq.h"

namespace tfcc::keras::callbacks {

/// Options of ModelCheckpoint (Keras' defaults).
struct ModelCheckpointOptions {
  std::string monitor = "val_loss";
  int verbose = 0;
  bool save_best_only = false;
  bool save_weights_only = false;
  std::string mode = "auto";  ///< "auto", "min" or "max"
  SaveFreq save_freq = "epoch";
  /// The best value to beat before the first save (save_best_only).
  std::optional<double> initial_value_threshold;
};

/// tf.keras.callbacks.ModelCheckpoint.
class ModelCheckpoint : public Callback {
 public:
  explicit ModelCheckpoint(std::string filepath, ModelCheckpointOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

  /// The best monitored value so far (±inf before any).
  double best() const { return best_; }
  /// The path the last save wrote, if any.
  const std::optional<std::string>& last_saved() const { return last_saved_; }

 private:
  bool should_save_on_batch(int batch);
  void save_model(int epoch, std::optional<int> batch, const Logs& logs);

  std::string filepath_;
  ModelCheckpointOptions options_;
  bool maximize_ = false;
  double best_ = 0;
  int current_epoch_ = 0;
  int last_batch_seen_ = 0;
  int64_t batches_since_last_save_ = 0;
  std::optional<std::string> last_saved_;
};

/// Formats `pattern` like Python's str.format with named values: `{name}`, `{name:spec}` where
/// spec is [sign][0][width][.precision][type], type one of d, f, F, e, E, g, G, % or none;
/// `{{` and `}}` are literal braces. `ints` are formatted as integers, `values` as floats.
/// InvalidArgumentError naming the key when a field is unknown or a spec does not apply.
std::string format_filepath(const std::string& pattern,
                            const std::vector<std::pair<std::string, int64_t>>& ints,
                            const Logs& values);

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
