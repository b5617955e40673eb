// BackupAndRestore: makes fit survive interruptions (tf.keras.callbacks.BackupAndRestore, with
// an exact resume). It backs up training in `backup_dir`; when fit starts and a backup exists,
// training continues from it; when fit finishes, the backup is deleted.
//
//   callbacks::BackupAndRestore backup("/tmp/backup", {.save_freq = 50});   // every 50 batches
//   model.fit(dataset, {.epochs = 10, .callbacks = {backup}});
//   // killed at any moment, the same program run again ends with the same weights, bit for bit
//
// A backup holds the model's weights, the optimizer (iterations, learning rate, slots), the
// compiled metrics' state, the epoch and batch reached, the data position (the shuffled order
// and cursor of tensor inputs, or the dataset iterator's state) and the random seed state
// (tfcc::random::get_global_state). Resuming mid-epoch continues after the last batch trained,
// with that epoch's metrics intact. Backups are TensorFlow checkpoints in `<backup_dir>/chief`,
// written atomically (the previous one is kept until the new one is complete).
//
// Random ops inside the training step resume exactly when they have an op seed (Dropout's
// `seed`): without one their seeds are drawn when the step is traced, which a resumed run does
// at a different point of the sequence. The model must be built before fit (an `input_shape` on
// the first layer, or a call on data): FailedPreconditionError otherwise.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <optional>
#include <string>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"
#include "tfcc/keras/callbacks/callback.h"
#include "tfcc/keras/callbacks/save_freq.h"

namespace tfcc::train {
class Checkpoint;
class CheckpointManager;
}  // namespace tfcc::train

namespace tfcc::keras::callbacks {

/// Options of BackupAndRestore (Keras' defaults).
struct BackupAndRestoreOptions {
  /// "epoch" or every N batches.
  SaveFreq save_freq = "epoch";
  /// Delete the backup when training ends.
  bool delete_checkpoint = true;
};

/// tf.keras.callbacks.BackupAndRestore.
class BackupAndRestore : public Callback {
 public:
  /// InvalidArgumentError for an empty `backup_dir`.
  explicit BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options = {});
  ~BackupAndRestore() override;
  BackupAndRestore(BackupAndRestore&&) noexcept;
  BackupAndRestore& operator=(BackupAndRestore&&) noexcept;

  void on_train_begin(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

  /// The backup the last fit resumed from (a checkpoint prefix), if any.
  const std::optional<std::string>& restored_from() const { return restored_from_; }
  /// The directory backups are written to: `<backup_dir>/chief`.
  std::string write_checkpoint_dir() const;

 private:
  void back_up(int epoch, int64_t batch);

  std::string backup_dir_;
  BackupAndRestoreOptions options_;
  std::unique_ptr<train::Checkpoint> checkpoint_;
  std::unique_ptr<train::CheckpointManager> manager_;
  Variable saved_epoch_, saved_batch_;  // TF's _ckpt_saved_epoch / _ckpt_saved_batch
  std::optional<std::string> restored_from_;
  std::string restored_data_;
  int current_epoch_ = 0;
  int64_t batches_count_ = 0;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
